package doseresp

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/internal/tabular"
	"github.com/deup-screening/deup/internal/vocab"
)

// BlockColumns are the columns of the blocks Table scored with the score
// table syn, in order: the ones DrugComb's summary has (block_id, drug_row,
// drug_col, cell_line, a mean per synergy, ic50_row … s), then the fit
// quality: each drug's model, drc coefficients and residual sum of
// squares, the number of doses, wells and measurements, and the
// synergies' fallback counts (zip_unsmoothed, loewe_fallback).
func BlockColumns(syn []Synergy) []string {
	cols := []string{"block_id", "drug_row", "drug_col", "cell_line"}
	for _, s := range syn {
		cols = append(cols, s.Name)
	}
	cols = append(cols, "ic50_row", "ic50_col", "ri_row", "ri_col", "css_row", "css_col", "css", "s",
		"conc_unit", "model_row", "b_row", "c_row", "d_row", "e_row", "rss_row",
		"model_col", "b_col", "c_col", "d_col", "e_col", "rss_col",
		"n_conc_row", "n_conc_col", "wells", "measurements")
	for _, s := range syn {
		if s.Fallback.Column != "" {
			cols = append(cols, s.Fallback.Column)
		}
	}
	return cols
}

// WellColumns are the columns of the wells Table scored with the score
// table syn: the dose pair, the mean response (% inhibition, as scored),
// a δ per synergy, then the replicates' sample standard deviation (empty
// for one) and count.
func WellColumns(syn []Synergy) []string {
	cols := []string{"block_id", "conc_row", "conc_col", "response"}
	for _, s := range syn {
		cols = append(cols, s.Name)
	}
	return append(cols, "response_sd", "n")
}

// col is one typed column of a Table under construction.
type col struct {
	name string
	typ  arrow.DataType
	str  []string
	num  []float64 // NaN is null
	i64  []int64
}

// Table is a column-typed table: strings, int64 and float64 (NaN is null).
type Table []*col

// newTable makes the columns names: of columnTypes' type, int64 for those
// in ints, float64 otherwise.
func newTable(names []string, ints map[string]bool) Table {
	t := make(Table, len(names))
	for i, n := range names {
		typ, ok := columnTypes[n]
		switch {
		case ints[n]:
			typ = arrow.PrimitiveTypes.Int64
		case !ok:
			typ = arrow.PrimitiveTypes.Float64
		}
		t[i] = &col{name: n, typ: typ}
	}
	return t
}

func (t Table) rows() int {
	c := t[0]
	return len(c.str) + len(c.num) + len(c.i64)
}

// add appends one row: string, float64 or int values in column order.
func (t Table) add(vals ...any) {
	if len(vals) != len(t) {
		panic(fmt.Sprintf("doseresp: row of %d values for %d columns", len(vals), len(t)))
	}
	for i, v := range vals {
		switch x := v.(type) {
		case string:
			t[i].str = append(t[i].str, x)
		case float64:
			t[i].num = append(t[i].num, x)
		case int:
			t[i].i64 = append(t[i].i64, int64(x))
		default:
			panic(fmt.Sprintf("doseresp: value of type %T", v))
		}
	}
}

// columnTypes are the columns that are not float64 (the synergies'
// fallback counts are int64 too).
var columnTypes = map[string]arrow.DataType{
	"block_id": arrow.BinaryTypes.String, "drug_row": arrow.BinaryTypes.String, "drug_col": arrow.BinaryTypes.String,
	"cell_line": arrow.BinaryTypes.String, "conc_unit": arrow.BinaryTypes.String,
	"model_row": arrow.BinaryTypes.String, "model_col": arrow.BinaryTypes.String,
	"n_conc_row": arrow.PrimitiveTypes.Int64, "n_conc_col": arrow.PrimitiveTypes.Int64, "wells": arrow.PrimitiveTypes.Int64,
	"measurements": arrow.PrimitiveTypes.Int64, "n": arrow.PrimitiveTypes.Int64,
}

