package doseresp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"gonum.org/v1/gonum/stat"
)

// Unit is the scale of the responses in a table.
type Unit uint8

const (
	// UnitAuto takes viability when the response column's name says so
	// ("viability"), % inhibition otherwise.
	UnitAuto Unit = iota
	// Inhibition is % inhibition (0 = no effect), the scale the scores use.
	Inhibition
	// Viability is % viability; it is read as inhibition = 100 − viability.
	Viability
)

// ParseUnit reads "inhibition" or "viability" ("" is UnitAuto).
func ParseUnit(s string) (Unit, error) {
	switch strings.ToLower(s) {
	case "":
		return UnitAuto, nil
	case "inhibition":
		return Inhibition, nil
	case "viability":
		return Viability, nil
	}
	return 0, fmt.Errorf("doseresp: response %q: want inhibition or viability", s)
}

func (u Unit) String() string {
	switch u {
	case Inhibition:
		return "inhibition"
	case Viability:
		return "viability"
	}
	return "auto"
}

// Columns names the columns of a long table; an empty name is looked up,
// case-insensitively, among the spellings of DrugComb/TidyComb, SynergyFinder
// (block_id/PairIndex/BlockId, drug1/DrugRow, conc1/ConcRow, response,
// conc_unit/ConcUnit, and their column-drug twins), the NCATS matrix files,
// Mathews Griner (PharmacoGx) and O'Neil (see spellings). Block and
// CellLine and Unit may be absent: without a block column, a block is one
// (drug_row, drug_col, cell_line).
type Columns struct {
	Block, DrugRow, DrugCol, CellLine, ConcRow, ConcCol, Response, Unit string
}

// MissingColumnError is a plate table without a column of a required role
// (block layout aside): the role (drug_row, drug_col, conc_row, conc_col,
// response), the spellings looked for and the header. It wraps
// drugcomb.ErrMissingColumn; the command layer names the flag that sets
// the column (Columns).
type MissingColumnError struct {
	Role   string
	Looked []string
	Header []string
}

func (e *MissingColumnError) Error() string {
	return fmt.Sprintf("%v: no %s column (looked for %s; the header has: %s)", drugcomb.ErrMissingColumn, e.Role, strings.Join(e.Looked, ", "), strings.Join(e.Header, ", "))
}

func (e *MissingColumnError) Unwrap() error { return drugcomb.ErrMissingColumn }

// spellings are the recognised column names, lower case, by role.
var spellings = map[string][]string{
	"block":     {"block_id", "blockid", "block", "pairindex", "pair_index"},
	"drug_row":  {"drug_row", "drug1", "rowname", "drug_row_name", "drugrow", "drug_a"},
	"drug_col":  {"drug_col", "drug2", "colname", "drug_col_name", "drugcol", "drug_b"},
	"cell_line": {"cell_line", "cell_line_name", "sampleid", "cell", "cellline"},
	"conc_row":  {"conc_row", "conc_r", "conc1", "concrow", "rowconcs", "conc_row_um", "conc_row_nm", "dose_row", "dose1"},
	"conc_col":  {"conc_col", "conc_c", "conc2", "conccol", "colconcs", "conc_col_um", "conc_col_nm", "dose_col", "dose2"},
	"response":  {"response", "inhibition", "response_pct_inhibition", "viability", "response_pct_viability", "% inhibition", "%inhibition"},
	"unit":      {"conc_unit", "concunit", "conc_unit1", "conc_r_unit", "rowconcunit", "conc_row_unit", "unit"},
}

// ReadOptions configures Read. The zero value recognises the columns and
// the unit from the header and stops at the first malformed row.
type ReadOptions struct {
	Columns Columns
	Unit    Unit
	Delim   rune // 0: sniffed from the header line
	// Lenient skips a block with a malformed row (non-numeric or negative
	// dose or response, wrong number of fields) and reports it instead of
	// returning the row's error.
	Lenient bool
}

