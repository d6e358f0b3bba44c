package drugcomb

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestGetAs checks the typed column getter of decodePairs: the column as
// its array type with its values, or column's refusal (absent, another
// type) passed on; every array it handed out released by c.release.
func TestGetAs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.PrimitiveTypes.Int32},
		{Name: "y", Type: arrow.PrimitiveTypes.Float64},
	}, nil))
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{3, 4}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0.5, -1}, nil)
	rec := b.NewRecord()
	b.Release()
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	rec.Release()
	defer tbl.Release()
	c := columns{mem: mem}
	defer c.release()

	n, err := getAs[*array.Int32](&c, tbl, "n", arrow.PrimitiveTypes.Int32)
	if err != nil || n.Len() != 2 || n.Value(0) != 3 || n.Value(1) != 4 {
		t.Errorf("n: %v, %v; want [3 4]", n, err)
	}
	y, err := getAs[*array.Float64](&c, tbl, "y", arrow.PrimitiveTypes.Float64)
	if err != nil || y.Len() != 2 || y.Value(0) != 0.5 || y.Value(1) != -1 {
		t.Errorf("y: %v, %v; want [0.5 -1]", y, err)
	}
	for _, tc := range []struct {
		name string
		want arrow.DataType
		err  string
	}{
		{"missing", arrow.PrimitiveTypes.Int32, `column "missing": found 0 times, want once`},
		{"n", arrow.BinaryTypes.String, `column "n": type int32, want utf8`},
	} {
		s, err := getAs[*array.String](&c, tbl, tc.name, tc.want)
		if err == nil || err.Error() != tc.err || s != nil {
			t.Errorf("%s as %s: %v, %v; want nil and %q", tc.name, tc.want, s, err, tc.err)
		}
	}
}
