package scores

import (
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
}

// CreatePart starts DIR/cell_line=X/part-i-of-N.parquet for id (X =
// id.CellLine, i/N = id.Shard), creating the directories. schema is the
// records' schema; it must have a cell_line column.
func CreatePart(dir string, id Identity, schema *arrow.Schema) (*Part, error) {
	path := PartPath(dir, id.CellLine, id.Shard)
	var fields []arrow.Field
	var keep []int
	for i, f := range schema.Fields() {
		if f.Name != PartitionKey {
			fields, keep = append(fields, f), append(keep, i)
		}
	}
	if len(keep) == len(schema.Fields()) {
		return nil, fmt.Errorf("%s: the records have no %s column", path, PartitionKey)
	}
	md := id.Metadata()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	p := &Part{schema: arrow.NewSchema(fields, &md), keep: keep}
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
// row group. rec stays the caller's.
func (p *Part) Write(rec arrow.Record) error {
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
