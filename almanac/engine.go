package almanac

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/deup-screening/deup/drugcomb"
)

var nan = math.NaN()

// Reasons a well is not used. Every well read is scored (a combination
// well), used as a reference (a single-agent well some scored well needed),
// or counted under exactly one of these.
const (
	ReasonInvalid        = "invalid"           // VALID is N
	ReasonNoGrowth       = "no percent growth" // PERCENTGROWTH empty
	ReasonUnit           = "unit"              // a concentration unit other than M (molar) or u (µg/ml)
	ReasonMissingPartner = "missing partner"   // a combination well without a same-plate single-agent well of one of its drugs at its concentration
	ReasonSingleOnly     = "single-agent only" // a single-agent well no scored combination well needed
)

// DefaultPlateWindow is Options.PlateWindow's default.
const DefaultPlateWindow = 4096

// DefaultTolerance is the largest difference between a recomputed and the
// file's EXPECTEDGROWTH that is not reported (the file rounds to 3 decimals).
const DefaultTolerance = 0.01

// Options configures Import. The zero value is usable.
type Options struct {
	// PlateWindow is how many plates stay open: a plate is resolved (its
	// combination wells scored, its wells released) once rows of
	// PlateWindow other plates have come after its last row. NCI's file
	// keeps a plate's rows together, so memory stays bounded by the window
	// and not by the file. Rows of a plate that come after it was resolved
	// start it again and are counted in Report.PlatesReopened (their
	// partners on the earlier rows are then missing, and reported so).
	// 0 means DefaultPlateWindow; a negative value keeps every plate open
	// until the end.
	PlateWindow int
	// Tolerance is the difference from the file's EXPECTEDGROWTH that is
	// reported as a disagreement (0: DefaultTolerance).
	Tolerance float64
	// Block, when set, receives each plate-block (the combination wells of
	// one ordered pair on one plate, with their expected growth) when its
	// plate is resolved: the hand-over point for a dose-response scorer.
	// The value is valid only during the call.
	Block func(*PlateBlock)
	// Progress, when set, is called with the number of wells read every
	// 65,536 wells.
	Progress func(wells int)
}

// BlockWell is one scored combination well.
type BlockWell struct {
	Line         int     // line in the wells file
	Conc1, Conc2 float64 // concentrations of drug 1 and drug 2 (their units in the file)
	Growth       float64 // PERCENTGROWTH of the combination (below 0 when cells died)
	Growth1      float64 // same-plate PERCENTGROWTH of drug 1 alone at Conc1 (mean of its wells)
	Growth2      float64 // same for drug 2 at Conc2
	Expected     float64 // expected growth by NCI's rule
	Score        float64 // NCI's well score: Expected - Growth rounded to an integer
}

// PlateBlock is the scored combination wells of one ordered pair of drugs
// (NSC1 first, as the file orders them) on one plate.
type PlateBlock struct {
	NSC1, NSC2 int
	Cell       string
	Study      string
	Plate      string
	Wells      []BlockWell
}

// ComboScore is NCI's ComboScore of one ordered pair on one cell line: the
// sum of the well scores of a plate-block, averaged over the plates that
// measured the block (Plates; each plate-block sum is in Sums).
type ComboScore struct {
	NSC1, NSC2 int
	Cell       string
	Score      float64   // mean over plates of the plate-block sums
	Sums       []float64 // the plate-block sums, in the order the plates were resolved
	Plates     int
	Wells      int     // scored combination wells, all plates
	FileScore  float64 // the same from the file's SCORE values; NaN when a well had none
}

// Disagreement counts wells whose recomputed value differs from the file's.
type Disagreement struct {
	Checked  int                `json:"checked"` // wells where the file gives the value
	Count    int                `json:"count"`
	MaxDiff  float64            `json:"max_abs_difference"`
	Examples []drugcomb.Example `json:"examples"`
}

func (d *Disagreement) add(where, detail string, diff float64) {
	d.Count++
	d.MaxDiff = max(d.MaxDiff, diff)
	if len(d.Examples) < drugcomb.MaxExamples {
		d.Examples = append(d.Examples, drugcomb.Example{Where: where, Detail: detail})
	}
}

