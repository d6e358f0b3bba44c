package plate

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/tabular"
)

// The files of a design directory.
const (
	MapCSV      = "map.csv"
	MapParquet  = "map.parquet"
	PickList    = "picklist.csv"
	SourceCSV   = "source.csv"
	ReportJSON  = "report.json"
	PlotsSubdir = "plots"
)

// MapColumns are the plate map's columns, in order.
func MapColumns() []string {
	return []string{"plate", "well", "row", "col", "role", "drug_a", "conc_a", "drug_b", "conc_b", "cell_line", "block_id"}
}

// PickColumns are the pick list's columns (an acoustic dispenser's
// import form), in order; volumes in nL.
func PickColumns() []string {
	return []string{"Source Plate Name", "Source Well", "Destination Plate Name", "Destination Well", "Transfer Volume"}
}

// SourceColumns are the source layout's columns, in order (ReadSource).
func SourceColumns() []string {
	return []string{"source_plate", "source_well", "compound", "conc_um", "volume_ul", "drawn_ul"}
}

var mapSchema = func() *arrow.Schema {
	var fs []arrow.Field
	for _, c := range MapColumns() {
		t := arrow.DataType(arrow.BinaryTypes.String)
		switch c {
		case "col":
			t = arrow.PrimitiveTypes.Int64
		case "conc_a", "conc_b":
			t = arrow.PrimitiveTypes.Float64
		}
		fs = append(fs, arrow.Field{Name: c, Type: t})
	}
	return arrow.NewSchema(fs, nil)
}()

// MapRecord is m as an Arrow record of MapColumns (row a letter, col
// 1-based, doses in µM, empty strings where a well has no drug or
// block). The caller releases it.
func MapRecord(m *Map, mem memory.Allocator) arrow.Record {
	b := array.NewRecordBuilder(mem, mapSchema)
	defer b.Release()
	s := func(i int) *array.StringBuilder { return b.Field(i).(*array.StringBuilder) }
	for _, w := range m.Wells {
		s(0).Append(w.Plate)
		s(1).Append(WellName(w.Row, w.Col))
		s(2).Append(RowName(w.Row))
		b.Field(3).(*array.Int64Builder).Append(int64(w.Col + 1))
		s(4).Append(string(w.Role))
		s(5).Append(w.DrugA)
		b.Field(6).(*array.Float64Builder).Append(w.ConcA)
		s(7).Append(w.DrugB)
		b.Field(8).(*array.Float64Builder).Append(w.ConcB)
		s(9).Append(w.CellLine)
		s(10).Append(w.BlockID)
	}
	return b.NewRecord()
}

func writeRecord(path string, rec arrow.Record) error {
	f, err := tabular.Create(path, rec.Schema(), tabular.Options{})
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := f.Write(rec); err != nil {
		return err
	}
	return f.Commit()
}

func stringsRecord(cols []string, kinds map[string]arrow.DataType, n int, get func(i, c int) any) arrow.Record {
	var fs []arrow.Field
	for _, c := range cols {
		t, ok := kinds[c]
		if !ok {
			t = arrow.BinaryTypes.String
		}
		fs = append(fs, arrow.Field{Name: c, Type: t})
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fs, nil))
	defer b.Release()
	for i := 0; i < n; i++ {
		for c := range cols {
			switch fb := b.Field(c).(type) {
			case *array.StringBuilder:
				fb.Append(get(i, c).(string))
			case *array.Float64Builder:
				fb.Append(get(i, c).(float64))
			}
		}
	}
	return b.NewRecord()
}

// WriteDir writes the plan into dir: map.csv and map.parquet (the same
// table), picklist.csv, source.csv and report.json, each atomically.
func WriteDir(dir string, p *Plan) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rec := MapRecord(p.Map, memory.DefaultAllocator)
	defer rec.Release()
	for _, name := range []string{MapCSV, MapParquet} {
		if err := writeRecord(filepath.Join(dir, name), rec); err != nil {
			return err
		}
	}
	f64 := arrow.PrimitiveTypes.Float64
	picks := stringsRecord(PickColumns(), map[string]arrow.DataType{"Transfer Volume": f64}, len(p.Picks), func(i, c int) any {
		k := p.Picks[i]
		return [...]any{k.SourcePlate, k.SourceWell, k.DestPlate, k.DestWell, k.Volume}[c]
	})
	defer picks.Release()
	if err := writeRecord(filepath.Join(dir, PickList), picks); err != nil {
		return err
	}
	src := stringsRecord(SourceColumns(), map[string]arrow.DataType{"conc_um": f64, "volume_ul": f64, "drawn_ul": f64}, len(p.Source), func(i, c int) any {
		s := p.Source[i]
		return [...]any{s.Plate, s.Well, s.Compound, s.Conc, s.Volume, s.Drawn()}[c]
	})
	defer src.Release()
	if err := writeRecord(filepath.Join(dir, SourceCSV), src); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, ReportJSON), func(w io.Writer) error {
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(&p.Report)
	})
}

