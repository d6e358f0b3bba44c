package pairs

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/internal/arrowguard"
	"github.com/deup-screening/deup/internal/tabular"
)

// PredictionColumns are the columns of a predictions file: drug_a and
// drug_b (drug IDs of the screen, or names, or PubChem CIDs; the files of
// deup predict call them drug_a_id and drug_b_id, read as the same), cell_line
// (optional), mu, sigma_total, sigma_epistemic, sigma_aleatoric,
// acquisition (optional), and lower and upper (optional: the interval of
// deup predict --coverage; accepted but not shown, and listed by
// Builder.Unused). Any other column (deup predict's drug names, score,
// measured, measured_mean, and the columns it passes through from its
// --pairs file) is accepted, not shown, and listed by Builder.Unused.
// `deup predict` writes such files.
func PredictionColumns() []string {
	return []string{"drug_a", "drug_b", "cell_line", "mu", "sigma_total", "sigma_epistemic", "sigma_aleatoric", "acquisition", "lower", "upper"}
}

func optionalColumn(c string) bool {
	return c == "cell_line" || c == "acquisition" || c == "lower" || c == "upper"
}

// noteUnused records the columns of idx the table does not keep.
func (bl *Builder) noteUnused(idx map[string]int) {
	names := make([]string, 0, len(idx))
	for c := range idx {
		names = append(names, c)
	}
	slices.SortFunc(names, func(a, b string) int { return idx[a] - idx[b] })
	for _, c := range names {
		switch c {
		case "drug_a", "drug_b", "cell_line", "mu", "sigma_total", "sigma_epistemic", "sigma_aleatoric", "acquisition":
			continue
		}
		if !slices.Contains(bl.unused, c) {
			bl.unused = append(bl.unused, c)
		}
	}
}

// Unused returns the columns of the files read so far that the table does
// not keep (lower, upper and any column it does not know), in file order,
// for the caller to say so.
func (bl *Builder) Unused() []string { return slices.Clone(bl.unused) }

// ReadPredictions adds the predictions in path (.csv, .parquet or .arrow)
// and returns how many it added. Rows without a cell_line column (or with an
// empty one) go to cell line cell; cell < 0 then is an error naming the row.
// Empty or null numbers are NaN. Errors name the file and the line (CSV) or
// row (Parquet, Arrow) and column.
func (bl *Builder) ReadPredictions(path string, cell int) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("pairs: %w", err)
	}
	defer f.Close()
	before := len(bl.t.a)
	switch format, _ := tabular.FormatOf(path); format {
	case tabular.CSV:
		err = bl.readCSV(f, cell)
	case tabular.Parquet, tabular.Arrow:
		err = bl.readGuarded(f, format, cell)
	default:
		err = fmt.Errorf("unknown predictions format %q (want .csv, .parquet or .arrow)", strings.ToLower(filepath.Ext(path)))
	}
	if err != nil {
		return 0, fmt.Errorf("pairs: %s: %w", path, err)
	}
	return len(bl.t.a) - before, nil
}

func (bl *Builder) mem() memory.Allocator {
	if bl.Mem != nil {
		return bl.Mem
	}
	return memory.DefaultAllocator
}

// resolver maps the drug and cell-line values of a predictions file to
// indices of the screen.
type resolver struct {
	drug map[string]int // by ID, then (if unambiguous) by name and PubChem CID
	cell map[string]int

	// the last value looked up and its index: files from `deup predict
	// --all-pairs` repeat drug_a for thousands of rows
	lastV  string
	lastI  int
	lastOK bool
}

func (bl *Builder) resolver() *resolver {
	s := bl.t.screen
	r := &resolver{drug: map[string]int{}, cell: map[string]int{}}
	ambiguous := map[string]bool{}
	alias := func(k string, i int) {
		if k == "" {
			return
		}
		if j, ok := r.drug[k]; ok && j != i {
			ambiguous[k] = true
			return
		}
		r.drug[k] = i
	}
	for i, d := range s.Drugs {
		r.drug[d.ID] = i
	}
	for i, d := range s.Drugs {
		if _, isID := r.drug[d.Name]; !isID {
			alias(strings.ToLower(d.Name), i)
		}
		if d.PubChemCID != 0 {
			alias("cid:"+strconv.FormatInt(d.PubChemCID, 10), i)
		}
	}
	for k := range ambiguous {
		delete(r.drug, k)
	}
	for i, c := range s.CellLines {
		r.cell[c] = i
	}
	return r
}

