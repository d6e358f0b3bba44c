package drugcomb

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/deup-screening/deup/internal/tabular"
)

// The same five measurements in every format: (A,B) twice in both orders,
// (A,C) with a null score in the second score column, and one self-pair.
// Expected: 2 pairs, 4 measurements, 1 row dropped (self-pair).
const sameTableCSV = "drug 1,drug 2,line,syn,other,smi 1,smi 2\n" +
	"A,B,PC-3,1.5,10,CCO,CCN\n" +
	"B,A,PC-3,2.5,20,CCN,CCO\n" +
	"A,C,PC-3,-3,,CCO,c1ccccc1\n" +
	"C,A,PC-3,-5,7,c1ccccc1,CCO\n" +
	"C,C,PC-3,0,0,c1ccccc1,c1ccccc1\n"

func sameTableOpts() Options {
	return Options{Columns: Columns{DrugA: "drug 1", DrugB: "drug 2", CellLine: "line", Scores: []string{"syn", "other"}, SMILESA: "smi 1", SMILESB: "smi 2"}}
}

func checkSameTable(t *testing.T, s *Screen, rep *Report) {
	t.Helper()
	if len(s.Pairs) != 2 || s.Measurements() != 4 || rep.RowsRead != 5 || rep.DroppedRows() != 1 {
		t.Fatalf("pairs %d, measurements %d, rows %d, dropped %d; want 2, 4, 5, 1", len(s.Pairs), s.Measurements(), rep.RowsRead, rep.DroppedRows())
	}
	ab, ac := s.Pairs[0], s.Pairs[1]
	// (A,B): syn mean 2, var 0.5; other mean 15, var 50.
	if ab.Mean[0] != 2 || ab.Var[0] != 0.5 || ab.Mean[1] != 15 || ab.Var[1] != 50 {
		t.Errorf("(A,B) = %+v", ab)
	}
	// (A,C): syn mean -4, var 2; other has one value (7): var NaN, count 1.
	if ac.Mean[0] != -4 || ac.Var[0] != 2 || ac.Mean[1] != 7 || !math.IsNaN(ac.Var[1]) || ac.Count == nil || ac.Count[1] != 1 {
		t.Errorf("(A,C) = %+v", ac)
	}
	for _, d := range s.Drugs {
		want := map[string]string{"A": "CCO", "B": "CCN", "C": "c1ccccc1"}[d.ID]
		if d.SMILES != want {
			t.Errorf("drug %s SMILES %q, want %q", d.ID, d.SMILES, want)
		}
	}
}

// sameTableRecord builds the table as Arrow, with types a new user's tools
// produce: large strings, a dictionary-encoded cell line, float32 scores.
func sameTableRecord(mem memory.Allocator) arrow.Record {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "drug 1", Type: arrow.BinaryTypes.LargeString},
		{Name: "drug 2", Type: arrow.BinaryTypes.String},
		{Name: "line", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}},
		{Name: "syn", Type: arrow.PrimitiveTypes.Float32},
		{Name: "other", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "smi 1", Type: arrow.BinaryTypes.String},
		{Name: "smi 2", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	rows := [][]string{{"A", "B", "CCO", "CCN"}, {"B", "A", "CCN", "CCO"}, {"A", "C", "CCO", "c1ccccc1"}, {"C", "A", "c1ccccc1", "CCO"}, {"C", "C", "c1ccccc1", "c1ccccc1"}}
	syn := []float32{1.5, 2.5, -3, -5, 0}
	other := []int64{10, 20, -1, 7, 0}
	for i, r := range rows {
		b.Field(0).(*array.LargeStringBuilder).Append(r[0])
		b.Field(1).(*array.StringBuilder).Append(r[1])
		if err := b.Field(2).(*array.BinaryDictionaryBuilder).AppendString("PC-3"); err != nil {
			panic(err)
		}
		b.Field(3).(*array.Float32Builder).Append(syn[i])
		if other[i] < 0 {
			b.Field(4).AppendNull()
		} else {
			b.Field(4).(*array.Int64Builder).Append(other[i])
		}
		b.Field(5).(*array.StringBuilder).Append(r[2])
		b.Field(6).(*array.StringBuilder).Append(r[3])
	}
	return b.NewRecord()
}