// WriteText writes the report's summary lines.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d blocks (%s, %d copies each) on %d %s-well plates (%d blocks a plate): %d wells used (%d sample, %d negative, %d positive), %d empty\n",
		r.Blocks, r.Grid, r.Replicates, r.Plates, r.Format, r.BlocksPerPlate, r.WellsUsed, r.SampleWells, r.NegativeWells, r.PositiveWells, r.EmptyWells)
	fmt.Fprintf(&b, "%d transfers from %d source wells, %g nL into every used well (largest dose rounding %.2g %%)\n",
		r.Transfers, r.SourceWells, float64(r.WellVolumeNL), 100*float64(r.MaxDoseError))
	if n := drugcomb.TallyCount(r.LeftOut); n > 0 {
		fmt.Fprintf(&b, "%d of %d batch lines left out:\n", n, r.Requests)
		drugcomb.WriteTallies(&b, r.LeftOut)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ReadMap reads a plate map written by WriteDir (map.csv or map.parquet;
// name names it in errors). The format is the smallest standard one that
// holds every well named.
func ReadMap(name string, r io.Reader) (*Map, error) {
	rows, err := drugcomb.OpenRows(name, r, 0)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	col, err := columns(name, rows.Header(), MapColumns())
	if err != nil {
		return nil, err
	}
	m := &Map{}
	var ws []Well
	seen := map[string]bool{}
	where := map[string]string{}
	maxR, maxC := 0, 0
	for {
		more, err := rows.Next()
		if !more {
			if err != nil {
				return nil, err
			}
			break
		}
		if err != nil {
			return nil, err
		}
		f := func(c string) string { v, _ := rows.Field(col[c]); return strings.TrimSpace(v) }
		var w Well
		w.Plate, w.Role, w.DrugA, w.DrugB, w.CellLine, w.BlockID = f("plate"), Role(f("role")), f("drug_a"), f("drug_b"), f("cell_line"), f("block_id")
		switch w.Role {
		case Sample, Negative, Positive, Empty:
		default:
			return nil, rows.Error(col["role"], fmt.Errorf("role %q: want sample, negative, positive or empty", w.Role))
		}
		for _, x := range []struct {
			c string
			v *float64
		}{{"conc_a", &w.ConcA}, {"conc_b", &w.ConcB}} {
			v, err := strconv.ParseFloat(f(x.c), 64)
			if err != nil || v < 0 {
				return nil, rows.Error(col[x.c], fmt.Errorf("dose %q: want a number ≥ 0", f(x.c)))
			}
			*x.v = v
		}
		r, c, err := Plate1536.ParseWell(f("well"))
		if err != nil {
			return nil, rows.Error(col["well"], err)
		}
		w.Row, w.Col = r, c
		key := w.Plate + " " + WellName(r, c)
		if at, ok := where[key]; ok {
			return nil, rows.Error(col["well"], fmt.Errorf("plate %q well %s twice in the map (first at %s)", w.Plate, WellName(r, c), at))
		}
		where[key] = rows.Loc()
		if !seen[w.Plate] {
			seen[w.Plate] = true
			m.Plates = append(m.Plates, Plate{Name: w.Plate, CellLine: w.CellLine})
		}
		maxR, maxC = max(maxR, r+1), max(maxC, c+1)
		ws = append(ws, w)
	}
	if len(ws) == 0 {
		return nil, &drugcomb.ParseError{File: name, Err: fmt.Errorf("no wells")}
	}
	for _, f := range []Format{Plate96, Plate384, Plate1536} {
		if maxR <= f.Rows && maxC <= f.Cols {
			m.Format = f
			break
		}
	}
	m.Wells = ws
	return m, nil
}

// ReadMapDir reads DIR/map.parquet, or DIR/map.csv when there is none.
func ReadMapDir(dir string) (*Map, error) {
	path := filepath.Join(dir, MapParquet)
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join(dir, MapCSV)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadMap(path, f)
}

// columns finds the named columns in a header (case-insensitive), all of
// them required.
func columns(name string, hdr, want []string) (map[string]int, error) {
	col := map[string]int{}
	for j, h := range hdr {
		col[strings.ToLower(strings.TrimSpace(h))] = j
	}
	out := map[string]int{}
	for _, w := range want {
		j, ok := col[strings.ToLower(w)]
		if !ok {
			return nil, &drugcomb.ParseError{File: name, Line: 1, Field: w, Err: drugcomb.ErrMissingColumn}
		}
		out[w] = j
	}
	return out, nil
}

// ReadSource reads a source layout: source_plate, source_well, compound,
// conc_um (0 for the vehicle) and volume_ul (drawn_ul, if there, is
// ignored: WriteDir's source.csv reads back).
func ReadSource(name string, r io.Reader) ([]Stock, error) {
	rows, err := drugcomb.OpenRows(name, r, 0)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	want := SourceColumns()[:5]
	col, err := columns(name, rows.Header(), want)
	if err != nil {
		return nil, err
	}
	var out []Stock
	line := 1
	for {
		more, err := rows.Next()
		if !more {
			if err != nil {
				return nil, err
			}
			break
		}
		line++
		if err != nil {
			return nil, err
		}
		f := func(c string) string { v, _ := rows.Field(col[c]); return strings.TrimSpace(v) }
		s := Stock{Plate: f("source_plate"), Well: f("source_well"), Compound: f("compound"), Line: line}
		if _, _, err := Plate1536.ParseWell(s.Well); err != nil {
			return nil, rows.Error(col["source_well"], err)
		}
		if s.Compound == "" {
			return nil, rows.Error(col["compound"], fmt.Errorf("no compound"))
		}
		for _, x := range []struct {
			c string
			v *float64
		}{{"conc_um", &s.Conc}, {"volume_ul", &s.Volume}} {
			v, err := strconv.ParseFloat(f(x.c), 64)
			if err != nil || v < 0 {
				return nil, rows.Error(col[x.c], fmt.Errorf("%q: want a number ≥ 0", f(x.c)))
			}
			*x.v = v
		}
		out = append(out, s)
	}
	return out, nil
}
