package doseresp

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// WriteDir's Parquet twins hold the CSV tables' columns and rows.
func TestWriteDirTwins(t *testing.T) {
	blk := grid(doses, doses, bliss0)
	blk.ID, blk.CellLine, blk.Unit = "b1", "L1", "uM"
	scored := ScoreAll([]*Block{blk}, Options{}, nil)
	dir := t.TempDir()
	if err := WriteDir(dir, scored, &Report{Input: "t"}); err != nil {
		t.Fatal(err)
	}
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	for _, tc := range []struct {
		csv, pq string
		cols    []string
		rows    int
	}{{BlocksCSV, BlocksParquet, BlockColumns(Synergies()), 1}, {WellsCSV, WellsParquet, WellColumns(Synergies()), len(doses) * len(doses)}} {
		f, err := os.Open(filepath.Join(dir, tc.csv))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(recs[0], ",") != strings.Join(tc.cols, ",") || len(recs)-1 != tc.rows {
			t.Errorf("%s: header %v, %d rows", tc.csv, recs[0], len(recs)-1)
		}
		pf, err := file.OpenParquetFile(filepath.Join(dir, tc.pq), false)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, alloc)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := fr.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if int(tab.NumRows()) != tc.rows || int(tab.NumCols()) != len(tc.cols) {
			t.Errorf("%s: %d rows, %d columns", tc.pq, tab.NumRows(), tab.NumCols())
		}
		for k, name := range tc.cols {
			if tab.Schema().Field(k).Name != name {
				t.Errorf("%s: column %d is %s, want %s", tc.pq, k, tab.Schema().Field(k).Name, name)
			}
		}
		if tc.csv == BlocksCSV {
			id := tab.Column(0).Data().Chunk(0).(*array.String).Value(0)
			css := tab.Column(14).Data().Chunk(0).(*array.Float64).Value(0)
			if id != "b1" || css != scored[0].Result.Summary.CSS {
				t.Errorf("parquet block %s css %v, want b1 %v", id, css, scored[0].Result.Summary.CSS)
			}
		}
		tab.Release()
		pf.Close()
	}
}
