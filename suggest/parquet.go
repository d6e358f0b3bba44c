package suggest

import (
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"

	"github.com/deup-screening/deup/internal/arrowguard"
	"github.com/deup-screening/deup/internal/tabular"
)

// Schema returns the Arrow schema of a suggestions table.
func Schema() *arrow.Schema {
	var fs []arrow.Field
	for _, c := range Columns() {
		f := arrow.Field{Name: c, Nullable: true}
		switch c {
		case "rank":
			f.Type, f.Nullable = arrow.PrimitiveTypes.Int64, false
		case "drug_a_pubchem_cid", "drug_b_pubchem_cid":
			f.Type = arrow.PrimitiveTypes.Int64
		case "mu", "sigma_total", "sigma_epistemic", "sigma_aleatoric", "lower", "upper", "acquisition":
			f.Type = arrow.PrimitiveTypes.Float64
		default:
			f.Type, f.Nullable = arrow.BinaryTypes.String, false
		}
		fs = append(fs, f)
	}
	return arrow.NewSchema(fs, nil)
}

// Record returns s as an Arrow record with Schema(), allocated from mem.
// Ownership passes to the caller, who must call Release.
func Record(mem memory.Allocator, s []Suggestion) arrow.Record {
	b := array.NewRecordBuilder(mem, Schema())
	defer b.Release()
	for i := range s {
		x := &s[i]
		f := 0
		next := func() array.Builder { f++; return b.Field(f - 1) }
		next().(*array.Int64Builder).Append(int64(x.Rank))
		for _, d := range [...]struct {
			name, id string
			cid      int64
			smiles   string
		}{{x.DrugA.OwnName(), x.DrugA.ID, x.DrugA.PubChemCID, x.DrugA.SMILES}, {x.DrugB.OwnName(), x.DrugB.ID, x.DrugB.PubChemCID, x.DrugB.SMILES}} {
			next().(*array.StringBuilder).Append(d.id)
			next().(*array.StringBuilder).Append(d.name)
			if cb := next().(*array.Int64Builder); cidMissing(d.cid) {
				cb.AppendNull()
			} else {
				cb.Append(d.cid)
			}
			next().(*array.StringBuilder).Append(d.smiles)
		}
		next().(*array.StringBuilder).Append(x.CellLine)
		for k, v := range floats(x) {
			if k == 4 { // lower, upper before acquisition
				lo, hi := next().(*array.Float64Builder), next().(*array.Float64Builder)
				if x.Interval == nil {
					lo.AppendNull()
					hi.AppendNull()
				} else {
					lo.Append(x.Interval.Lower)
					hi.Append(x.Interval.Upper)
				}
			}
			if fb := next().(*array.Float64Builder); floatMissing(*v) {
				fb.AppendNull()
			} else {
				fb.Append(*v)
			}
		}
		next().(*array.StringBuilder).Append(x.Reason)
	}
	return b.NewRecord()
}

// WriteParquet writes s as a Parquet file (the project's one Parquet policy, package tabular), using mem
// for Arrow buffers.
func WriteParquet(w io.Writer, s []Suggestion, mem memory.Allocator) error {
	rec := Record(mem, s)
	defer rec.Release()
	if err := tabular.Encode(w, tabular.Parquet, rec, tabular.Options{Mem: mem}); err != nil {
		return fmt.Errorf("suggest: %w", err)
	}
	return nil
}

// ReadParquet reads a Parquet file of suggestions, using mem for Arrow
// buffers (all released before it returns). The file is checked and its
// memory bounded by internal/arrowguard.
func ReadParquet(r parquet.ReaderAtSeeker, mem memory.Allocator) ([]Suggestion, error) {
	size, err := arrowguard.Size(r)
	if err != nil {
		return nil, fmt.Errorf("suggest: parquet: %w", err)
	}
	tbl, err := arrowguard.ReadParquet(r, size, mem)
	if err != nil {
		return nil, fmt.Errorf("suggest: %w", err)
	}
	defer tbl.Release()
	return fromTable(tbl)
}

