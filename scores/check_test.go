package scores

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/internal/arrowguard"
)

// runSchema has the shape of deup predict's rows.
var runSchema = arrow.NewSchema([]arrow.Field{
	{Name: "drug_a_id", Type: arrow.BinaryTypes.String},
	{Name: "drug_b_id", Type: arrow.BinaryTypes.String},
	{Name: "cell_line", Type: arrow.BinaryTypes.String},
	{Name: "mu", Type: arrow.PrimitiveTypes.Float64},
	{Name: "measured", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "measured_mean", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// writeRun writes the all-pairs run of n drugs for each cell line as parts
// shards, in chunks of chunk rows, as deup predict does; model names the model.
func writeRun(t *testing.T, dir string, lines []string, n, parts, chunk int, model string) {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("D%03d", (i*7)%n) // not in id order
	}
	order := SortedByID(ids)
	total := PairCount(n)
	for li, cl := range lines {
		for i := 0; i < parts; i++ {
			s := Shard{i, parts}
			lo, hi := s.Range(total)
			id := Identity{Model: model, Drugs: DrugsDigest(ids, ids), NDrugs: n, Pairs: AllPairs, Program: "test", CellLine: cl, Shard: s, Lo: lo, Hi: hi, Total: total}
			p, err := CreatePart(dir, id, runSchema)
			if err != nil {
				t.Fatal(err)
			}
			b := array.NewRecordBuilder(memory.DefaultAllocator, runSchema)
			flush := func() {
				rec := b.NewRecord()
				defer rec.Release()
				if err := p.Write(rec); err != nil {
					t.Fatal(err)
				}
			}
			k := lo
			for a, bb := range Pairs(n, lo, hi) {
				ra, rb := order[a], order[bb]
				b.Field(0).(*array.StringBuilder).Append(ids[ra])
				b.Field(1).(*array.StringBuilder).Append(ids[rb])
				b.Field(2).(*array.StringBuilder).Append(cl)
				b.Field(3).(*array.Float64Builder).Append(float64(ra*1000+rb) / 7 * float64(li+1))
				b.Field(4).(*array.BooleanBuilder).Append(k%3 == 0)
				if k%3 == 0 {
					b.Field(5).(*array.Float64Builder).Append(float64(k))
				} else {
					b.Field(5).(*array.Float64Builder).AppendNull()
				}
				if k++; (k-lo)%chunk == 0 {
					flush()
				}
			}
			flush()
			b.Release()
			if err := p.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func mustCheck(t *testing.T, dir string) *Report {
	t.Helper()
	rep, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCheckShardsEqualWhole writes one run whole and in shards (several N,
// N > pairs included) and checks both are complete with equal checksums.
func TestCheckShardsEqualWhole(t *testing.T) {
	lines := []string{"PC-3", "NCI/ADR-RES", "A549"}
	whole := t.TempDir()
	writeRun(t, whole, lines, 13, 1, 1000, "m1")
	w := mustCheck(t, whole)
	if !w.OK() {
		t.Fatalf("whole run: problems %v", w.Problems)
	}
	if want := int64(3 * PairCount(13)); w.Sum.Rows != want {
		t.Fatalf("whole run: %d rows, want %d", w.Sum.Rows, want)
	}
	for _, parts := range []int{2, 4, 7, 100} {
		t.Run(fmt.Sprintf("N=%d", parts), func(t *testing.T) {
			dir := t.TempDir()
			writeRun(t, dir, lines, 13, parts, 5, "m1")
			r := mustCheck(t, dir)
			if !r.OK() {
				t.Fatalf("problems %v", r.Problems)
			}
			if r.Sum != w.Sum {
				t.Fatalf("checksum %s, whole run %s", r.Sum, w.Sum)
			}
		})
	}
	// A different value changes the checksum.
	other := t.TempDir()
	writeRun(t, other, []string{"PC-3", "NCI/ADR-RES", "A549x"}, 13, 2, 5, "m1")
	if r := mustCheck(t, other); r.Sum == w.Sum {
		t.Fatalf("another cell line gives the same checksum %s", r.Sum)
	}
}

// TestCheckFindsProblems damages a complete directory and checks that each
// damage is reported, naming the file.
func TestCheckFindsProblems(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   string
	}{
		{"missing part", func(t *testing.T, dir string) {
			os.Remove(PartPath(dir, "PC-3", Shard{2, 4}))
		}, "part-2-of-4.parquet: missing"},
		{"part of another model", func(t *testing.T, dir string) {
			o := t.TempDir()
			writeRun(t, o, []string{"PC-3"}, 9, 4, 5, "m2")
			os.Rename(PartPath(o, "PC-3", Shard{1, 4}), PartPath(dir, "PC-3", Shard{1, 4}))
		}, "another run's part"},
		{"parts of two runs", func(t *testing.T, dir string) {
			o := t.TempDir()
			writeRun(t, o, []string{"PC-3"}, 9, 1, 5, "m1")
			os.Rename(PartPath(o, "PC-3", Whole), PartPath(dir, "PC-3", Whole))
		}, "parts of two runs"},
		{"stray file", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "cell_line=PC-3", "notes.txt"), nil, 0o644)
		}, "not a part-i-of-N.parquet file"},
		{"shard renamed", func(t *testing.T, dir string) {
			os.Rename(PartPath(dir, "PC-3", Shard{3, 4}), filepath.Join(dir, "x"))
			os.Rename(PartPath(dir, "PC-3", Shard{2, 4}), PartPath(dir, "PC-3", Shard{3, 4}))
			os.Rename(filepath.Join(dir, "x"), PartPath(dir, "PC-3", Shard{2, 4}))
		}, "is shard 2/4 by its metadata"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeRun(t, dir, []string{"PC-3", "A549"}, 9, 4, 5, "m1")
			if r := mustCheck(t, dir); !r.OK() {
				t.Fatalf("before the damage: %v", r.Problems)
			}
			c.damage(t, dir)
			r := mustCheck(t, dir)
			if r.OK() || !strings.Contains(strings.Join(r.Problems, "\n"), c.want) {
				t.Fatalf("problems %q, want one with %q", r.Problems, c.want)
			}
		})
	}
	// A killed writer's temporary file is not a problem.
	dir := t.TempDir()
	writeRun(t, dir, []string{"PC-3"}, 9, 2, 5, "m1")
	os.WriteFile(filepath.Join(dir, "cell_line=PC-3", ".part-0-of-2.parquet.123.tmp"), []byte("half"), 0o644)
	if r := mustCheck(t, dir); !r.OK() {
		t.Fatalf("a temporary file: %v", r.Problems)
	}
}

// TestPartLeavesOutCellLine checks that a part file has every column but
// cell_line, and the identity in its metadata.
func TestPartLeavesOutCellLine(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir, []string{"PC-3"}, 5, 2, 3, "m1")
	r := mustCheck(t, dir)
	if !r.OK() || len(r.Lines) != 1 {
		t.Fatalf("report %+v", r)
	}
	ln := r.Lines[0]
	if ln.Model != "m1" || ln.NDrugs != 5 || ln.Total != 10 || ln.Parts != 2 || ln.Program != "test" {
		t.Fatalf("identity %+v", ln.Identity)
	}
	fh, err := os.Open(PartPath(dir, "PC-3", Shard{1, 2}))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, _ := fh.Stat()
	tbl, err := arrowguard.ReadParquet(fh, st.Size(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	var names []string
	for _, f := range tbl.Schema().Fields() {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "drug_a_id,drug_b_id,mu,measured,measured_mean" {
		t.Fatalf("columns %s, want all but cell_line", got)
	}
	if v, _ := tbl.Schema().Metadata().GetValue("deup.rows_from"); v != "5" {
		t.Fatalf("deup.rows_from = %q, want 5", v)
	}
}
