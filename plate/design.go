package plate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"sort"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/streams"
)

// Role is what a well holds.
type Role string

// The roles of a plate map.
const (
	Sample   Role = "sample"   // a well of a dose–response block
	Negative Role = "negative" // vehicle only (0 % inhibition)
	Positive Role = "positive" // the positive control (100 % inhibition)
	Empty    Role = "empty"    // nothing dispensed, not read
)

// Request is one line of a suggested batch: a drug pair on a cell line,
// laid out as one dose–response block (Replicates copies of it).
type Request struct {
	DrugA, DrugB, CellLine string
	Line                   int // the batch file's line, for the report
}

// Well is one well of a plate map. Doses are the delivered final
// concentrations in µM (0: the drug is absent).
type Well struct {
	Plate      string
	Row, Col   int // 0-based
	Role       Role
	DrugA      string
	ConcA      float64
	DrugB      string
	ConcB      float64
	CellLine   string
	BlockID    string
	dropA      int // droplets of drug A's stock (or of the positive control's)
	dropB      int
	stockA     int // index into Plan.Source, -1 none
	stockB     int
	replicateK int
}

// Map is a plate map: every well of every plate, plate by plate, row by
// row.
type Map struct {
	Format Format
	Plates []Plate
	Wells  []Well
}

// Plate is one plate of a map: its name and the cell line seeded in it
// (one line per plate: cells are dispensed plate by plate).
type Plate struct {
	Name, CellLine string
}

// DefaultMaxConc is the top dose, in µM, of a drug whose catalogue gives
// none (Design.MaxConc nil or returning 0).
const DefaultMaxConc = 10.0

// Design configures Layout. The zero value lays 6×6 blocks (5 doses of
// each drug and the zero dose), two copies of each, on 384-well plates
// with empty edge wells, every control-column well used, doses a
// three-fold series below DefaultMaxConc, and the dispensing defaults of
// Dispense.
type Design struct {
	Format     Format  // zero: Plate384
	GridRows   int     // doses of drug A including 0 (the block's rows); 0: 6
	GridCols   int     // doses of drug B including 0; 0: 6
	Replicates int     // copies of each block, on different plates where there are enough; 0: 2
	Controls   int     // wells of each control per plate; 0: every control-column well
	UseEdge    bool    // false: the outer ring of wells stays empty
	Seed       uint64  // block placement
	Prefix     string  // plate names are Prefix + a two-digit index; "": "P"
	MaxPlates  int     // most plates laid out; 0: no limit (blocks past it are left out, counted)
	Dilution   float64 // ratio of consecutive doses; 0: 3
	// MaxConc gives a drug's top dose in µM; nil or 0: DefaultMaxConc.
	MaxConc  func(drug string) float64
	Dispense Dispense
	// Source is the stock layout (ReadSource); nil: generated
	// (Dispense.GenerateSource) for the drugs laid out.
	Source []Stock
	// SourceName names Source in messages.
	SourceName string
}

// Reasons a request is left out.
const (
	ReasonDuplicate = "duplicate of an earlier line"
	ReasonSameDrug  = "the same drug twice"
	ReasonNoDrug    = "no drug named"
	ReasonNoPlate   = "no plate left under the plate limit"
)

// Report says what Layout laid out and what it left out.
type Report struct {
	Format         string            `json:"format"`
	Grid           string            `json:"grid"`
	Replicates     int               `json:"replicates"`
	Requests       int               `json:"requests"`
	Blocks         int               `json:"blocks"`
	Copies         int               `json:"block_copies"`
	Plates         int               `json:"plates"`
	BlocksPerPlate int               `json:"blocks_per_plate"`
	WellsUsed      int               `json:"wells_used"`
	SampleWells    int               `json:"sample_wells"`
	NegativeWells  int               `json:"negative_wells"`
	PositiveWells  int               `json:"positive_wells"`
	EmptyWells     int               `json:"empty_wells"`
	Transfers      int               `json:"transfers"`
	WellVolumeNL   jsonfloat.Float   `json:"transfer_volume_per_well_nl"`
	SourceWells    int               `json:"source_wells"`
	MaxDoseError   jsonfloat.Float   `json:"max_dose_rounding_error"` // |delivered − nominal| / nominal
	LeftOut        []*drugcomb.Tally `json:"left_out"`
	Seed           uint64            `json:"seed"`
}

// ErrDesign is a design that cannot be laid out (a grid that does not fit
// the plate, too many controls, a bad setting).
var ErrDesign = errors.New("plate design")