// fromTable converts a table with the suggestions columns.
func fromTable(tbl arrow.Table) ([]Suggestion, error) {
	sc := tbl.Schema()
	names := make([]string, sc.NumFields())
	for i, f := range sc.Fields() {
		names[i] = f.Name
	}
	idx, err := columnIndex(names)
	if err != nil {
		return nil, fmt.Errorf("suggest: parquet: %w", err)
	}
	n := int(tbl.NumRows())
	out := make([]Suggestion, n)
	// each visits column name's values; v is nil for a null.
	each := func(name string, set func(row int, v arrow.Array, i int) error) error {
		row := 0
		for _, ch := range tbl.Column(idx[name]).Data().Chunks() {
			for i := 0; i < ch.Len(); i++ {
				var v arrow.Array
				if !ch.IsNull(i) {
					v = ch
				}
				if err := set(row, v, i); err != nil {
					return fmt.Errorf("suggest: parquet: row %d, column %s: %w", row+1, name, err)
				}
				row++
			}
		}
		return nil
	}
	ints := func(name string, dst func(*Suggestion) *int64) error {
		return each(name, func(row int, v arrow.Array, i int) error {
			switch a := v.(type) {
			case nil:
				*dst(&out[row]) = 0
			case *array.Int64:
				*dst(&out[row]) = a.Value(i)
			case *array.Int32:
				*dst(&out[row]) = int64(a.Value(i))
			default:
				return fmt.Errorf("type %s, want an integer", v.DataType())
			}
			return nil
		})
	}
	strs := func(name string, dst func(*Suggestion) *string) error {
		return each(name, func(row int, v arrow.Array, i int) error {
			switch a := v.(type) {
			case nil:
				*dst(&out[row]) = ""
			case *array.String:
				*dst(&out[row]) = a.Value(i)
			case *array.LargeString:
				*dst(&out[row]) = a.Value(i)
			default:
				return fmt.Errorf("type %s, want a string", v.DataType())
			}
			return nil
		})
	}
	if err := each("rank", func(row int, v arrow.Array, i int) error {
		switch a := v.(type) {
		case nil:
			return fmt.Errorf("null")
		case *array.Int64:
			out[row].Rank = int(a.Value(i))
		case *array.Int32:
			out[row].Rank = int(a.Value(i))
		default:
			return fmt.Errorf("type %s, want an integer", v.DataType())
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for _, step := range []func() error{
		func() error { return strs("drug_a_name", func(s *Suggestion) *string { return &s.DrugA.Name }) },
		func() error { return strs("drug_a_id", func(s *Suggestion) *string { return &s.DrugA.ID }) },
		func() error {
			return ints("drug_a_pubchem_cid", func(s *Suggestion) *int64 { return &s.DrugA.PubChemCID })
		},
		func() error { return strs("drug_a_smiles", func(s *Suggestion) *string { return &s.DrugA.SMILES }) },
		func() error { return strs("drug_b_name", func(s *Suggestion) *string { return &s.DrugB.Name }) },
		func() error { return strs("drug_b_id", func(s *Suggestion) *string { return &s.DrugB.ID }) },
		func() error {
			return ints("drug_b_pubchem_cid", func(s *Suggestion) *int64 { return &s.DrugB.PubChemCID })
		},
		func() error { return strs("drug_b_smiles", func(s *Suggestion) *string { return &s.DrugB.SMILES }) },
		func() error { return strs("cell_line", func(s *Suggestion) *string { return &s.CellLine }) },
		func() error { return strs("reason", func(s *Suggestion) *string { return &s.Reason }) },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	for k, name := range []string{"mu", "sigma_total", "sigma_epistemic", "sigma_aleatoric", "acquisition"} {
		if err := each(name, func(row int, v arrow.Array, i int) error {
			f := floats(&out[row])[k]
			switch a := v.(type) {
			case nil:
				*f = math.NaN()
			case *array.Float64:
				*f = a.Value(i)
			case *array.Float32:
				*f = float64(a.Value(i))
			default:
				return fmt.Errorf("type %s, want a float", v.DataType())
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	if _, ok := idx["lower"]; ok {
		bounds := make([][2]float64, n)
		for k, name := range intervalColumns {
			if err := each(name, func(row int, v arrow.Array, i int) error {
				switch a := v.(type) {
				case nil:
					bounds[row][k] = math.NaN()
				case *array.Float64:
					bounds[row][k] = a.Value(i)
				case *array.Float32:
					bounds[row][k] = float64(a.Value(i))
				default:
					return fmt.Errorf("type %s, want a float", v.DataType())
				}
				return nil
			}); err != nil {
				return nil, err
			}
		}
		for i, b := range bounds {
			if math.IsNaN(b[0]) && math.IsNaN(b[1]) {
				continue
			}
			if err := checkInterval(b[0], b[1]); err != nil {
				return nil, fmt.Errorf("suggest: parquet: row %d, columns lower and upper: %w", i+1, err)
			}
			out[i].Interval = &Interval{Lower: b[0], Upper: b[1]}
		}
	}
	for i := range out {
		if out[i].DrugA.PubChemCID < 0 || out[i].DrugB.PubChemCID < 0 {
			return nil, fmt.Errorf("suggest: parquet: row %d: negative PubChem CID", i+1)
		}
	}
	return out, nil
}
