package tabular

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"

	"github.com/deup-screening/deup/internal/arrowguard"
)

// testRecord holds the column types the commands emit: string ids (one with
// a comma, one null name), float64 values, a bool, a nullable float and a
// list of int32 bits (one empty).
func testRecord(mem memory.Allocator) arrow.Record {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.BinaryTypes.String},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "mu", Type: arrow.PrimitiveTypes.Float64},
		{Name: "measured", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "measured_mean", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "bits", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"2244", "a,b"}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"Aspirin", ""}, []bool{true, false})
	b.Field(2).(*array.Float64Builder).AppendValues([]float64{0, 1.0 / 3}, nil)
	b.Field(3).(*array.BooleanBuilder).AppendValues([]bool{true, false}, nil)
	b.Field(4).(*array.Float64Builder).AppendValues([]float64{-225, 0}, []bool{true, false})
	lb := b.Field(5).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Int32Builder)
	lb.Append(true)
	vb.AppendValues([]int32{1, 80, 1023}, nil)
	lb.Append(true)
	return b.NewRecord()
}

func TestFormatOf(t *testing.T) {
	tests := []struct {
		path string
		want Format
		err  bool
	}{
		{"x.csv", CSV, false}, {"x.CSV", CSV, false}, {"d/x.arrow", Arrow, false}, {"x.feather", Arrow, false},
		{"x.ipc", Arrow, false}, {"x.parquet", Parquet, false}, {"x.pq", Parquet, false},
		{"x.json", 0, true}, {"x", 0, true},
	}
	for _, tt := range tests {
		got, err := FormatOf(tt.path)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("FormatOf(%q) = %v, %v; want %v, error %v", tt.path, got, err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, ErrFormat) {
			t.Errorf("FormatOf(%q): error %v is not ErrFormat", tt.path, err)
		}
	}
}

// TestCSV checks the CSV form byte for byte: quoting as encoding/csv
// writes it (RFC 4180), nulls empty, floats exact with a decimal point, or
// at the digits asked for.
func TestCSV(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := testRecord(mem)
	defer rec.Release()
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{"shortest", Options{Mem: mem}, "id,name,mu,measured,measured_mean,bits\n" +
			"2244,Aspirin,0.0,true,-225.0,1 80 1023\n" +
			"\"a,b\",,0.3333333333333333,false,,\n"},
		{"7 digits for mu", Options{Mem: mem, Digits: map[string]int{"mu": 7}}, "id,name,mu,measured,measured_mean,bits\n" +
			"2244,Aspirin,0.0,true,-225.0,1 80 1023\n" +
			"\"a,b\",,0.3333333,false,,\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Encode(&buf, CSV, rec, tt.opt); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", buf.String(), tt.want)
			}
		})
	}
}

func TestAppendCSVField(t *testing.T) {
	tests := []struct{ in, want string }{ // quoting rule of encoding/csv's fieldNeedsQuotes
		{"plain", "plain"}, {"", ""}, {"a,b", `"a,b"`}, {`say "hi"`, `"say ""hi"""`},
		{"two\nlines", "\"two\nlines\""}, {" lead", `" lead"`}, {"trail ", "trail "},
	}
	for _, tt := range tests {
		if got := string(AppendCSVField(nil, tt.in)); got != tt.want {
			t.Errorf("AppendCSVField(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestRoundTrip writes the record as Arrow and Parquet files through
// Create/Commit in two records and reads them back with the project's
// guarded readers: names, types, nulls and values survive, and the
// Parquet root is REQUIRED.
func TestRoundTrip(t *testing.T) {
	for _, ext := range []string{".arrow", ".parquet"} {
		t.Run(ext, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := testRecord(mem)
			defer rec.Release()
			path := filepath.Join(t.TempDir(), "t"+ext)
			f, err := Create(path, rec.Schema(), Options{Mem: mem})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if err := f.Write(rec); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatalf("%s exists before Commit (%v)", path, err)
			}
			if err := f.Commit(); err != nil {
				t.Fatal(err)
			}
			fh, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			st, _ := fh.Stat()
			var tbl arrow.Table
			if ext == ".arrow" {
				tbl, err = arrowguard.ReadIPC(fh, st.Size(), mem)
			} else {
				tbl, err = arrowguard.ReadParquet(fh, st.Size(), mem)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer tbl.Release()
			if tbl.NumRows() != 4 {
				t.Fatalf("read back %d rows, want 4", tbl.NumRows())
			}
			for i, want := range rec.Schema().Fields() {
				got := tbl.Schema().Field(i)
				if got.Name != want.Name || got.Type.ID() != want.Type.ID() || got.Nullable != want.Nullable {
					t.Errorf("column %d read back as %s %v (nullable %v), want %s %v (nullable %v)", i, got.Name, got.Type, got.Nullable, want.Name, want.Type, want.Nullable)
				}
			}
			ids, r3 := at(tbl, 0, 3)
			names, _ := at(tbl, 1, 3)
			names2, r2 := at(tbl, 1, 2)
			mm, _ := at(tbl, 4, 3)
			mm2, _ := at(tbl, 4, 2)
			bits, _ := at(tbl, 5, 2)
			if ids.(*array.String).Value(r3) != "a,b" || !names.IsNull(r3) || names2.IsNull(r2) || mm2.(*array.Float64).Value(r2) != -225 || !mm.IsNull(r3) {
				t.Errorf("values read back: %v %v %v", ids, names, mm)
			}
			if s, e := bits.(*array.List).ValueOffsets(r2); e-s != 3 {
				t.Errorf("row 2 has %d bits, want 3", e-s)
			}
			if ext == ".parquet" {
				pr, err := file.OpenParquetFile(path, false)
				if err != nil {
					t.Fatal(err)
				}
				defer pr.Close()
				if rep := pr.MetaData().Schema.Root().RepetitionType(); rep != parquet.Repetitions.Required {
					t.Errorf("root repetition %v, want REQUIRED", rep)
				}
			}
		})
	}
}

func TestAbortLeavesNothing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rec := testRecord(mem)
	defer rec.Release()
	for _, ext := range []string{".csv", ".arrow", ".parquet"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "t"+ext)
		f, err := Create(path, rec.Schema(), Options{Mem: mem})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Write(rec); err != nil {
			t.Fatal(err)
		}
		f.Abort()
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%s: after Abort the directory holds %v, want nothing", ext, ents)
		}
	}
}

func TestSchemaMismatch(t *testing.T) {
	rec := testRecord(memory.DefaultAllocator)
	defer rec.Release()
	other := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}}, nil)
	w, err := NewWriter(&bytes.Buffer{}, Parquet, other, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err == nil {
		t.Error("writing a record of another schema: no error")
	}
}

// at returns the chunk of column c of tbl that holds row r, and r's index in it.
func at(tbl arrow.Table, c, r int) (arrow.Array, int) {
	for _, ch := range tbl.Column(c).Data().Chunks() {
		if r < ch.Len() {
			return ch, r
		}
		r -= ch.Len()
	}
	panic("row out of range")
}
