package lincs

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

func TestArrowRoundTrip(t *testing.T) {
	small13, err := ReadGCT(strings.NewReader(gct13), "small13.gct")
	if err != nil {
		t.Fatal(err)
	}
	small12, err := ReadGCT(strings.NewReader(gct12), "small12.gct")
	if err != nil {
		t.Fatal(err)
	}
	// Column metadata named like the fixed fields must not collide.
	clash := &Matrix{Version: "1.3", Rows: []string{"r"}, Cols: []string{"c1", "c2"},
		RowMeta: []Field{}, ColMeta: []Field{{"id", []string{"x", "y"}}, {"values", []string{"1", "2"}}, {"id_", []string{"", "z"}}},
		Values: []float32{nan32, -0.0}}
	matrices := []struct {
		name string
		m    *Matrix
	}{{"gct 1.2", small12}, {"gct 1.3", small13}, {"colliding metadata names", clash}, {"consensus", consensus(t)}}
	formats := []struct {
		name  string
		write func(*bytes.Buffer, *Matrix, memory.Allocator) error
		read  func(*bytes.Reader, memory.Allocator) (*Matrix, error)
	}{
		{"ipc", func(b *bytes.Buffer, m *Matrix, mem memory.Allocator) error { return WriteIPC(b, m, mem) },
			func(r *bytes.Reader, mem memory.Allocator) (*Matrix, error) { return ReadIPC(r, mem) }},
		{"parquet", func(b *bytes.Buffer, m *Matrix, mem memory.Allocator) error { return WriteParquet(b, m, mem) },
			func(r *bytes.Reader, mem memory.Allocator) (*Matrix, error) { return ReadParquet(r, mem) }},
	}
	for _, mc := range matrices {
		for _, f := range formats {
			t.Run(mc.name+"/"+f.name, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				var buf bytes.Buffer
				if err := f.write(&buf, mc.m, mem); err != nil {
					t.Fatal(err)
				}
				got, err := f.read(bytes.NewReader(buf.Bytes()), mem)
				if err != nil {
					t.Fatal(err)
				}
				sameMatrix(t, mc.m, got)
			})
		}
	}
}

func TestRecordSchema(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	m, err := ReadGCT(strings.NewReader(gct13), "small13.gct")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.Record(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	want := "schema:\n  fields: 4\n    - id: type=utf8\n    - pert_iname: type=utf8\n    - cell_id: type=utf8\n    - values: type=list<item: float32, nullable>, nullable"
	if got := rec.Schema().String(); !strings.HasPrefix(got, want) {
		t.Errorf("schema:\n%s\nwant prefix:\n%s", got, want)
	}
	if rec.NumRows() != 2 {
		t.Errorf("%d rows, want one per GCT column (2)", rec.NumRows())
	}
}

func TestFromRecordsRejects(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sigs := &Signatures{Genes: []string{"g"}, DrugIDs: []string{"d"}, Vectors: [][]float32{{1}}, Columns: []string{"c"}, By: []Method{ByName}}
	rec, err := sigs.Record(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if _, err := FromRecords(rec.Schema(), nil); err == nil || !strings.Contains(err.Error(), "gct.version") {
		t.Errorf("a signatures record read as a matrix: err = %v", err)
	}
}

// TestReadMatrixWrongFormat checks that both readers (one readRecords)
// refuse a file of the other format and an empty one, each error naming
// its format as before they shared it ("lincs: read arrow: …", "lincs:
// read parquet: …").
func TestReadMatrixWrongFormat(t *testing.T) {
	small13, err := ReadGCT(strings.NewReader(gct13), "small13.gct")
	if err != nil {
		t.Fatal(err)
	}
	var ipcFile, pqFile bytes.Buffer
	if err := WriteIPC(&ipcFile, small13, memory.DefaultAllocator); err != nil {
		t.Fatal(err)
	}
	if err := WriteParquet(&pqFile, small13, memory.DefaultAllocator); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		read   func(*bytes.Reader, memory.Allocator) (*Matrix, error)
		data   []byte
		prefix string
	}{
		{"parquet as ipc", func(r *bytes.Reader, mem memory.Allocator) (*Matrix, error) { return ReadIPC(r, mem) }, pqFile.Bytes(), "lincs: read arrow: "},
		{"empty as ipc", func(r *bytes.Reader, mem memory.Allocator) (*Matrix, error) { return ReadIPC(r, mem) }, nil, "lincs: read arrow: "},
		{"ipc as parquet", func(r *bytes.Reader, mem memory.Allocator) (*Matrix, error) { return ReadParquet(r, mem) }, ipcFile.Bytes(), "lincs: read parquet: "},
		{"empty as parquet", func(r *bytes.Reader, mem memory.Allocator) (*Matrix, error) { return ReadParquet(r, mem) }, nil, "lincs: read parquet: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.read(bytes.NewReader(tc.data), memory.DefaultAllocator)
			if err == nil || !strings.HasPrefix(err.Error(), tc.prefix) {
				t.Fatalf("got %v, %v; want an error starting %q", m, err, tc.prefix)
			}
		})
	}
}