// Report is the data report of a wells import. WellsRead = ScoredWells +
// ReferenceWells + the sum of Unused counts.
type Report struct {
	Format           string            `json:"format"`
	Inputs           []string          `json:"inputs"`
	WellsRead        int               `json:"wells_read"`
	CombinationWells int               `json:"combination_wells"`
	SingleAgentWells int               `json:"single_agent_wells"`
	ScoredWells      int               `json:"scored_wells"`    // combination wells with an expected growth and a score
	ReferenceWells   int               `json:"reference_wells"` // single-agent wells a scored well used
	Unused           []*drugcomb.Tally `json:"unused"`          // every other well, by reason
	Expected         Disagreement      `json:"expected_growth_disagreements"`
	Score            Disagreement      `json:"score_disagreements"`
	PlateBlocks      int               `json:"plate_blocks"`
	Blocks           int               `json:"ordered_pair_lines"` // rows of comboscore.csv
	Plates           int               `json:"plates"`
	PlatesReopened   int               `json:"plates_reopened"`
	CellLines        int               `json:"cell_lines"`
	Drugs            []*drugcomb.Tally `json:"drugs"` // notes on the NSC -> drug mapping (filled by BuildScreen)
}

// UnusedWells is the number of wells not used.
func (r *Report) UnusedWells() int { return drugcomb.TallyCount(r.Unused) }

// Result is what Import computes.
type Result struct {
	ComboScores []ComboScore // one per ordered pair and cell line, sorted by NSC1, NSC2, cell line
	Report      *Report
}

// singleKey identifies the single-agent wells of one drug at one
// concentration on a plate.
type singleKey struct {
	nsc   int32
	micro bool // unit u (µg/ml) rather than M
	conc  float64
}

type singleAcc struct {
	k    singleKey
	sum  float64
	n    int32
	used bool
}

// singleLine is the file line of a single-agent well and its accumulator.
type singleLine struct{ acc, line int32 }

type comboWell struct {
	nsc1, nsc2     int32
	micro1, micro2 bool
	c1, c2         float64
	pg, feg, fsc   float64
	line           int32
}

type plateState struct {
	key     string
	study   string
	plate   string
	cell    int32
	last    int64
	singles map[singleKey]int32 // index into acc
	acc     []singleAcc
	lines   []singleLine
	combos  []comboWell
}

type blockKey struct {
	nsc1, nsc2 int32
	cell       int32
}

type blockAcc struct {
	first   float64   // the first plate's sum
	more    []float64 // the sums of further plates
	plates  int32
	wells   int32
	fileSum float64 // sum over plates of the file's SCORE
	fileOK  bool
}

// engine holds the state of one Import.
type engine struct {
	opt      Options
	name     string
	rep      *Report
	cells    []string
	cellIdx  map[string]int32
	open     map[string]*plateState
	resolved map[string]bool
	tick     int64
	lastKey  []byte
	lastPl   *plateState
	blocks   map[blockKey]int32 // index into accs
	accs     []blockAcc
	keys     []blockKey
	pool     []*plateState
	keyBuf   []byte
	pb       PlateBlock
}

