package lincs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/deup-screening/deup/internal/arrowguard"
	"github.com/deup-screening/deup/internal/tabular"
)

// Schema metadata keys of a matrix record.
const (
	metaVersion = "gct.version"
	metaRows    = "gct.rows"     // JSON array of row ids
	metaRowMeta = "gct.row_meta" // JSON array of {"name", "values"}
	metaColMeta = "gct.col_meta" // JSON array of column metadata names, in field order
)

// Record converts m to one Arrow record with one row per GCT column
// (signature): field "id" (utf8), then one utf8 field per column metadata
// field, then "values" (list<float32>, the column's values in row order;
// NaN stays NaN, never null). The row ids, row metadata and GCT version are
// kept in the schema metadata (keys gct.version, gct.rows, gct.row_meta,
// gct.col_meta), so FromRecord restores m exactly. A column metadata name
// that collides with another field's name gets "_" appended in the Arrow
// schema (the GCT name is kept in gct.col_meta).
//
// The caller owns the record and must Release it.
func (m *Matrix) Record(mem memory.Allocator) (arrow.Record, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if len(m.Values) > math.MaxInt32 {
		return nil, fmt.Errorf("lincs: matrix of %d values exceeds an Arrow list's 2^31-1 values", len(m.Values))
	}
	rows, err := json.Marshal(m.Rows)
	if err != nil {
		return nil, fmt.Errorf("lincs: %w", err)
	}
	rowMeta, err := json.Marshal(fieldsJSON(m.RowMeta))
	if err != nil {
		return nil, fmt.Errorf("lincs: %w", err)
	}
	colNames := make([]string, len(m.ColMeta))
	for k, f := range m.ColMeta {
		colNames[k] = f.Name
	}
	colMeta, err := json.Marshal(colNames)
	if err != nil {
		return nil, fmt.Errorf("lincs: %w", err)
	}
	md := arrow.NewMetadata(
		[]string{metaVersion, metaRows, metaRowMeta, metaColMeta},
		[]string{m.Version, string(rows), string(rowMeta), string(colMeta)})

	used := map[string]bool{"id": true, "values": true}
	fields := []arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}}
	for _, f := range m.ColMeta {
		name := f.Name
		for used[name] {
			name += "_"
		}
		used[name] = true
		fields = append(fields, arrow.Field{Name: name, Type: arrow.BinaryTypes.String})
	}
	fields = append(fields, arrow.Field{Name: "values", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32), Nullable: true})
	schema := arrow.NewSchema(fields, &md)

	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues(m.Cols, nil)
	for k, f := range m.ColMeta {
		b.Field(1+k).(*array.StringBuilder).AppendValues(f.Values, nil)
	}
	lb := b.Field(len(fields) - 1).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Float32Builder)
	vb.Reserve(len(m.Values))
	col := make([]float32, len(m.Rows))
	for j := range m.Cols {
		lb.Append(true)
		vb.AppendValues(m.Col(col, j), nil)
	}
	return b.NewRecord(), nil
}

type fieldJSON struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

func fieldsJSON(fs []Field) []fieldJSON {
	out := make([]fieldJSON, len(fs))
	for i, f := range fs {
		out[i] = fieldJSON(f)
	}
	return out
}