func TestImportFormats(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		content    func(t *testing.T, mem memory.Allocator) []byte
	}{
		{"csv", "t.csv", func(*testing.T, memory.Allocator) []byte { return []byte(sameTableCSV) }},
		{"tsv", "t.tsv", func(*testing.T, memory.Allocator) []byte {
			return bytes.ReplaceAll([]byte(sameTableCSV), []byte(","), []byte("\t"))
		}},
		{"semicolon in .csv", "t.csv", func(*testing.T, memory.Allocator) []byte {
			return bytes.ReplaceAll([]byte(sameTableCSV), []byte(","), []byte(";"))
		}},
		{"pipe .txt", "t.txt", func(*testing.T, memory.Allocator) []byte {
			return bytes.ReplaceAll([]byte(sameTableCSV), []byte(","), []byte("|"))
		}},
		{"bom crlf quoted", "t.csv", func(*testing.T, memory.Allocator) []byte {
			b := bytes.ReplaceAll([]byte(sameTableCSV), []byte("\n"), []byte("\r\n"))
			b = bytes.ReplaceAll(b, []byte("CCO"), []byte(`"CCO"`))
			return append([]byte("\xef\xbb\xbf"), b...)
		}},
		{"gzip tsv", "t.tsv.gz", func(t *testing.T, _ memory.Allocator) []byte {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(bytes.ReplaceAll([]byte(sameTableCSV), []byte(","), []byte("\t")))
			zw.Close()
			return buf.Bytes()
		}},
		{"parquet", "t.parquet", func(t *testing.T, mem memory.Allocator) []byte {
			rec := sameTableRecord(mem)
			defer rec.Release()
			var buf bytes.Buffer
			w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, parquet.NewWriterProperties(parquet.WithAllocator(mem)), pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}},
		{"arrow file", "t.feather", func(t *testing.T, mem memory.Allocator) []byte {
			rec := sameTableRecord(mem)
			defer rec.Release()
			var buf bytes.Buffer
			w, err := tabular.NewWriter(&buf, tabular.Arrow, rec.Schema(), tabular.Options{Mem: mem})
			if err != nil {
				t.Fatal(err)
			}
			// Two record batches: the reader must stitch chunks.
			s1, s2 := rec.NewSlice(0, 2), rec.NewSlice(2, 5)
			defer s1.Release()
			defer s2.Release()
			if err := w.Write(s1); err != nil {
				t.Fatal(err)
			}
			if err := w.Write(s2); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}},
		{"arrow stream", "t.arrows", func(t *testing.T, mem memory.Allocator) []byte {
			rec := sameTableRecord(mem)
			defer rec.Release()
			var buf bytes.Buffer
			w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			p := filepath.Join(t.TempDir(), tc.file)
			// The inputs are written with their own allocator: arrow-go
			// v15's IPC writer leaks the unified dictionary of a
			// dictionary column written in two batches (seen with a
			// checked allocator on the writer alone). The import under
			// test uses the checked one.
			if err := os.WriteFile(p, tc.content(t, memory.NewGoAllocator()), 0o644); err != nil {
				t.Fatal(err)
			}
			opt := sameTableOpts()
			opt.Allocator = mem
			s, rep, err := ImportTable(p, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkSameTable(t, s, rep)
			// import -> Parquet -> load preserves every value.
			dir := filepath.Join(t.TempDir(), "screen")
			if err := saveWith(dir, s, nil, mem); err != nil {
				t.Fatal(err)
			}
			back, err := openWith(dir, FormParquet, mem)
			if err != nil {
				t.Fatal(err)
			}
			if !back.Equal(s) {
				t.Errorf("Parquet round trip changed the screen:\n got %+v\nwant %+v", back, s)
			}
		})
	}
}
