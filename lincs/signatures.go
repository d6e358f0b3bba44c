package lincs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/tabular"
)

// File names of the signatures stored in a screen directory.
const (
	SignaturesParquet = "signatures.parquet"
	SignaturesArrow   = "signatures.arrow"
)

// metaGenes is the schema metadata key holding the JSON array of gene ids.
const metaGenes = "lincs.genes"

// SignaturesSchema returns the Arrow schema of stored signatures: one row
// per drug with "drug_id" (utf8), "signature" (utf8, null when none: the
// GCT column used), "matched_by" (utf8, null when none: "pubchem_cid" or
// "name") and "values" (list<float32>, null when none), and the gene ids as
// the JSON array under the schema metadata key "lincs.genes". Every field
// but drug_id is nullable (a non-nullable list does not survive Parquet in
// arrow-go v15).
func SignaturesSchema(genes []string) (*arrow.Schema, error) {
	g, err := json.Marshal(genes)
	if err != nil {
		return nil, fmt.Errorf("lincs: %w", err)
	}
	md := arrow.NewMetadata([]string{metaGenes}, []string{string(g)})
	return arrow.NewSchema([]arrow.Field{
		{Name: "drug_id", Type: arrow.BinaryTypes.String},
		{Name: "signature", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "matched_by", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "values", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32), Nullable: true},
	}, &md), nil
}

// Record converts s to one Arrow record of SignaturesSchema. The caller owns
// the record and must Release it.
func (s *Signatures) Record(mem memory.Allocator) (arrow.Record, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	schema, err := SignaturesSchema(s.Genes)
	if err != nil {
		return nil, err
	}
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	ids := b.Field(0).(*array.StringBuilder)
	cols := b.Field(1).(*array.StringBuilder)
	by := b.Field(2).(*array.StringBuilder)
	lb := b.Field(3).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Float32Builder)
	for i, id := range s.DrugIDs {
		ids.Append(id)
		if s.Vectors[i] == nil {
			cols.AppendNull()
			by.AppendNull()
			lb.AppendNull()
			continue
		}
		cols.Append(s.Columns[i])
		by.Append(string(s.By[i]))
		lb.Append(true)
		vb.AppendValues(s.Vectors[i], nil)
	}
	return b.NewRecord(), nil
}