// Import reads a ComboDrugGrowth wells file (r, named name in errors) and
// computes, by NCI's rules (ALMANAC_DataFields.txt), each combination
// well's expected growth from the same plate's single-agent wells of its
// two drugs at its two concentrations (the mean where a plate has several):
// the smaller of the two growths when either is negative, else
// min(g1,100) * min(g2,100) / 100; its score, expected minus observed
// growth rounded half away from zero to an integer (Oracle's ROUND); and
// the ComboScore of each ordered pair and cell line, the sum of its well
// scores per plate, averaged over plates. Both are checked against the
// file's EXPECTEDGROWTH and SCORE. The file is streamed: memory holds the
// open plates (Options.PlateWindow) and one accumulator per ordered pair
// and cell line.
func Import(r io.Reader, name string, opt Options) (*Result, error) {
	if opt.PlateWindow == 0 {
		opt.PlateWindow = DefaultPlateWindow
	}
	if opt.Tolerance == 0 {
		opt.Tolerance = DefaultTolerance
	}
	e := &engine{
		opt: opt, name: name,
		rep:      &Report{Format: "almanac-wells", Inputs: []string{name}, Unused: []*drugcomb.Tally{}, Drugs: []*drugcomb.Tally{}},
		cellIdx:  map[string]int32{},
		open:     map[string]*plateState{},
		resolved: map[string]bool{},
		blocks:   map[blockKey]int32{},
	}
	e.rep.Expected.Examples = []drugcomb.Example{}
	e.rep.Score.Examples = []drugcomb.Example{}
	wr, err := newWellReader(r, name)
	if err != nil {
		return nil, err
	}
	err = wr.stream(func(w *Well) {
		e.add(w)
		if opt.Progress != nil && e.rep.WellsRead&0xffff == 0 {
			opt.Progress(e.rep.WellsRead)
		}
	})
	if err != nil {
		return nil, err
	}
	e.tick += int64(e.opt.PlateWindow) + 1
	e.sweep() // every open plate, in the order they were last seen
	return e.result(), nil
}

func (e *engine) where(line int) string { return e.name + ":" + strconv.Itoa(line) }

// add takes one well.
func (e *engine) add(w *Well) {
	rep := e.rep
	rep.WellsRead++
	if w.NSC2 == 0 {
		rep.SingleAgentWells++
	} else {
		rep.CombinationWells++
	}
	switch {
	case w.Valid == 'N' || w.Valid == 'n':
		drugcomb.AddTally(&rep.Unused, ReasonInvalid, e.where(w.Line), "VALID=N")
		return
	case !w.HasGrowth:
		drugcomb.AddTally(&rep.Unused, ReasonNoGrowth, e.where(w.Line), "")
		return
	}
	micro1, ok1 := unitMicro(w.Unit1)
	micro2, ok2 := unitMicro(w.Unit2)
	if !ok1 || (w.NSC2 != 0 && !ok2) {
		drugcomb.AddTally(&rep.Unused, ReasonUnit, e.where(w.Line), fmt.Sprintf("CONCUNIT1=%q CONCUNIT2=%q", w.Unit1, w.Unit2))
		return
	}
	p := e.plate(w)
	if w.NSC2 == 0 {
		k := singleKey{nsc: int32(w.NSC1), micro: micro1, conc: w.Conc1}
		i, ok := p.singles[k]
		if !ok {
			i = int32(len(p.acc))
			p.acc = append(p.acc, singleAcc{k: k})
			p.singles[k] = i
		}
		s := &p.acc[i]
		s.sum += w.Growth
		s.n++
		p.lines = append(p.lines, singleLine{i, int32(w.Line)})
		return
	}
	p.combos = append(p.combos, comboWell{
		nsc1: int32(w.NSC1), nsc2: int32(w.NSC2), micro1: micro1, micro2: micro2,
		c1: w.Conc1, c2: w.Conc2, pg: w.Growth, feg: w.FileEG, fsc: w.FileScore, line: int32(w.Line),
	})
}

// unitMicro reads a concentration unit: M (false) or u (true).
func unitMicro(u []byte) (micro, ok bool) {
	switch string(u) {
	case "M":
		return false, true
	case "u":
		return true, true
	}
	return false, false
}