func (r *resolver) drugIndex(v string) (int, error) {
	if r.lastOK && v == r.lastV {
		return r.lastI, nil
	}
	if i, ok := r.drug[v]; ok {
		r.lastV, r.lastI, r.lastOK = v, i, true
		return i, nil
	}
	if i, ok := r.drug[strings.ToLower(v)]; ok {
		return i, nil
	}
	if i, ok := r.drug["cid:"+strings.TrimSpace(v)]; ok {
		return i, nil
	}
	return 0, fmt.Errorf("drug %q is not in the screen (by ID, name or PubChem CID)", v)
}

func (r *resolver) cellIndex(v string, def int) (int, error) {
	if v == "" {
		if def < 0 {
			return 0, errors.New("no cell line: the file has no cell_line value and the screen has several (choose one)")
		}
		return def, nil
	}
	if i, ok := r.cell[v]; ok {
		return i, nil
	}
	return 0, fmt.Errorf("cell line %q is not in the screen", v)
}

// header maps column names to positions and checks them.
func predHeader(names []string) (map[string]int, error) {
	known := map[string]bool{}
	for _, c := range PredictionColumns() {
		known[c] = true
	}
	idx := map[string]int{}
	for i, n := range names {
		c := n
		switch n {
		case "drug_a_id":
			c = "drug_a"
		case "drug_b_id":
			c = "drug_b"
		}
		if _, dup := idx[c]; dup {
			if c != n || known[c] && slices.Contains(names, c+"_id") {
				return nil, fmt.Errorf("columns %q and %q both: keep one", c, c+"_id")
			}
			return nil, fmt.Errorf("column %q twice", n)
		}
		idx[c] = i
	}
	for _, c := range PredictionColumns() {
		if _, ok := idx[c]; !ok && !optionalColumn(c) {
			if c == "drug_a" || c == "drug_b" {
				return nil, fmt.Errorf("missing column %q (or %q)", c+"_id", c)
			}
			return nil, fmt.Errorf("missing column %q", c)
		}
	}
	return idx, nil
}

// addRow adds one row given accessors for its values.
func (bl *Builder) addRow(r *resolver, idx map[string]int, str func(col int) (string, error), f64 func(col int) (float64, error), cell int) error {
	get := func(name string) (string, error) {
		s, err := str(idx[name])
		if err != nil {
			return "", fmt.Errorf("column %s: %w", name, err)
		}
		return s, nil
	}
	av, err := get("drug_a")
	if err != nil {
		return err
	}
	bv, err := get("drug_b")
	if err != nil {
		return err
	}
	a, err := r.drugIndex(av)
	if err != nil {
		return fmt.Errorf("column drug_a: %w", err)
	}
	b, err := r.drugIndex(bv)
	if err != nil {
		return fmt.Errorf("column drug_b: %w", err)
	}
	cv := ""
	if _, ok := idx["cell_line"]; ok {
		if cv, err = get("cell_line"); err != nil {
			return err
		}
	}
	c, err := r.cellIndex(cv, cell)
	if err != nil {
		return fmt.Errorf("column cell_line: %w", err)
	}
	p := Scored{Acquisition: math.NaN()}
	for _, nd := range [...]struct {
		name string
		dst  *float64
	}{{"mu", &p.Mu}, {"sigma_total", &p.SigmaTotal}, {"sigma_epistemic", &p.SigmaEpistemic}, {"sigma_aleatoric", &p.SigmaAleatoric}, {"acquisition", &p.Acquisition}} {
		name, dst := nd.name, nd.dst
		col, ok := idx[name]
		if !ok {
			continue
		}
		v, err := f64(col)
		if err != nil {
			return fmt.Errorf("column %s: %w", name, err)
		}
		if math.IsInf(v, 0) {
			return fmt.Errorf("column %s: %v is not finite", name, v)
		}
		if v < 0 && strings.HasPrefix(name, "sigma") {
			return fmt.Errorf("column %s: negative standard deviation %v", name, v)
		}
		*dst = v
	}
	return bl.Add(a, b, c, p)
}

