package parquetfile

import (
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/internal/arrowguard"
)

// TestWriteRoundTrip writes a record of the column types the commands emit
// (string ids, float64 values, a list of int32 bits) and reads it back
// through the project's one guarded reader: names, types and values survive.
func TestWriteRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	schema := arrow.NewSchema([]arrow.Field{
		{Name: "drug_a_id", Type: arrow.BinaryTypes.String},
		{Name: "sigma_total", Type: arrow.PrimitiveTypes.Float64},
		{Name: "bits", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"2244", "Methotrexate"}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0, 12.5}, nil)
	lb := b.Field(2).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Int32Builder)
	lb.Append(true)
	vb.AppendValues([]int32{1, 80, 1023}, nil)
	lb.Append(true)
	rec := b.NewRecord()
	defer rec.Release()

	var buf bytes.Buffer
	if err := Write(&buf, rec, mem); err != nil {
		t.Fatal(err)
	}
	tbl, err := arrowguard.ReadParquet(bytes.NewReader(buf.Bytes()), int64(buf.Len()), mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	// Parquet adds a field-id to each field's metadata and names a list's
	// element "list": compare names and types, not the whole schema.
	for i, f := range schema.Fields() {
		got := tbl.Schema().Field(i)
		if got.Name != f.Name || got.Type.ID() != f.Type.ID() {
			t.Fatalf("field %d read back as %s %s, want %s %s", i, got.Name, got.Type, f.Name, f.Type)
		}
	}
	if el := tbl.Schema().Field(2).Type.(*arrow.ListType).Elem(); el.ID() != arrow.INT32 {
		t.Fatalf("bits element type %s, want int32", el)
	}
	if tbl.NumRows() != 2 {
		t.Fatalf("%d rows, want 2", tbl.NumRows())
	}
	ids := tbl.Column(0).Data().Chunk(0).(*array.String)
	sig := tbl.Column(1).Data().Chunk(0).(*array.Float64)
	bits := tbl.Column(2).Data().Chunk(0).(*array.List)
	if ids.Value(1) != "Methotrexate" || sig.Value(0) != 0 || sig.Value(1) != 12.5 {
		t.Fatalf("values read back: %v %v", ids, sig)
	}
	if s, e := bits.ValueOffsets(0); e-s != 3 {
		t.Fatalf("row 0 has %d bits, want 3", e-s)
	}
	if s, e := bits.ValueOffsets(1); e-s != 0 {
		t.Fatalf("row 1 has %d bits, want 0", e-s)
	}
}

// TestWriterStreams writes three records through Writer and reads back one
// table: every row, in order, with the schema's metadata in the file.
func TestWriterStreams(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	md := arrow.NewMetadata([]string{"deup.shard"}, []string{"1/3"})
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, &md)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, schema, mem)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{}
	for r := 0; r < 3; r++ {
		b := array.NewRecordBuilder(mem, schema)
		for i := 0; i <= r; i++ {
			v := float64(10*r + i)
			b.Field(0).(*array.Float64Builder).Append(v)
			want = append(want, v)
		}
		rec := b.NewRecord()
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		b.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tbl, err := arrowguard.ReadParquet(bytes.NewReader(buf.Bytes()), int64(buf.Len()), mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if v, ok := tbl.Schema().Metadata().GetValue("deup.shard"); !ok || v != "1/3" {
		t.Errorf("metadata deup.shard = %q, %v; want 1/3", v, ok)
	}
	var got []float64
	for _, ch := range tbl.Column(0).Data().Chunks() {
		got = append(got, ch.(*array.Float64).Float64Values()...)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d rows %v, want %v", len(got), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d = %v, want %v", i, got[i], want[i])
		}
	}
}