// plate returns the open state of w's plate, opening it (and resolving
// plates that fell out of the window) when needed.
func (e *engine) plate(w *Well) *plateState {
	k := append(append(append(append(append(e.keyBuf[:0], w.Study...), 0), w.Plate...), 0), w.Cell...)
	e.keyBuf = k
	if e.lastPl != nil && string(k) == string(e.lastKey) {
		return e.lastPl
	}
	e.tick++
	p := e.open[string(k)]
	if p == nil {
		key := string(k)
		if e.resolved[key] {
			e.rep.PlatesReopened++
		}
		cell, ok := e.cellIdx[string(w.Cell)]
		if !ok {
			cell = int32(len(e.cells))
			e.cells = append(e.cells, string(w.Cell))
			e.cellIdx[e.cells[cell]] = cell
		}
		if n := len(e.pool); n > 0 {
			p = e.pool[n-1]
			e.pool = e.pool[:n-1]
		} else {
			p = &plateState{singles: map[singleKey]int32{}}
		}
		p.key, p.study, p.plate, p.cell, p.last = key, string(w.Study), string(w.Plate), cell, e.tick
		e.open[key] = p
		e.rep.Plates++
		if e.opt.PlateWindow > 0 && len(e.open) >= 2*e.opt.PlateWindow {
			e.sweep()
		}
	}
	p.last = e.tick
	e.lastKey = append(e.lastKey[:0], k...)
	e.lastPl = p
	return p
}

// sweep resolves the plates without a row in the last PlateWindow plate
// changes.
func (e *engine) sweep() {
	var old []*plateState
	for _, p := range e.open {
		if e.opt.PlateWindow < 0 || p.last <= e.tick-int64(e.opt.PlateWindow) {
			old = append(old, p)
		}
	}
	// in the order they were last seen, so results do not depend on map order
	slices.SortFunc(old, func(a, b *plateState) int { return int(a.last - b.last) })
	for _, p := range old {
		e.resolve(p)
	}
}

// expectedGrowth is NCI's rule (ALMANAC_DataFields.txt, CalcExpectedGrowth).
func expectedGrowth(g1, g2 float64) float64 {
	if g1 < 0 || g2 < 0 {
		return min(g1, g2)
	}
	return min(g1, 100) * min(g2, 100) / 100
}

// wellScore is NCI's IndivScore, expected minus observed growth, stored in
// a NUMBER(4): rounded half away from zero. The difference is first
// rounded to 1e-6, below the precision of the file's growths, so that
// binary floating point does not move an exact half (12.58 - 13.08).
func wellScore(expected, growth float64) float64 {
	d := math.Round((expected-growth)*1e6) / 1e6
	return math.Round(d)
}

// resolve scores the combination wells of plate p, releases it and adds
// its plate-blocks to the ComboScores.
func (e *engine) resolve(p *plateState) {
	rep := e.rep
	delete(e.open, p.key)
	e.resolved[p.key] = true
	if e.lastPl == p {
		e.lastPl = nil
	}
	slices.SortStableFunc(p.combos, func(a, b comboWell) int {
		if a.nsc1 != b.nsc1 {
			return int(a.nsc1 - b.nsc1)
		}
		return int(a.nsc2 - b.nsc2)
	})
	for i := 0; i < len(p.combos); {
		j := i
		for j < len(p.combos) && p.combos[j].nsc1 == p.combos[i].nsc1 && p.combos[j].nsc2 == p.combos[i].nsc2 {
			j++
		}
		e.block(p, p.combos[i:j])
		i = j
	}
	for _, l := range p.lines { // in file order
		s := &p.acc[l.acc]
		if s.used {
			rep.ReferenceWells++
			continue
		}
		drugcomb.AddTally(&rep.Unused, ReasonSingleOnly, e.where(int(l.line)), fmt.Sprintf("NSC %d at %g alone on plate %s", s.k.nsc, s.k.conc, p.plate))
	}
	clear(p.singles)
	p.acc, p.lines, p.combos = p.acc[:0], p.lines[:0], p.combos[:0]
	e.pool = append(e.pool, p)
}