// Plan is a laid-out batch: the plate map, the source layout its transfers
// draw from and the pick list.
type Plan struct {
	Map    *Map
	Source []Stock
	Picks  []Pick
	Report Report
}

var prefixOK = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func (d *Design) defaults() error {
	if d.Format == (Format{}) {
		d.Format = Plate384
	}
	if d.GridRows == 0 {
		d.GridRows = 6
	}
	if d.GridCols == 0 {
		d.GridCols = 6
	}
	if d.Replicates == 0 {
		d.Replicates = 2
	}
	if d.Prefix == "" {
		d.Prefix = "P"
	}
	if d.Dilution == 0 {
		d.Dilution = 3
	}
	switch {
	case d.GridRows < 2 || d.GridCols < 2:
		return fmt.Errorf("%w: grid %dx%d: want at least 2x2 (the zero dose and one dose of each drug)", ErrDesign, d.GridRows, d.GridCols)
	case d.Replicates < 1:
		return fmt.Errorf("%w: replicates %d: want at least 1", ErrDesign, d.Replicates)
	case d.Controls < 0:
		return fmt.Errorf("%w: controls %d: want 0 (every control-column well) or more", ErrDesign, d.Controls)
	case d.MaxPlates < 0:
		return fmt.Errorf("%w: max plates %d: want 0 (no limit) or more", ErrDesign, d.MaxPlates)
	case !prefixOK.MatchString(d.Prefix):
		return fmt.Errorf("%w: plate name prefix %q: want letters, digits, '-' or '_'", ErrDesign, d.Prefix)
	case !(d.Dilution > 1) || math.IsInf(d.Dilution, 0):
		return fmt.Errorf("%w: dilution %v: want a ratio above 1", ErrDesign, d.Dilution)
	}
	return d.Dispense.defaults(d.Format)
}

// geometry is where things go on one plate.
type geometry struct {
	usableRows []int
	ctrlCols   [2]int
	slots      [][2]int // top-left well of each block slot
	negWells   [][2]int
	posWells   [][2]int
}

func (d *Design) geometry() (geometry, error) {
	var g geometry
	r0, r1, c0, c1 := 0, d.Format.Rows-1, 0, d.Format.Cols-1
	if !d.UseEdge {
		r0, r1, c0, c1 = 1, d.Format.Rows-2, 1, d.Format.Cols-2
	}
	for r := r0; r <= r1; r++ {
		g.usableRows = append(g.usableRows, r)
	}
	g.ctrlCols = [2]int{c0, c1}
	nr, nc := len(g.usableRows)/d.GridRows, (c1-c0-1)/d.GridCols
	for i := 0; i < nr; i++ {
		for j := 0; j < nc; j++ {
			g.slots = append(g.slots, [2]int{r0 + i*d.GridRows, c0 + 1 + j*d.GridCols})
		}
	}
	if len(g.slots) == 0 {
		return g, fmt.Errorf("%w: a %dx%d block does not fit a %s-well plate (%d rows by %d columns between the control columns)",
			ErrDesign, d.GridRows, d.GridCols, d.Format, len(g.usableRows), c1-c0-1)
	}
	// Controls alternate down each control column, the second column
	// starting with the other kind, so both kinds sit on both sides.
	per := len(g.usableRows)
	n := d.Controls
	if n == 0 {
		n = per
	}
	if n > per {
		return g, fmt.Errorf("%w: controls %d: a %s-well plate has %d control wells of each kind (two columns of %d)", ErrDesign, n, d.Format, per, per)
	}
	var neg, pos [][2]int
	for k, c := range g.ctrlCols {
		for i, r := range g.usableRows {
			if (i+k)%2 == 0 {
				neg = append(neg, [2]int{r, c})
			} else {
				pos = append(pos, [2]int{r, c})
			}
		}
	}
	g.negWells, g.posWells = spread(neg, n), spread(pos, n)
	return g, nil
}

// spread takes n of the wells ws, evenly spaced along the list.
func spread(ws [][2]int, n int) [][2]int {
	if n >= len(ws) {
		return ws
	}
	out := make([][2]int, n)
	for i := range out {
		out[i] = ws[i*len(ws)/n]
	}
	return out
}

// Doses is the nominal dose series of a drug with top dose top: n doses
// top/ratio^(n−1), …, top/ratio, top (µM), ascending.
func Doses(top, ratio float64, n int) []float64 {
	out := make([]float64, n)
	for k := range out {
		out[k] = top / math.Pow(ratio, float64(n-1-k))
	}
	return out
}

