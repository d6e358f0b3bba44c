package scores

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/deup-screening/deup/internal/tabular"
)

// Part is one shard's file being written: records of the run's schema go
// in with their cell_line column, which the file leaves out (the directory
// name holds it). Commit puts the file in place; Abort drops it.
type Part struct {
	f      *tabular.File // Parquet, the project's one policy; atomic
	schema *arrow.Schema // the file's: without cell_line, with the identity
	keep   []int         // the input columns the file keeps
	rows   int
	line   string // the directory's cell line (Identity.CellLine)
	col    int    // the records' cell_line column
}

// CreatePart starts DIR/cell_line=X/part-i-of-N.parquet for id (X =
// id.CellLine, i/N = id.Shard), creating the directories. schema is the
// records' schema; it must have a cell_line column.
func CreatePart(dir string, id Identity, schema *arrow.Schema) (*Part, error) {
	path := PartPath(dir, id.CellLine, id.Shard)
	var fields []arrow.Field
	var keep []int
	col := -1
	for i, f := range schema.Fields() {
		if f.Name != PartitionKey {
			fields, keep = append(fields, f), append(keep, i)
		} else {
			col = i
		}
	}
	if len(keep) == len(schema.Fields()) {
		return nil, fmt.Errorf("%s: the records have no %s column", path, PartitionKey)
	}
	md := id.Metadata()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	p := &Part{schema: arrow.NewSchema(fields, &md), keep: keep, line: id.CellLine, col: col}
	f, err := tabular.CreateFormat(path, tabular.Parquet, p.schema, tabular.Options{})
	if err != nil {
		return nil, err
	}
	p.f = f
	return p, nil
}

// Path is the file's final path.
func (p *Part) Path() string { return p.f.Path() }

// Write writes rec's rows (rec has the schema given to CreatePart) as one
// row group. rec stays the caller's. A row whose cell_line is not the
// part's is an error: the file would file it under another line.
func (p *Part) Write(rec arrow.Record) error {
	if c, ok := rec.Column(p.col).(*array.String); ok {
		for i := 0; i < c.Len(); i++ {
			if c.IsNull(i) || c.Value(i) != p.line {
				return fmt.Errorf("%s: row %d has cell line %q, the partition is %q", p.Path(), p.rows+i, c.Value(i), p.line)
			}
		}
	}
	cols := make([]arrow.Array, len(p.keep))
	for k, i := range p.keep {
		cols[k] = rec.Column(i)
	}
	r := array.NewRecord(p.schema, cols, rec.NumRows())
	defer r.Release()
	if err := p.f.Write(r); err != nil {
		return fmt.Errorf("%s: %w", p.Path(), err)
	}
	p.rows += int(rec.NumRows())
	return nil
}

// Commit finishes the file and renames it into place.
func (p *Part) Commit() error { return p.f.Commit() }

// Abort drops the file; nothing appears under its final path. It does
// nothing after Commit.
func (p *Part) Abort() { p.f.Abort() }

// Parts is one shard of a run that scores several cell lines: one Part per
// line (DIR/cell_line=X/part-i-of-N.parquet for each X), the records routed
// to their line's part by their cell_line column.
type Parts struct {
	parts  []*Part
	byLine map[string]*Part
	col    int
}

// CreateParts starts the part of shard id.Shard for each of lines (id's
// CellLine is replaced by each line in turn). schema is the records'
// schema, with a cell_line column.
func CreateParts(dir string, id Identity, lines []string, schema *arrow.Schema) (*Parts, error) {
	ps := &Parts{byLine: map[string]*Part{}, col: -1}
	for i, f := range schema.Fields() {
		if f.Name == PartitionKey {
			ps.col = i
		}
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("scores: %s: no cell line to write", dir)
	}
	for _, l := range lines {
		if _, dup := ps.byLine[l]; dup {
			ps.Abort()
			return nil, fmt.Errorf("scores: %s: cell line %q given twice", dir, l)
		}
		lid := id
		lid.CellLine = l
		p, err := CreatePart(dir, lid, schema)
		if err != nil {
			ps.Abort()
			return nil, err
		}
		ps.parts = append(ps.parts, p)
		ps.byLine[l] = p
	}
	return ps, nil
}

// Write writes rec's rows to their lines' parts: each run of consecutive
// rows of one line goes to its part as one row group (a run that scores
// line after line gives one row group per record and line). rec stays the
// caller's.
func (ps *Parts) Write(rec arrow.Record) error {
	if len(ps.parts) == 1 {
		return ps.parts[0].Write(rec)
	}
	c, ok := rec.Column(ps.col).(*array.String)
	if !ok {
		return fmt.Errorf("scores: the records' %s column is not a string column", PartitionKey)
	}
	n := int(rec.NumRows())
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && c.Value(hi) == c.Value(lo) {
			hi++
		}
		p, ok := ps.byLine[c.Value(lo)]
		if !ok {
			return fmt.Errorf("scores: row %d has cell line %q, not one of the run's", lo, c.Value(lo))
		}
		run := rec.NewSlice(int64(lo), int64(hi))
		err := p.Write(run)
		run.Release()
		if err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// Commit puts every part in place (each atomically; a part that fails
// leaves the others, which Check then reports incomplete).
func (ps *Parts) Commit() error {
	var errs []error
	for _, p := range ps.parts {
		if err := p.Commit(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Abort drops every part not yet committed.
func (ps *Parts) Abort() {
	for _, p := range ps.parts {
		p.Abort()
	}
}

// Paths are the parts' final paths, in the order of the lines given.
func (ps *Parts) Paths() []string {
	out := make([]string, len(ps.parts))
	for i, p := range ps.parts {
		out[i] = p.Path()
	}
	return out
}