// block scores the wells of one ordered pair on plate p.
func (e *engine) block(p *plateState, ws []comboWell) {
	rep := e.rep
	pb := &e.pb
	pb.NSC1, pb.NSC2, pb.Cell, pb.Study, pb.Plate = int(ws[0].nsc1), int(ws[0].nsc2), e.cells[p.cell], p.study, p.plate
	pb.Wells = pb.Wells[:0]
	sum, fileSum, fileOK := 0.0, 0.0, true
	for _, w := range ws {
		i1, ok1 := p.singles[singleKey{w.nsc1, w.micro1, w.c1}]
		i2, ok2 := p.singles[singleKey{w.nsc2, w.micro2, w.c2}]
		if !ok1 || !ok2 {
			miss := []string{}
			if !ok1 {
				miss = append(miss, fmt.Sprintf("NSC %d at %g", w.nsc1, w.c1))
			}
			if !ok2 {
				miss = append(miss, fmt.Sprintf("NSC %d at %g", w.nsc2, w.c2))
			}
			drugcomb.AddTally(&rep.Unused, ReasonMissingPartner, e.where(int(w.line)), fmt.Sprintf("no single-agent well of %v on plate %s", miss, p.plate))
			continue
		}
		s1, s2 := &p.acc[i1], &p.acc[i2]
		s1.used, s2.used = true, true
		g1, g2 := s1.sum/float64(s1.n), s2.sum/float64(s2.n)
		eg := expectedGrowth(g1, g2)
		sc := wellScore(eg, w.pg)
		rep.ScoredWells++
		if !math.IsNaN(w.feg) {
			rep.Expected.Checked++
			if d := math.Abs(eg - w.feg); d > e.opt.Tolerance {
				rep.Expected.add(e.where(int(w.line)), fmt.Sprintf("recomputed %.4f, file %g", eg, w.feg), d)
			}
		}
		if math.IsNaN(w.fsc) {
			fileOK = false
		} else {
			rep.Score.Checked++
			fileSum += w.fsc
			if d := math.Abs(sc - w.fsc); d > 0 {
				rep.Score.add(e.where(int(w.line)), fmt.Sprintf("recomputed %g, file %g", sc, w.fsc), d)
			}
		}
		sum += sc
		pb.Wells = append(pb.Wells, BlockWell{Line: int(w.line), Conc1: w.c1, Conc2: w.c2, Growth: w.pg, Growth1: g1, Growth2: g2, Expected: eg, Score: sc})
	}
	if len(pb.Wells) == 0 {
		return
	}
	rep.PlateBlocks++
	k := blockKey{ws[0].nsc1, ws[0].nsc2, p.cell}
	bi, ok := e.blocks[k]
	if !ok {
		bi = int32(len(e.accs))
		e.accs = append(e.accs, blockAcc{fileOK: true})
		e.keys = append(e.keys, k)
		e.blocks[k] = bi
	}
	b := &e.accs[bi]
	if b.plates == 0 {
		b.first = sum
	} else {
		b.more = append(b.more, sum)
	}
	b.plates++
	b.wells += int32(len(pb.Wells))
	b.fileSum += fileSum
	b.fileOK = b.fileOK && fileOK
	if e.opt.Block != nil {
		e.opt.Block(pb)
	}
}

func (e *engine) result() *Result {
	res := &Result{Report: e.rep}
	res.ComboScores = make([]ComboScore, 0, len(e.accs))
	for i := range e.accs {
		k, b := e.keys[i], &e.accs[i]
		sums := append([]float64{b.first}, b.more...)
		c := ComboScore{NSC1: int(k.nsc1), NSC2: int(k.nsc2), Cell: e.cells[k.cell], Sums: sums, Plates: len(sums), Wells: int(b.wells), FileScore: nan}
		t := 0.0
		for _, s := range sums {
			t += s
		}
		c.Score = t / float64(len(sums))
		if b.fileOK {
			c.FileScore = b.fileSum / float64(len(sums))
		}
		res.ComboScores = append(res.ComboScores, c)
	}
	slices.SortFunc(res.ComboScores, func(a, b ComboScore) int {
		if a.NSC1 != b.NSC1 {
			return a.NSC1 - b.NSC1
		}
		if a.NSC2 != b.NSC2 {
			return a.NSC2 - b.NSC2
		}
		switch {
		case a.Cell < b.Cell:
			return -1
		case a.Cell > b.Cell:
			return 1
		}
		return 0
	})
	e.rep.Blocks = len(res.ComboScores)
	e.rep.CellLines = len(e.cells)
	slices.SortStableFunc(e.rep.Unused, func(a, b *drugcomb.Tally) int { return b.Count - a.Count })
	return res
}