// Reasons a block is not scored.
const (
	ReasonMalformed   = "malformed row"            // Lenient only
	ReasonNoSingleRow = "no single-drug wells"     // a drug's doses missing: no wells with the other drug at dose 0
	ReasonOneWell     = "fewer than 2×2 doses"     // a block of one dose of a drug (one well, one row…)
	ReasonIncomplete  = "incomplete matrix"        // wells without a response ImputeNA cannot fill (no response at all)
	ReasonMissingResp = "missing response"         // rows with an NA response (counted as rows)
	ReasonMixedDrugs  = "inconsistent block"       // a block id with several drug pairs or cell lines
	ReasonFit         = "dose-response fit failed" // Score could not fit a single drug
)

// Report is the data report of Read and ScoreAll: rows read and used, blocks
// kept, and every block or row not used, counted by reason.
type Report struct {
	Input      string            `json:"input"`
	Unit       string            `json:"response_unit"`
	Columns    map[string]string `json:"columns"`
	RowsRead   int               `json:"rows_read"`
	RowsUsed   int               `json:"rows_used"` // measurements in the blocks read
	BlocksRead int               `json:"blocks_read"`
	Blocks     int               `json:"blocks_kept"` // blocks scored
	Wells      int               `json:"wells"`
	Replicated int               `json:"replicated_wells"` // wells with n > 1
	// Skipped counts blocks not scored by reason; MissingRows rows with no response.
	Skipped     []*drugcomb.Tally `json:"skipped_blocks"`
	MissingRows int               `json:"rows_missing_response"`
	Imputed     int               `json:"imputed_wells"`    // wells without a measurement, filled by ImputeNA (n = 0 in wells.csv)
	FitModels   map[string]int    `json:"single_drug_fits"` // LL.4 / L.4 counts
	// Fallbacks counts, per synergy of the score table that has one, the
	// fallbacks of the blocks scored (ZIP's lines left unsmoothed, Loewe's
	// fallback wells), in the table's order. They follow the fields above
	// in the JSON, each under its Fallback.Key.
	Fallbacks []FallbackCount `json:"-"`
}

// FallbackCount is a synergy's fallbacks over the blocks of a report.
type FallbackCount struct {
	Fallback
	Count int
}

// MarshalJSON writes the report's fields, then its Fallbacks as
// "key": count members.
func (r *Report) MarshalJSON() ([]byte, error) {
	type plain Report // without the method
	b, err := json.Marshal((*plain)(r))
	if err != nil {
		return nil, err
	}
	b = b[:len(b)-1] // the closing brace
	for _, f := range r.Fallbacks {
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, ','), k...), ':')
		b = strconv.AppendInt(b, int64(f.Count), 10)
	}
	return append(b, '}'), nil
}

func (r *Report) skip(reason, where, detail string) {
	drugcomb.AddTally(&r.Skipped, reason, where, detail)
}

// SkippedBlocks is the number of blocks not scored.
func (r *Report) SkippedBlocks() int { return drugcomb.TallyCount(r.Skipped) }

