package scores

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/deup-screening/deup/internal/arrowguard"
)

// Line is what Check found for one cell line.
type Line struct {
	CellLine string
	Parts    int // N, the shard count of its files (0 if none was readable)
	Found    int // part files found and read
	Identity     // of its first readable part (Shard, Lo, Hi: of that part)
	Sum      Checksum
}

// Report is the result of Check. Problems is empty when the directory is
// complete: then Sum is the checksum of the whole run.
type Report struct {
	Dir      string
	Lines    []Line
	Sum      Checksum
	Problems []string
}

// OK reports whether Check found no problem.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

func (r *Report) problem(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// Check reads every part of the directory dir (the layout of PartPath) and
// verifies it is complete (see the package documentation). The error is
// for a directory that cannot be listed; everything else is a problem in
// the report, naming the file.
func Check(dir string) (*Report, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	rep := &Report{Dir: dir}
	var schema *arrow.Schema // the first part's, without metadata
	for _, e := range ents {
		key, val, ok := strings.Cut(e.Name(), "=")
		if !e.IsDir() || !ok || key != PartitionKey {
			if !strings.HasPrefix(e.Name(), ".") {
				rep.problem("%s: not a %s=X directory", filepath.Join(dir, e.Name()), PartitionKey)
			}
			continue
		}
		cl, err := url.PathUnescape(val)
		if err != nil {
			rep.problem("%s: bad escape in the directory name: %v", filepath.Join(dir, e.Name()), err)
			continue
		}
		ln := checkLine(rep, filepath.Join(dir, e.Name()), cl, &schema)
		rep.Lines = append(rep.Lines, ln)
		rep.Sum.Add(ln.Sum)
	}
	if len(rep.Lines) == 0 {
		rep.problem("%s: no %s=X directory: nothing scored", dir, PartitionKey)
	}
	return rep, nil
}

// checkLine checks the parts of one cell line's directory.
func checkLine(rep *Report, dir, cellLine string, schema **arrow.Schema) Line {
	ln := Line{CellLine: cellLine}
	ents, err := os.ReadDir(dir)
	if err != nil {
		rep.problem("%s: %v", dir, err)
		return ln
	}
	parts := map[int]string{}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp") {
			continue // a killed writer's temporary file: never a part
		}
		s, ok := parsePartName(name)
		if !ok || e.IsDir() {
			rep.problem("%s: not a part-i-of-N.parquet file", filepath.Join(dir, name))
			continue
		}
		if ln.Parts == 0 {
			ln.Parts = s.Count
		}
		if s.Count != ln.Parts {
			rep.problem("%s: %s is of %d parts, %s of %d: parts of two runs", dir, name, s.Count, PartName(Shard{0, ln.Parts}), ln.Parts)
			continue
		}
		parts[s.Index] = filepath.Join(dir, name)
	}
	if ln.Parts == 0 {
		rep.problem("%s: no part file", dir)
		return ln
	}
	ord := &pairOrder{ids: map[string]struct{}{}, ok: true}
	p0 := len(rep.Problems)
	rows := 0
	for i := 0; i < ln.Parts; i++ {
		path, ok := parts[i]
		if !ok {
			rep.problem("%s: missing", filepath.Join(dir, PartName(Shard{i, ln.Parts})))
			ord.gap()
			continue
		}
		id, n, err := checkPart(rep, path, cellLine, Shard{i, ln.Parts}, &ln, schema, ord)
		if err != nil {
			rep.problem("%s: %v", path, err)
			ord.gap()
			continue
		}
		if ln.Found == 0 {
			ln.Identity = id
		}
		ln.Found++
		rows += n
	}
	if ln.Found == ln.Parts && len(rep.Problems) == p0 {
		if rows != ln.Total {
			rep.problem("%s: %d rows in all, want %d", dir, rows, ln.Total)
		}
		if ln.Pairs == AllPairs && ord.ok {
			if n := len(ord.ids); n != ln.NDrugs || PairCount(n) != ln.Total {
				rep.problem("%s: %d distinct drugs give %d pairs; the run scored %d drugs, %d pairs", dir, n, PairCount(n), ln.NDrugs, ln.Total)
			}
		}
	}
	return ln
}

// pairOrder checks that the pairs of an all-pairs run, read part after
// part, are strictly increasing with drug_a_id < drug_b_id: no pair twice.
type pairOrder struct {
	ids    map[string]struct{}
	a, b   string
	primed bool
	ok     bool // no gap: the distinct-drug count is meaningful
}

