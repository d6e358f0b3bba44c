package scores

import (
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// record builds runSchema rows of the given cell lines for the all-pairs
// run of 3 drugs (ids D0 < D1 < D2), pair k on line lines[k].
func record(t *testing.T, pairs [][2]string, lines []string) arrow.Record {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, runSchema)
	defer b.Release()
	for k, p := range pairs {
		b.Field(0).(*array.StringBuilder).Append(p[0])
		b.Field(1).(*array.StringBuilder).Append(p[1])
		b.Field(2).(*array.StringBuilder).Append(lines[k])
		b.Field(3).(*array.Float64Builder).Append(float64(k))
		b.Field(4).(*array.BooleanBuilder).Append(false)
		b.Field(5).(*array.Float64Builder).AppendNull()
	}
	return b.NewRecord()
}

// TestPartsRouteByLine: Parts writes each line's rows to its own
// partition, which Check finds complete; a row of a line the run did not
// declare, or a Part given another line's rows, is an error.
func TestPartsRouteByLine(t *testing.T) {
	dir := t.TempDir()
	ids := []string{"D0", "D1", "D2"}
	id := Identity{Model: "m", Drugs: DrugsDigest(ids, ids), NDrugs: 3, Pairs: AllPairs, Program: "test", Shard: Whole, Lo: 0, Hi: 3, Total: 3}
	ps, err := CreateParts(dir, id, []string{"A", "B"}, runSchema)
	if err != nil {
		t.Fatal(err)
	}
	all := [][2]string{{"D0", "D1"}, {"D0", "D2"}, {"D1", "D2"}}
	// line after line, as deup predict writes a hive directory
	for _, l := range []string{"A", "B"} {
		rec := record(t, all, []string{l, l, l})
		err := ps.Write(rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := ps.Commit(); err != nil {
		t.Fatal(err)
	}
	rep, err := Check(dir)
	if err != nil || !rep.OK() || len(rep.Lines) != 2 || rep.Sum.Rows != 6 {
		t.Fatalf("check: %+v, %v", rep, err)
	}
	if got := strings.Join(ps.Paths(), " "); !strings.Contains(got, "cell_line=A") || !strings.Contains(got, "cell_line=B") {
		t.Errorf("paths %s", got)
	}

	bad := t.TempDir()
	ps, err = CreateParts(bad, id, []string{"A", "B"}, runSchema)
	if err != nil {
		t.Fatal(err)
	}
	rec := record(t, all[:1], []string{"C"})
	if err := ps.Write(rec); err == nil || !strings.Contains(err.Error(), `cell line "C"`) {
		t.Errorf("undeclared line: %v", err)
	}
	rec.Release()
	ps.Abort()
	if _, err := CreateParts(bad, id, []string{"A", "A"}, runSchema); err == nil {
		t.Error("a line given twice is accepted")
	}
	id.CellLine = "A"
	p, err := CreatePart(bad, id, runSchema)
	if err != nil {
		t.Fatal(err)
	}
	rec = record(t, all[:2], []string{"A", "B"})
	if err := p.Write(rec); err == nil || !strings.Contains(err.Error(), `row 1 has cell line "B", the partition is "A"`) {
		t.Errorf("a Part given another line's row: %v", err)
	}
	rec.Release()
	p.Abort()
}