func (bl *Builder) readCSV(rd io.Reader, cell int) error {
	cr := csv.NewReader(rd)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return errors.New("empty file")
	}
	if err != nil {
		return err
	}
	idx, err := predHeader(head)
	if err != nil {
		return fmt.Errorf("line 1: %w", err)
	}
	bl.noteUnused(idx)
	r := bl.resolver()
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		line, _ := cr.FieldPos(0)
		str := func(col int) (string, error) { return rec[col], nil }
		f64 := func(col int) (float64, error) {
			if rec[col] == "" {
				return math.NaN(), nil
			}
			return strconv.ParseFloat(rec[col], 64)
		}
		if err := bl.addRow(r, idx, str, f64, cell); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
}

func (bl *Builder) readRecord(r *resolver, idx map[string]int, rec arrow.Record, row0 int, cell int) error {
	cols := rec.Columns()
	for i := 0; i < int(rec.NumRows()); i++ {
		str := func(col int) (string, error) {
			switch a := cols[col].(type) {
			case *array.String:
				if a.IsNull(i) {
					return "", nil
				}
				return a.Value(i), nil
			case *array.LargeString:
				if a.IsNull(i) {
					return "", nil
				}
				return a.Value(i), nil
			case *array.Int64:
				if a.IsNull(i) {
					return "", nil
				}
				return strconv.FormatInt(a.Value(i), 10), nil
			}
			return "", fmt.Errorf("type %s, want a string", cols[col].DataType())
		}
		f64 := func(col int) (float64, error) {
			switch a := cols[col].(type) {
			case *array.Float64:
				if a.IsNull(i) {
					return math.NaN(), nil
				}
				return a.Value(i), nil
			case *array.Float32:
				if a.IsNull(i) {
					return math.NaN(), nil
				}
				return float64(a.Value(i)), nil
			}
			return 0, fmt.Errorf("type %s, want a float", cols[col].DataType())
		}
		if err := bl.addRow(r, idx, str, f64, cell); err != nil {
			return fmt.Errorf("row %d: %w", row0+i+1, err)
		}
	}
	return nil
}

func schemaIndex(s *arrow.Schema) (map[string]int, error) {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return predHeader(names)
}

// readGuarded reads a Parquet or Arrow IPC file (format) through
// arrowguard.ReadParquet or arrowguard.ReadIPC (checked first, read in the
// calling goroutine, at most arrowguard.Budget(size) bytes of buffers).
func (bl *Builder) readGuarded(f *os.File, format tabular.Format, cell int) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	var tbl arrow.Table
	if format == tabular.Parquet {
		tbl, err = arrowguard.ReadParquet(f, st.Size(), bl.mem())
	} else {
		tbl, err = arrowguard.ReadIPC(f, st.Size(), bl.mem())
	}
	if err != nil {
		return err
	}
	defer tbl.Release()
	return bl.readTable(tbl, cell)
}

// readTable adds the rows of a table read by arrowguard.
func (bl *Builder) readTable(tbl arrow.Table, cell int) (err error) {
	defer arrowguard.Recover(&err, "table")
	idx, err := schemaIndex(tbl.Schema())
	if err != nil {
		return err
	}
	bl.noteUnused(idx)
	bl.grow(int(tbl.NumRows()))
	r := bl.resolver()
	tr := array.NewTableReader(tbl, 0)
	defer tr.Release()
	row := 0
	for tr.Next() {
		rec := tr.Record()
		if err := bl.readRecord(r, idx, rec, row, cell); err != nil {
			return err
		}
		row += int(rec.NumRows())
	}
	return nil
}
