package drugcomb

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/internal/tabular"
)

// TestReadCellFeatures reads cell-line feature tables: every numeric column
// beside cell_line; errors name the file, line and column.
func TestReadCellFeatures(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		wantErr    string // "" for none
		lines      string
		names      string
	}{
		{"ok.csv", "cell_line,a,b\nPC-3,1,2\nMCF7,3,4.5\n", "", "PC-3,MCF7", "a,b"},
		{"order.csv", "a,cell_line\n1,PC-3\n2,A549\n", "", "PC-3,A549", "a"},
		{"tsv.tsv", "cell_line\ta\nPC-3\t1\n", "", "PC-3", "a"},
		{"noline.csv", "line,a\nPC-3,1\n", `noline.csv:1: column "cell_line": missing column`, "", ""},
		{"nonum.csv", "cell_line\nPC-3\n", "no numeric column", "", ""},
		{"text.csv", "cell_line,a\nPC-3,x\n", `text.csv:2:6: column "a": not a number: "x" (cell line PC-3)`, "", ""},
		{"empty.csv", "cell_line,a\nPC-3,\n", `text`, "", ""},
		{"nan.csv", "cell_line,a\nPC-3,NaN\n", `nan.csv:2:6: column "a": not a number`, "", ""},
		{"inf.csv", "cell_line,a\nPC-3,-Inf\n", `inf.csv:2:6: column "a": infinite value`, "", ""},
		{"dup.csv", "cell_line,a\nPC-3,1\npc-3,2\n", `dup.csv:3:1: column "cell_line": cell line "pc-3" listed twice (first at `, "", ""},
		{"blank.csv", "cell_line,a\n,1\n", `empty cell line`, "", ""},
		{"norows.csv", "cell_line,a\n", `no cell line in the table`, "", ""},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		cf, err := ReadCellFeatures(path)
		if tc.name == "empty.csv" {
			tc.wantErr = `empty.csv:2:6: column "a": not a number: ""`
		}
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := strings.Join(cf.Lines, ","); got != tc.lines {
			t.Errorf("%s: lines %s, want %s", tc.name, got, tc.lines)
		}
		if got := strings.Join(cf.Names, ","); got != tc.names {
			t.Errorf("%s: columns %s, want %s", tc.name, got, tc.names)
		}
	}
}

// TestCellFeaturesStandardized: each column is centred and scaled by its
// population sd over the table's lines; a constant column is 0; lines of
// the file not asked for still count; a line without a row is an error;
// WithLines appends the file's other lines.
func TestCellFeaturesStandardized(t *testing.T) {
	cf := &CellFeatures{File: "f.csv", Names: []string{"a", "c"}, Lines: []string{"L1", "L2", "L3", "NEW"},
		Values: [][]float64{{1, 5}, {2, 5}, {3, 5}, {6, 5}}}
	// a: mean 3, population sd sqrt((4+1+0+9)/4) = sqrt(3.5)
	x, err := cf.Standardized([]string{"l3", "L1"})
	if err != nil {
		t.Fatal(err)
	}
	sd := math.Sqrt(3.5)
	want := [][]float64{{0, 0}, {-2 / sd, 0}}
	for i := range want {
		for j := range want[i] {
			if math.Abs(x[i][j]-want[i][j]) > 1e-12 {
				t.Errorf("x[%d][%d] = %v, want %v", i, j, x[i][j], want[i][j])
			}
		}
	}
	if _, err := cf.Standardized([]string{"L1", "L9"}); err == nil || !strings.Contains(err.Error(), "f.csv: no row for cell line L9") {
		t.Errorf("missing line: %v", err)
	}
	if got := strings.Join(cf.WithLines([]string{"L2", "l1"}), ","); got != "L2,l1,L3,NEW" {
		t.Errorf("WithLines: %s", got)
	}
}

// TestReadCellFeaturesParquet reads the same table from Parquet, the
// project's writer's, with an integer column.
func TestReadCellFeaturesParquet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cf.parquet")
	schema := arrow.NewSchema([]arrow.Field{{Name: "cell_line", Type: arrow.BinaryTypes.String}, {Name: "a", Type: arrow.PrimitiveTypes.Float64}, {Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	f, err := tabular.Create(path, schema, tabular.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"PC-3", "MCF7"}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0.5, -1}, nil)
	b.Field(2).(*array.Int64Builder).AppendValues([]int64{2, 4}, nil)
	rec := b.NewRecord()
	if err := f.Write(rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	b.Release()
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	cf, err := ReadCellFeatures(path)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := cf.Row("mcf7"); !ok || r[0] != -1 || r[1] != 4 {
		t.Errorf("MCF7: %v %v", r, ok)
	}
}