// WriteText writes the report for a terminal.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d rows read (%s), %d blocks read, %d scored, %d wells (%d with replicates)\n",
		r.Input, r.RowsRead, r.Unit, r.BlocksRead, r.Blocks, r.Wells, r.Replicated)
	if r.MissingRows > 0 {
		fmt.Fprintf(&b, "  %d rows without a response\n", r.MissingRows)
	}
	if r.Imputed > 0 {
		fmt.Fprintf(&b, "  %d wells without a measurement imputed from their neighbours (SynergyFinder's ImputeNA; n = 0 in wells.csv)\n", r.Imputed)
	}
	if len(r.FitModels) > 0 {
		fmt.Fprintf(&b, "  single-drug fits: %d LL.4, %d L.4", r.FitModels["LL.4"], r.FitModels["L.4"])
		for _, f := range r.Fallbacks {
			fmt.Fprintf(&b, "; %s: %d", f.Text, f.Count)
		}
		b.WriteString("\n")
	}
	for _, t := range r.Skipped {
		fmt.Fprintf(&b, "  skipped %d block(s): %s", t.Count, t.Reason)
		for k, e := range t.Examples {
			sep := "; "
			if k == 0 {
				sep = " ("
			}
			fmt.Fprintf(&b, "%s%s: %s", sep, e.Where, e.Detail)
		}
		if len(t.Examples) > 0 {
			b.WriteString(")")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ErrNegativeDose is a dose below 0.
var ErrNegativeDose = errors.New("negative dose")

type wellKey struct{ r, c float64 }

type blockAcc struct {
	id, drugRow, drugCol, cell, unit string
	where                            string // first row
	wells                            map[wellKey][]float64
	bad                              string // first malformed row (Lenient)
	mixed                            string
	rows                             int
}

// Read reads a long table (one row per well and replicate) into blocks, in
// order of first appearance, with replicates averaged per well (sample sd
// kept). Responses are converted to % inhibition. A malformed row is an
// error naming file, line and column unless opt.Lenient; blocks that cannot
// be scored (a drug without its single-drug wells, fewer than 2×2 doses, a
// block id shared by several drug pairs) are not returned and are counted in
// the report with their first row. A well of the dose grid without a
// response is imputed by ImputeNA, as TidyComb does, and counted.
func Read(name string, r io.Reader, opt ReadOptions) ([]*Block, *Report, error) {
	br, matrix, err := openText(name, r)
	if err != nil {
		return nil, nil, err
	}
	rep := &Report{Input: name, Columns: map[string]string{}, FitModels: map[string]int{}}
	var order []*blockAcc
	if matrix {
		if opt.Unit == UnitAuto {
			opt.Unit = Inhibition
		}
		rep.Unit = opt.Unit.String()
		rep.Columns["layout"] = "SynergyFinder matrix"
		order, err = readMatrix(name, br, opt, rep)
	} else {
		order, err = readLong(name, br, opt, rep)
	}
	if err != nil {
		return nil, nil, err
	}
	rep.BlocksRead = len(order)
	var out []*Block
	for _, a := range order {
		blk, reason, detail := a.build()
		if blk == nil {
			rep.skip(reason, a.where, "block "+a.id+": "+detail)
			continue
		}
		rep.RowsUsed += a.rows
		for _, row := range blk.N {
			for _, n := range row {
				if n == 0 {
					rep.Imputed++
				}
			}
		}
		out = append(out, blk)
	}
	return out, rep, nil
}

// readLong reads the long layout: one row per well and replicate.
func readLong(name string, r io.Reader, opt ReadOptions, rep *Report) ([]*blockAcc, error) {
	rows, err := drugcomb.OpenRows(name, r, opt.Delim)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	hdr := rows.Header()
	col := map[string]int{}
	want := map[string]string{"block": opt.Columns.Block, "drug_row": opt.Columns.DrugRow, "drug_col": opt.Columns.DrugCol,
		"cell_line": opt.Columns.CellLine, "conc_row": opt.Columns.ConcRow, "conc_col": opt.Columns.ConcCol,
		"response": opt.Columns.Response, "unit": opt.Columns.Unit}
	for _, role := range []string{"block", "drug_row", "drug_col", "cell_line", "conc_row", "conc_col", "response", "unit"} {
		j := findCol(hdr, want[role], spellings[role])
		if j < 0 && want[role] != "" {
			return nil, &drugcomb.ParseError{File: name, Line: 1, Field: want[role], Err: drugcomb.ErrMissingColumn}
		}
		if j < 0 {
			switch role {
			case "block", "cell_line", "unit":
				continue
			}
			return nil, &drugcomb.ParseError{File: name, Line: 1, Err: &MissingColumnError{Role: role, Looked: spellings[role], Header: hdr}}
		}
		col[role] = j
		rep.Columns[role] = hdr[j]
	}
	unit := opt.Unit
	if unit == UnitAuto {
		unit = Inhibition
		if strings.Contains(strings.ToLower(hdr[col["response"]]), "viab") {
			unit = Viability
		}
	}
	rep.Unit = unit.String()

	var order []*blockAcc
	byID := map[string]*blockAcc{}
	field := func(role string) string {
		j, ok := col[role]
		if !ok {
			return ""
		}
		v, _ := rows.Field(j)
		return strings.TrimSpace(v)
	}
	for {
		more, err := rows.Next()
		if !more {
			if err != nil {
				return nil, err
			}
			break
		}
		rep.RowsRead++
		if err != nil {
			if !opt.Lenient {
				return nil, err
			}
			// The row cannot be attributed to a block reliably: count it.
			rep.skip(ReasonMalformed, rows.Loc(), err.Error())
			continue
		}
		dr, dc, cell := field("drug_row"), field("drug_col"), field("cell_line")
		id := field("block")
		if _, ok := col["block"]; !ok {
			id = dr + " × " + dc + " @ " + cell
		}
		b := byID[id]
		if b == nil {
			b = &blockAcc{id: id, drugRow: dr, drugCol: dc, cell: cell, unit: field("unit"), where: rows.Loc(), wells: map[wellKey][]float64{}}
			byID[id] = b
			order = append(order, b)
		} else if b.mixed == "" && (b.drugRow != dr || b.drugCol != dc || b.cell != cell) {
			b.mixed = fmt.Sprintf("%s: %s × %s on %q after %s × %s on %q", rows.Loc(), dr, dc, cell, b.drugRow, b.drugCol, b.cell)
		}
		b.rows++
		var vals [3]float64
		var bad *drugcomb.ParseError
		for k, role := range []string{"conc_row", "conc_col", "response"} {
			v, err := drugcomb.ParseNumber(field(role))
			switch {
			case err != nil:
				bad = rows.Error(col[role], err)
			case k < 2 && math.IsNaN(v):
				bad = rows.Error(col[role], errors.New("missing dose"))
			case k < 2 && v < 0:
				bad = rows.Error(col[role], fmt.Errorf("%w: %v", ErrNegativeDose, v))
			}
			if bad != nil {
				break
			}
			vals[k] = v
		}
		if bad != nil {
			if !opt.Lenient {
				return nil, bad
			}
			if b.bad == "" {
				b.bad = bad.Error()
			}
			continue
		}
		if math.IsNaN(vals[2]) {
			rep.MissingRows++
			continue
		}
		y := vals[2]
		if unit == Viability {
			y = 100 - y
		}
		k := wellKey{vals[0], vals[1]}
		b.wells[k] = append(b.wells[k], y)
	}
	return order, nil
}

func findCol(hdr []string, name string, alts []string) int {
	if name != "" {
		for j, h := range hdr {
			if h == name {
				return j
			}
		}
		for j, h := range hdr {
			if strings.EqualFold(h, name) {
				return j
			}
		}
		return -1
	}
	for _, a := range alts {
		for j, h := range hdr {
			if strings.EqualFold(h, a) {
				return j
			}
		}
	}
	return -1
}

// build turns the accumulated wells into a Block, or says why not.
func (a *blockAcc) build() (*Block, string, string) {
	switch {
	case a.bad != "":
		return nil, ReasonMalformed, a.bad
	case a.mixed != "":
		return nil, ReasonMixedDrugs, a.mixed
	}
	rs, cs := map[float64]bool{}, map[float64]bool{}
	for k := range a.wells {
		rs[k.r], cs[k.c] = true, true
	}
	conc := func(m map[float64]bool) []float64 {
		v := make([]float64, 0, len(m))
		for x := range m {
			v = append(v, x)
		}
		sort.Float64s(v)
		return v
	}
	cr, cc := conc(rs), conc(cs)
	switch {
	case len(a.wells) == 0:
		return nil, ReasonIncomplete, "no response"
	case len(cr) < 2 || len(cc) < 2:
		return nil, ReasonOneWell, fmt.Sprintf("%d dose(s) of %s × %d of %s (%d well(s))", len(cr), a.drugRow, len(cc), a.drugCol, len(a.wells))
	case cr[0] != 0:
		return nil, ReasonNoSingleRow, fmt.Sprintf("%s has no wells with %s at dose 0", a.drugRow, a.drugCol)
	case cc[0] != 0:
		return nil, ReasonNoSingleRow, fmt.Sprintf("%s has no wells with %s at dose 0", a.drugCol, a.drugRow)
	}
	b := &Block{ID: a.id, DrugRow: a.drugRow, DrugCol: a.drugCol, CellLine: a.cell, Unit: a.unit, ConcRow: cr, ConcCol: cc}
	b.Response, b.SD, b.N = make([][]float64, len(cr)), make([][]float64, len(cr)), make([][]int, len(cr))
	missing := 0
	for i, r := range cr {
		b.Response[i], b.SD[i], b.N[i] = make([]float64, len(cc)), make([]float64, len(cc)), make([]int, len(cc))
		for j, c := range cc {
			v, ok := a.wells[wellKey{r, c}]
			if !ok {
				b.Response[i][j], b.SD[i][j] = math.NaN(), math.NaN()
				missing++
				continue
			}
			b.Response[i][j], b.SD[i][j] = meanSD(v)
			b.N[i][j] = len(v)
		}
	}
	if missing > 0 {
		// Imputing a drug's whole single-drug curve would invent it.
		rowAlone, colAlone := 0, 0
		for i := 1; i < len(cr); i++ {
			rowAlone += min(b.N[i][0], 1)
		}
		for j := 1; j < len(cc); j++ {
			colAlone += min(b.N[0][j], 1)
		}
		switch {
		case rowAlone == 0:
			return nil, ReasonNoSingleRow, fmt.Sprintf("no measured wells of %s alone (conc_col = 0, conc_row > 0)", a.drugRow)
		case colAlone == 0:
			return nil, ReasonNoSingleRow, fmt.Sprintf("no measured wells of %s alone (conc_row = 0, conc_col > 0)", a.drugCol)
		}
	}
	if missing > 0 && ImputeNA(b.Response) < missing {
		return nil, ReasonIncomplete, "wells without a response that no neighbour can fill"
	}
	return b, "", ""
}

// ImputeNA fills the NaN wells of m as SynergyFinder's ImputeNA does (TidyComb
// runs it before scoring): each pass sets every NaN well to the mean of its
// up to four non-NaN neighbours (row and column), all from the matrix as it
// was at the start of the pass, until none is left or a pass fills none. It
// returns the number of wells filled.
func ImputeNA(m [][]float64) int {
	filled := 0
	for {
		var fill [][3]float64
		left := 0
		for i := range m {
			for j := range m[i] {
				if !math.IsNaN(m[i][j]) {
					continue
				}
				left++
				var s float64
				var n int
				for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					r, c := i+d[0], j+d[1]
					if r >= 0 && r < len(m) && c >= 0 && c < len(m[r]) && !math.IsNaN(m[r][c]) {
						s += m[r][c]
						n++
					}
				}
				if n > 0 {
					fill = append(fill, [3]float64{float64(i), float64(j), s / float64(n)})
				}
			}
		}
		if left == 0 || len(fill) == 0 {
			return filled
		}
		for _, f := range fill {
			m[int(f[0])][int(f[1])] = f[2]
		}
		filled += len(fill)
	}
}

// meanSD is the mean and sample standard deviation (NaN for one value:
// uq.MeanSD's rule) of a well's replicates, by gonum's stat.MeanStdDev,
// not by uq.MeanSD: the two sum in a different order, and the scores of
// a plate are sensitive to the last bit of a replicate mean (with
// uq.MeanSD the css of ONEIL's block 1 moves from 79.7375 to 79.7305), so
// this keeps the numbers the README shows until a change of them
// is decided.
func meanSD(v []float64) (float64, float64) {
	if len(v) == 1 {
		return v[0], math.NaN()
	}
	return stat.MeanStdDev(v, nil)
}