func (o *pairOrder) gap() { o.primed, o.ok = false, false }

func (o *pairOrder) next(a, b string) error {
	if a >= b {
		return fmt.Errorf("pair (%s, %s): drug_a_id must sort before drug_b_id", a, b)
	}
	if o.primed && (a < o.a || a == o.a && b <= o.b) {
		return fmt.Errorf("pair (%s, %s) after (%s, %s): out of order or twice", a, b, o.a, o.b)
	}
	o.a, o.b, o.primed = a, b, true
	o.ids[a], o.ids[b] = struct{}{}, struct{}{}
	return nil
}

// checkPart reads one part and checks it against its name, the line's
// first part and the run's schema; it adds its rows to ln.Sum.
func checkPart(rep *Report, path, cellLine string, s Shard, ln *Line, schema **arrow.Schema, ord *pairOrder) (Identity, int, error) {
	fh, err := os.Open(path)
	if err != nil {
		return Identity{}, 0, err
	}
	defer fh.Close()
	size, err := arrowguard.Size(fh)
	if err != nil {
		return Identity{}, 0, err
	}
	tbl, err := arrowguard.ReadParquet(fh, size, nil)
	if err != nil {
		return Identity{}, 0, err
	}
	defer tbl.Release()
	id, err := IdentityOf(tbl.Schema().Metadata())
	if err != nil {
		return id, 0, err
	}
	switch {
	case id.CellLine != cellLine:
		return id, 0, fmt.Errorf("scores cell line %q, its directory says %q", id.CellLine, cellLine)
	case id.Shard != s:
		return id, 0, fmt.Errorf("is shard %s by its metadata", id.Shard)
	}
	if lo, hi := s.Range(id.Total); id.Lo != lo || id.Hi != hi {
		return id, 0, fmt.Errorf("holds rows [%d, %d) of %d; shard %s is [%d, %d)", id.Lo, id.Hi, id.Total, s, lo, hi)
	}
	if int(tbl.NumRows()) != id.Hi-id.Lo {
		return id, 0, fmt.Errorf("%d rows, its range [%d, %d) has %d", tbl.NumRows(), id.Lo, id.Hi, id.Hi-id.Lo)
	}
	if ln.Found > 0 {
		f := ln.Identity
		for _, d := range [][3]string{{"model", f.Model, id.Model}, {"drugs", f.Drugs, id.Drugs}, {"pairs", f.Pairs, id.Pairs}, {"total rows", fmt.Sprint(f.Total), fmt.Sprint(id.Total)}} {
			if d[1] != d[2] {
				return id, 0, fmt.Errorf("%s %s, the line's first part has %s: another run's part", d[0], short(d[2]), short(d[1]))
			}
		}
	}
	plain := arrow.NewSchema(tbl.Schema().Fields(), nil)
	if *schema == nil {
		*schema = plain
	} else if !plain.Equal(*schema) {
		return id, 0, fmt.Errorf("schema %s differs from the other parts' %s: the directory is not one table", plain, *schema)
	}
	ia, ib := plain.FieldIndices("drug_a_id"), plain.FieldIndices("drug_b_id")
	checkOrder := id.Pairs == AllPairs
	if checkOrder && (len(ia) != 1 || len(ib) != 1) {
		return id, 0, fmt.Errorf("no drug_a_id and drug_b_id columns")
	}
	var sum Checksum
	tr := array.NewTableReader(tbl, 1<<16)
	defer tr.Release()
	for tr.Next() {
		rec := tr.Record()
		if err := sum.AddRecord(cellLine, rec); err != nil {
			return id, 0, err
		}
		if checkOrder {
			as, aok := rec.Column(ia[0]).(*array.String)
			bs, bok := rec.Column(ib[0]).(*array.String)
			if !aok || !bok {
				return id, 0, fmt.Errorf("drug_a_id and drug_b_id are not strings")
			}
			for r := 0; r < int(rec.NumRows()); r++ {
				if err := ord.next(as.Value(r), bs.Value(r)); err != nil {
					return id, 0, err
				}
			}
		}
	}
	if err := tr.Err(); err != nil {
		return id, 0, err
	}
	ln.Sum.Add(sum)
	return id, int(tbl.NumRows()), nil
}

// short is a digest's first 12 characters (AllPairs and short values whole).
func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