// Tables lays the scored blocks out as the blocks and wells tables (blocks
// that failed are left out: the report counts them), with the columns of
// the score table they were scored with.
func Tables(scored []Scored) (blocks, wells Table) {
	syn := synergiesOf(scored)
	counts := map[string]bool{}
	for _, s := range syn {
		if s.Fallback.Column != "" {
			counts[s.Fallback.Column] = true
		}
	}
	blocks = newTable(BlockColumns(syn), counts)
	wells = newTable(WellColumns(syn), nil)
	var row []any
	for _, s := range scored {
		if s.Result == nil {
			continue
		}
		b, r, m := s.Block, s.Result, s.Result.Summary
		nw, nm := 0, 0
		for i := range b.N {
			for j, n := range b.N[i] {
				nw++
				nm += n
				row = append(row[:0], b.ID, b.ConcRow[i], b.ConcCol[j], r.Response[i][j])
				for _, sf := range r.Synergy {
					row = append(row, sf.Wells[i][j])
				}
				wells.add(append(row, b.SD[i][j], n)...)
			}
		}
		row = append(row[:0], b.ID, b.DrugRow, b.DrugCol, b.CellLine)
		for _, sf := range r.Synergy {
			row = append(row, sf.Mean)
		}
		row = append(row, m.IC50Row, m.IC50Col, m.RIRow, m.RICol, m.CSSRow, m.CSSCol, m.CSS, m.S,
			b.Unit, r.RowFit.Model.String(), r.RowFit.B, r.RowFit.C, r.RowFit.D, r.RowFit.E, r.RowFit.RSS,
			r.ColFit.Model.String(), r.ColFit.B, r.ColFit.C, r.ColFit.D, r.ColFit.E, r.ColFit.RSS,
			len(b.ConcRow), len(b.ConcCol), nw, nm)
		for _, sf := range r.Synergy {
			if sf.Synergy.Fallback.Column != "" {
				row = append(row, sf.Fallbacks)
			}
		}
		blocks.add(row...)
	}
	return blocks, wells
}

// WriteCSV writes t with a header row; a NaN is an empty field.
func (t Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	rec := make([]string, len(t))
	for i, c := range t {
		rec[i] = c.name
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	var buf []byte
	for r := 0; r < t.rows(); r++ {
		for i, c := range t {
			switch c.typ.ID() {
			case arrow.STRING:
				rec[i] = c.str[r]
			case arrow.INT64:
				rec[i] = strconv.FormatInt(c.i64[r], 10)
			default:
				if math.IsNaN(c.num[r]) {
					rec[i] = ""
				} else {
					buf = vocab.AppendFloat(buf[:0], c.num[r], -1)
					rec[i] = string(buf)
				}
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Record returns t as an Arrow record allocated from mem (float columns
// nullable: NaN is null). Ownership passes to the caller, who must Release it.
func (t Table) Record(mem memory.Allocator) arrow.Record {
	fs := make([]arrow.Field, len(t))
	for i, c := range t {
		fs[i] = arrow.Field{Name: c.name, Type: c.typ, Nullable: c.typ.ID() == arrow.FLOAT64}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fs, nil))
	defer b.Release()
	for i, c := range t {
		switch fb := b.Field(i).(type) {
		case *array.StringBuilder:
			fb.AppendValues(c.str, nil)
		case *array.Int64Builder:
			fb.AppendValues(c.i64, nil)
		case *array.Float64Builder:
			for _, v := range c.num {
				if math.IsNaN(v) {
					fb.AppendNull()
				} else {
					fb.Append(v)
				}
			}
		}
	}
	return b.NewRecord()
}

// WriteParquet writes t as a Parquet file with the project's writer.
func (t Table) WriteParquet(w io.Writer, mem memory.Allocator) error {
	rec := t.Record(mem)
	defer rec.Release()
	return tabular.Encode(w, tabular.Parquet, rec, tabular.Options{Mem: mem})
}