type block struct {
	id  string
	req Request
}

// Layout lays the requests out as plates (see the package documentation):
// one block per request, Replicates copies, at seeded random slots, with
// the controls of every plate, and plans the transfers that make them.
// A design that cannot be made is an error (ErrDesign, a *VolumeError);
// requests it leaves out are counted in the report.
func (d Design) Layout(reqs []Request) (*Plan, error) {
	if err := d.defaults(); err != nil {
		return nil, err
	}
	g, err := d.geometry()
	if err != nil {
		return nil, err
	}
	rep := Report{Format: d.Format.String(), Grid: fmt.Sprintf("%dx%d", d.GridRows, d.GridCols), Replicates: d.Replicates,
		Requests: len(reqs), BlocksPerPlate: len(g.slots), Seed: d.Seed, LeftOut: []*drugcomb.Tally{}}
	// The blocks, by cell line in order of first appearance.
	seen := map[[3]string]int{}
	var lines []string
	byLine := map[string][]block{}
	for _, q := range reqs {
		where := fmt.Sprintf("line %d", q.Line)
		switch {
		case q.DrugA == "" || q.DrugB == "":
			drugcomb.AddTally(&rep.LeftOut, ReasonNoDrug, where, q.DrugA+" × "+q.DrugB)
			continue
		case q.DrugA == q.DrugB:
			drugcomb.AddTally(&rep.LeftOut, ReasonSameDrug, where, q.DrugA)
			continue
		}
		a, b := q.DrugA, q.DrugB
		if b < a {
			a, b = b, a
		}
		k := [3]string{a, b, q.CellLine}
		if l, ok := seen[k]; ok {
			drugcomb.AddTally(&rep.LeftOut, ReasonDuplicate, where, fmt.Sprintf("%s × %s on %q, as line %d", q.DrugA, q.DrugB, q.CellLine, l))
			continue
		}
		seen[k] = q.Line
		if _, ok := byLine[q.CellLine]; !ok {
			lines = append(lines, q.CellLine)
		}
		byLine[q.CellLine] = append(byLine[q.CellLine], block{req: q})
	}
	// Plates per line; the plate limit leaves out the last blocks.
	slots := len(g.slots)
	platesLeft := d.MaxPlates
	var nblocks int
	for _, ln := range lines {
		bs := byLine[ln]
		if d.MaxPlates > 0 {
			fit := platesLeft * slots / d.Replicates
			if fit < len(bs) {
				for _, b := range bs[fit:] {
					drugcomb.AddTally(&rep.LeftOut, ReasonNoPlate, fmt.Sprintf("line %d", b.req.Line),
						fmt.Sprintf("%s × %s on %q (--max-plates %d)", b.req.DrugA, b.req.DrugB, ln, d.MaxPlates))
				}
				bs = bs[:fit]
			}
			platesLeft -= (len(bs)*d.Replicates + slots - 1) / slots
		}
		for i := range bs {
			nblocks++
			bs[i].id = fmt.Sprint(nblocks)
		}
		byLine[ln] = bs
	}
	rng := rand.New(rand.NewPCG(d.Seed, streams.PlateDesign))
	m := &Map{Format: d.Format}
	type copyAt struct {
		b    block
		rep  int
		slot [2]int
	}
	var placed [][]copyAt // per plate
	for _, ln := range lines {
		bs := byLine[ln]
		if len(bs) == 0 {
			continue
		}
		copies := len(bs) * d.Replicates
		np := (copies + slots - 1) / slots
		first := len(placed)
		free := make([][][2]int, np)
		holds := make([]map[string]bool, np)
		for p := range free {
			free[p] = append([][2]int(nil), g.slots...)
			rng.Shuffle(len(free[p]), func(i, j int) { free[p][i], free[p][j] = free[p][j], free[p][i] })
			holds[p] = map[string]bool{}
			m.Plates = append(m.Plates, Plate{Name: fmt.Sprintf("%s%02d", d.Prefix, len(m.Plates)+1), CellLine: ln})
			placed = append(placed, nil)
		}
		for r := 0; r < d.Replicates; r++ {
			order := rng.Perm(len(bs))
			for _, k := range order {
				b := bs[k]
				best := -1
				for _, p := range rng.Perm(np) {
					if len(free[p]) == 0 {
						continue
					}
					better := best < 0 || (holds[best][b.id] && !holds[p][b.id]) ||
						(holds[best][b.id] == holds[p][b.id] && len(free[p]) > len(free[best]))
					if better {
						best = p
					}
				}
				s := free[best][len(free[best])-1]
				free[best] = free[best][:len(free[best])-1]
				holds[best][b.id] = true
				placed[first+best] = append(placed[first+best], copyAt{b, r, s})
			}
		}
	}
	rep.Blocks = nblocks
	rep.Plates = len(m.Plates)
	if rep.Plates == 0 {
		return nil, fmt.Errorf("%w: no block to lay out (%d lines read, %d left out)", ErrDesign, len(reqs), drugcomb.TallyCount(rep.LeftOut))
	}
	// Doses of every drug laid out.
	top := func(drug string) float64 {
		if d.MaxConc != nil {
			if v := d.MaxConc(drug); v > 0 {
				return v
			}
		}
		return DefaultMaxConc
	}
	var drugs []string
	dseen := map[string]bool{}
	for _, ln := range lines {
		for _, b := range byLine[ln] {
			for _, x := range []string{b.req.DrugA, b.req.DrugB} {
				if !dseen[x] {
					dseen[x] = true
					drugs = append(drugs, x)
				}
			}
		}
	}
	sort.Strings(drugs)
	src := d.Source
	if src == nil {
		src = d.Dispense.GenerateSource(drugs)
	}
	disp, err := newDispenser(&d.Dispense, src, d.SourceName)
	if err != nil {
		return nil, err
	}
	doseA := map[string][]dose{}
	doseB := map[string][]dose{}
	for _, x := range drugs {
		for _, set := range []struct {
			into map[string][]dose
			n    int
		}{{doseA, d.GridRows - 1}, {doseB, d.GridCols - 1}} {
			if _, ok := set.into[x]; ok {
				continue
			}
			var ds []dose
			for _, c := range Doses(top(x), d.Dilution, set.n) {
				q, err := disp.dose(x, c)
				if err != nil {
					return nil, err
				}
				rep.MaxDoseError = jsonfloat.Float(math.Max(float64(rep.MaxDoseError), math.Abs(q.conc-c)/c))
				ds = append(ds, q)
			}
			set.into[x] = ds
		}
	}
	posDose, err := disp.positive()
	if err != nil {
		return nil, err
	}
	// The wells.
	for p, pl := range m.Plates {
		base := len(m.Wells)
		for r := 0; r < d.Format.Rows; r++ {
			for c := 0; c < d.Format.Cols; c++ {
				m.Wells = append(m.Wells, Well{Plate: pl.Name, Row: r, Col: c, Role: Empty, CellLine: pl.CellLine, stockA: -1, stockB: -1})
			}
		}
		at := func(rc [2]int) *Well { return &m.Wells[base+rc[0]*d.Format.Cols+rc[1]] }
		for _, rc := range g.negWells {
			at(rc).Role = Negative
		}
		for _, rc := range g.posWells {
			w := at(rc)
			w.Role, w.DrugA, w.ConcA, w.dropA, w.stockA = Positive, d.Dispense.Positive, posDose.conc, posDose.drops, posDose.stock
		}
		for _, cp := range placed[p] {
			da, db := doseA[cp.b.req.DrugA], doseB[cp.b.req.DrugB]
			for i := 0; i < d.GridRows; i++ {
				for j := 0; j < d.GridCols; j++ {
					w := at([2]int{cp.slot[0] + i, cp.slot[1] + j})
					w.Role, w.DrugA, w.DrugB, w.BlockID, w.replicateK = Sample, cp.b.req.DrugA, cp.b.req.DrugB, cp.b.id, cp.rep
					if i > 0 {
						w.ConcA, w.dropA, w.stockA = da[i-1].conc, da[i-1].drops, da[i-1].stock
					}
					if j > 0 {
						w.ConcB, w.dropB, w.stockB = db[j-1].conc, db[j-1].drops, db[j-1].stock
					}
				}
			}
		}
		rep.Copies += len(placed[p])
	}
	picks, err := disp.picks(m)
	if err != nil {
		return nil, err
	}
	for _, w := range m.Wells {
		switch w.Role {
		case Sample:
			rep.SampleWells++
		case Negative:
			rep.NegativeWells++
		case Positive:
			rep.PositiveWells++
		default:
			rep.EmptyWells++
		}
	}
	rep.WellsUsed = rep.SampleWells + rep.NegativeWells + rep.PositiveWells
	rep.Transfers = len(picks)
	rep.WellVolumeNL = jsonfloat.Float(d.Dispense.Total)
	rep.SourceWells = len(disp.src)
	return &Plan{Map: m, Source: disp.used(), Picks: picks, Report: rep}, nil
}