// SignaturesFromRecords rebuilds signatures from records of
// SignaturesSchema (in order). It checks the schema and the invariants and
// never keeps references to the records.
func SignaturesFromRecords(schema *arrow.Schema, recs []arrow.Record) (*Signatures, error) {
	md := schema.Metadata()
	i := md.FindKey(metaGenes)
	if i < 0 {
		return nil, fmt.Errorf("lincs: not a signatures table: schema metadata lacks %q", metaGenes)
	}
	s := &Signatures{}
	if err := json.Unmarshal([]byte(md.Values()[i]), &s.Genes); err != nil {
		return nil, fmt.Errorf("lincs: signatures: schema metadata %s: %w", metaGenes, err)
	}
	want, _ := SignaturesSchema(nil)
	if schema.NumFields() != want.NumFields() {
		return nil, fmt.Errorf("lincs: signatures table has %d fields, want %d (drug_id, signature, matched_by, values)", schema.NumFields(), want.NumFields())
	}
	for k, f := range want.Fields() {
		got := schema.Field(k)
		if got.Name != f.Name || !arrow.TypeEqual(got.Type, f.Type) {
			return nil, fmt.Errorf("lincs: signatures table field %d is %s %s, want %s %s", k+1, got.Name, got.Type, f.Name, f.Type)
		}
	}
	for _, rec := range recs {
		ids := rec.Column(0).(*array.String)
		cols := rec.Column(1).(*array.String)
		by := rec.Column(2).(*array.String)
		l := rec.Column(3).(*array.List)
		vals := l.ListValues().(*array.Float32)
		for r := 0; r < int(rec.NumRows()); r++ {
			row := len(s.DrugIDs) + 1
			if ids.IsNull(r) {
				return nil, fmt.Errorf("lincs: signatures table row %d: null drug_id", row)
			}
			s.DrugIDs = append(s.DrugIDs, ids.Value(r))
			if l.IsNull(r) {
				if !by.IsNull(r) || !cols.IsNull(r) {
					return nil, fmt.Errorf("lincs: signatures table row %d (%s): null values but signature or matched_by set", row, ids.Value(r))
				}
				s.Vectors = append(s.Vectors, nil)
				s.Columns = append(s.Columns, "")
				s.By = append(s.By, None)
				continue
			}
			m := Method(by.Value(r))
			if by.IsNull(r) || (m != ByCID && m != ByName && m != ByParentName) {
				return nil, fmt.Errorf("lincs: signatures table row %d (%s): matched_by %q is not %q, %q or %q", row, ids.Value(r), by.Value(r), ByCID, ByName, ByParentName)
			}
			start, end := l.ValueOffsets(r)
			v := make([]float32, end-start)
			for k := range v {
				if vals.IsNull(int(start) + k) {
					return nil, fmt.Errorf("lincs: signatures table row %d (%s): null value %d (missing values are NaN)", row, ids.Value(r), k+1)
				}
				v[k] = vals.Value(int(start) + k)
			}
			s.Vectors = append(s.Vectors, v)
			s.Columns = append(s.Columns, cols.Value(r))
			s.By = append(s.By, m)
		}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// WriteSignatures writes s into dir as signatures.parquet and
// signatures.arrow (an Arrow IPC file), each through a temporary file
// renamed into place, so a reader never sees a half-written file.
func WriteSignatures(dir string, s *Signatures) error {
	return writeSignatures(dir, s, memory.DefaultAllocator)
}

func writeSignatures(dir string, s *Signatures, mem memory.Allocator) error {
	rec, err := s.Record(mem)
	if err != nil {
		return err
	}
	defer rec.Release()
	var pq, ar bytes.Buffer
	if err := writeRecord(&pq, tabular.Parquet, rec, mem); err != nil {
		return err
	}
	if err := writeRecord(&ar, tabular.Arrow, rec, mem); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{SignaturesParquet, pq.Bytes()}, {SignaturesArrow, ar.Bytes()}} {
		if err := atomicfile.WriteFile(filepath.Join(dir, f.name), f.data); err != nil {
			return fmt.Errorf("lincs: %w", err)
		}
	}
	return nil
}

// ErrNoSignatures is returned (wrapped) by LoadSignatures when dir has
// neither signatures file.
var ErrNoSignatures = errors.New("no signatures in the screen directory")

// LoadSignatures reads the signatures stored in a screen directory:
// signatures.parquet, or signatures.arrow when there is no Parquet file. It
// returns an error wrapping ErrNoSignatures when dir has neither, so callers
// can treat a screen without signatures as such (errors.Is).
func LoadSignatures(dir string) (*Signatures, error) {
	return loadSignatures(dir, memory.DefaultAllocator)
}

func loadSignatures(dir string, mem memory.Allocator) (*Signatures, error) {
	path := filepath.Join(dir, SignaturesParquet)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		path = filepath.Join(dir, SignaturesArrow)
		f, err = os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("lincs: %s: %w", dir, ErrNoSignatures)
		}
		if err != nil {
			return nil, fmt.Errorf("lincs: %w", err)
		}
		defer f.Close()
		s, err := readSignaturesIPC(f, mem)
		if err != nil {
			return nil, fmt.Errorf("%w (%s)", err, path)
		}
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lincs: %w", err)
	}
	defer f.Close()
	schema, recs, err := readRecords(f, tabular.Parquet, mem)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	defer releaseAll(recs)
	s, err := SignaturesFromRecords(schema, recs)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return s, nil
}

func readSignaturesIPC(r ipc.ReadAtSeeker, mem memory.Allocator) (*Signatures, error) {
	schema, recs, err := readRecords(r, tabular.Arrow, mem)
	if err != nil {
		return nil, err
	}
	defer releaseAll(recs)
	return SignaturesFromRecords(schema, recs)
}

func releaseAll(recs []arrow.Record) {
	for _, r := range recs {
		r.Release()
	}
}