// FromRecords rebuilds a matrix from records of the schema Record writes
// (the record batches of one IPC stream or Parquet file, in order). It
// returns an error naming the problem for any other schema or for
// inconsistent lengths, and never keeps references to the records.
func FromRecords(schema *arrow.Schema, recs []arrow.Record) (*Matrix, error) {
	md := schema.Metadata()
	get := func(key string) (string, error) {
		i := md.FindKey(key)
		if i < 0 {
			return "", fmt.Errorf("lincs: not a GCT matrix record: schema metadata lacks %q", key)
		}
		return md.Values()[i], nil
	}
	m := &Matrix{}
	var err error
	if m.Version, err = get(metaVersion); err != nil {
		return nil, err
	}
	var rows, rowMeta, colMeta string
	if rows, err = get(metaRows); err != nil {
		return nil, err
	}
	if rowMeta, err = get(metaRowMeta); err != nil {
		return nil, err
	}
	if colMeta, err = get(metaColMeta); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(rows), &m.Rows); err != nil {
		return nil, fmt.Errorf("lincs: schema metadata %s: %w", metaRows, err)
	}
	var rm []fieldJSON
	if err := json.Unmarshal([]byte(rowMeta), &rm); err != nil {
		return nil, fmt.Errorf("lincs: schema metadata %s: %w", metaRowMeta, err)
	}
	for _, f := range rm {
		m.RowMeta = append(m.RowMeta, Field(f))
	}
	var cm []string
	if err := json.Unmarshal([]byte(colMeta), &cm); err != nil {
		return nil, fmt.Errorf("lincs: schema metadata %s: %w", metaColMeta, err)
	}
	if schema.NumFields() != 2+len(cm) {
		return nil, fmt.Errorf("lincs: matrix record has %d fields, want %d (id, %d column metadata, values)", schema.NumFields(), 2+len(cm), len(cm))
	}
	for k := 0; k < 1+len(cm); k++ {
		if !arrow.TypeEqual(schema.Field(k).Type, arrow.BinaryTypes.String) {
			return nil, fmt.Errorf("lincs: matrix record field %q is %s, want utf8", schema.Field(k).Name, schema.Field(k).Type)
		}
	}
	last := schema.Field(1 + len(cm))
	lt, ok := last.Type.(*arrow.ListType)
	if !ok || !arrow.TypeEqual(lt.Elem(), arrow.PrimitiveTypes.Float32) {
		return nil, fmt.Errorf("lincs: matrix record field %q is %s, want list<float32>", last.Name, last.Type)
	}
	m.ColMeta = make([]Field, len(cm))
	for k, name := range cm {
		m.ColMeta[k].Name = name
	}
	var cols [][]float32
	for _, rec := range recs {
		for r := 0; r < int(rec.NumRows()); r++ {
			ids := rec.Column(0).(*array.String)
			if ids.IsNull(r) {
				return nil, fmt.Errorf("lincs: matrix record: null id in row %d", len(m.Cols)+1)
			}
			m.Cols = append(m.Cols, ids.Value(r))
			for k := range cm {
				c := rec.Column(1 + k).(*array.String)
				if c.IsNull(r) {
					return nil, fmt.Errorf("lincs: matrix record: null %s in row %d", cm[k], len(m.Cols))
				}
				m.ColMeta[k].Values = append(m.ColMeta[k].Values, c.Value(r))
			}
			l := rec.Column(1 + len(cm)).(*array.List)
			if l.IsNull(r) {
				return nil, fmt.Errorf("lincs: matrix record: null values in row %d", len(m.Cols))
			}
			start, end := l.ValueOffsets(r)
			if int(end-start) != len(m.Rows) {
				return nil, fmt.Errorf("lincs: matrix record: row %d has %d values for %d GCT rows", len(m.Cols), end-start, len(m.Rows))
			}
			vals := l.ListValues().(*array.Float32)
			col := make([]float32, end-start)
			for i := range col {
				if vals.IsNull(int(start) + i) {
					col[i] = float32(math.NaN())
				} else {
					col[i] = vals.Value(int(start) + i)
				}
			}
			cols = append(cols, col)
		}
	}
	m.Values = make([]float32, len(m.Rows)*len(m.Cols))
	for j, col := range cols {
		for i, v := range col {
			m.Values[i*len(m.Cols)+j] = v
		}
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// WriteIPC writes m as an Arrow IPC file (the random-access "Feather v2"
// format) of one record.
func WriteIPC(w io.Writer, m *Matrix, mem memory.Allocator) error {
	return writeMatrix(w, tabular.Arrow, m, mem)
}

// ReadIPC reads a matrix written by WriteIPC.
func ReadIPC(r ipc.ReadAtSeeker, mem memory.Allocator) (*Matrix, error) {
	return readMatrix(r, tabular.Arrow, mem)
}

// WriteParquet writes m as a Parquet file (the project's one Parquet policy,
// package tabular) with the schema
// of Record; the schema metadata becomes the file's key-value metadata.
func WriteParquet(w io.Writer, m *Matrix, mem memory.Allocator) error {
	return writeMatrix(w, tabular.Parquet, m, mem)
}

// ReadParquet reads a matrix written by WriteParquet.
func ReadParquet(r parquet.ReaderAtSeeker, mem memory.Allocator) (*Matrix, error) {
	return readMatrix(r, tabular.Parquet, mem)
}

func writeMatrix(w io.Writer, f tabular.Format, m *Matrix, mem memory.Allocator) error {
	rec, err := m.Record(mem)
	if err != nil {
		return err
	}
	defer rec.Release()
	return writeRecord(w, f, rec, mem)
}

// writeRecord writes rec in format f (tabular.Arrow or tabular.Parquet)
// with the project's writer.
func writeRecord(w io.Writer, f tabular.Format, rec arrow.Record, mem memory.Allocator) error {
	if err := tabular.Encode(w, f, rec, tabular.Options{Mem: mem}); err != nil {
		return fmt.Errorf("lincs: write %s: %w", f, err)
	}
	return nil
}

func readMatrix(r parquet.ReaderAtSeeker, f tabular.Format, mem memory.Allocator) (*Matrix, error) {
	schema, recs, err := readRecords(r, f, mem)
	if err != nil {
		return nil, err
	}
	defer releaseAll(recs)
	return FromRecords(schema, recs)
}

// readRecords reads a whole file of format f (tabular.Arrow: an Arrow IPC
// file; tabular.Parquet) as records, checked and bounded by
// arrowguard.ReadIPC or arrowguard.ReadParquet; the caller releases them.
// The schema carries the schema metadata (Parquet: the file's key-value
// metadata).
func readRecords(r parquet.ReaderAtSeeker, f tabular.Format, mem memory.Allocator) (*arrow.Schema, []arrow.Record, error) {
	fail := func(err error) (*arrow.Schema, []arrow.Record, error) {
		return nil, nil, fmt.Errorf("lincs: read %s: %w", f, err)
	}
	size, err := arrowguard.Size(r)
	if err != nil {
		return fail(err)
	}
	var tbl arrow.Table
	if f == tabular.Parquet {
		tbl, err = arrowguard.ReadParquet(r, size, mem)
	} else {
		tbl, err = arrowguard.ReadIPC(r, size, mem)
	}
	if err != nil {
		return fail(err)
	}
	defer tbl.Release()
	recs, err := tableRecords(tbl)
	if err != nil {
		return fail(err)
	}
	return tbl.Schema(), recs, nil
}

// tableRecords returns the record batches of tbl; the caller releases them.
func tableRecords(tbl arrow.Table) ([]arrow.Record, error) {
	tr := array.NewTableReader(tbl, 0)
	defer tr.Release()
	var recs []arrow.Record
	for tr.Next() {
		rec := tr.Record()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := tr.Err(); err != nil && !errors.Is(err, io.EOF) {
		releaseAll(recs)
		return nil, err
	}
	return recs, nil
}
