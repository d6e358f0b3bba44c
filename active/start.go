package active

import (
	"errors"
	"fmt"
	"math"

	"github.com/deup-screening/deup/drugcomb"
)

// DefaultInit is the initial set of a retrospective campaign or simulation
// given none: 10 % of the measured pairs, rounded.
func DefaultInit(measured int) int { return int(math.Round(0.1 * float64(measured))) }

// DefaultRetrospectiveRounds is the rounds of a retrospective campaign
// given none (a live one runs until stopped).
const DefaultRetrospectiveRounds = 10

// Start returns the initial measurements and the candidates of a campaign
// with cfg over table, the screen's measured pairs on cellLines (one line,
// or the lines of a campaign across a panel) of a screen with nDrugs drugs:
//   - retrospective: init pairs of table (DefaultInit when 0) drawn with
//     cfg.Seed (SplitInitial); the others are the candidates;
//   - live: every pair of table, in sorted order; the candidates are cands
//     when not nil, else every unmeasured pair (AllUnmeasured).
func Start(cfg Config, table TableOracle, init, nDrugs int, cellLines []int, cands []PairOnLine) ([]Measurement, []PairOnLine, error) {
	switch cfg.Mode {
	case Retrospective:
		if cands != nil {
			return nil, nil, fmt.Errorf("active: candidates are for live campaigns (a retrospective campaign's candidates are the screen's pairs)")
		}
		if init == 0 {
			init = DefaultInit(len(table))
		}
		return SplitInitial(table, init, cfg.Seed)
	case Live:
		if init != 0 {
			return nil, nil, fmt.Errorf("active: an initial set is for retrospective campaigns (a live campaign starts from every measured pair)")
		}
		var initial []Measurement
		for _, p := range table.SortedPairs() {
			initial = append(initial, Measurement{Pair: p, Y: table[p]})
		}
		if cands == nil {
			cands = AllUnmeasured(table, nDrugs, cellLines)
		}
		return initial, cands, nil
	}
	return nil, nil, fmt.Errorf("active: mode %q: want %s or %s", cfg.Mode, Live, Retrospective)
}

// CandidatePairs returns the pairs of the candidate rows rs (ParseCandidates
// of the file name), whose CellLine indexes cellLines (the campaign's lines
// the file was parsed against), on those lines. A pair listed twice or already
// measured in table is refused; every such problem is named by file:line,
// all of them joined in the error.
func CandidatePairs(rs []Result, name string, cellLines []int, measured TableOracle) ([]PairOnLine, error) {
	seen := map[PairOnLine]int{}
	var out []PairOnLine
	var errs []error
	for _, r := range rs {
		p := r.Pair
		p.CellLine = cellLines[p.CellLine]
		if l, dup := seen[p]; dup {
			errs = append(errs, fmt.Errorf("%s:%d: pair listed twice (first on line %d)", name, r.Line, l))
			continue
		}
		if _, ok := measured[p]; ok {
			errs = append(errs, fmt.Errorf("%s:%d: pair already measured in the screen", name, r.Line))
			continue
		}
		seen[p] = r.Line
		out = append(out, p)
	}
	return out, errors.Join(errs...)
}

// ErrScreenChanged is the error of OracleFor on a screen whose drugs are
// not those the campaign started with.
var ErrScreenChanged = errors.New("the screen changed since the campaign started")

// OracleFor returns the oracle of a retrospective campaign with cfg: the
// measured pairs of sc (every cell line) on cfg's score. sc must hold the
// campaign's drugs, in order (ErrScreenChanged otherwise).
func OracleFor(cfg Config, sc *drugcomb.Screen) (TableOracle, error) {
	if err := CheckScreen(cfg, sc, false, false); err != nil {
		return nil, err
	}
	si, err := sc.ScoreColumn(cfg.Score)
	if err != nil {
		return nil, err
	}
	t, _, err := ScreenTable(sc, si, "")
	return t, err
}

// CheckScreen returns nil when sc holds the drugs of the campaign with
// cfg, in order (followed by more drugs when extra: deup tui --drugs
// appends), and, with lines, its cell lines; otherwise an ErrScreenChanged
// that says the first difference.
func CheckScreen(cfg Config, sc *drugcomb.Screen, extra, lines bool) error {
	if n, want := len(sc.Drugs), len(cfg.Drugs); n < want || n > want && !extra {
		return fmt.Errorf("%w: the campaign runs on %d drugs, the screen %s has %d", ErrScreenChanged, want, sc.Name, n)
	}
	for i, d := range cfg.Drugs {
		if sc.Drugs[i].ID != d.ID {
			return fmt.Errorf("%w: the campaign's drug %d is %s, the screen's is %s", ErrScreenChanged, i, d.ID, sc.Drugs[i].ID)
		}
	}
	if !lines {
		return nil
	}
	if len(sc.CellLines) != len(cfg.CellLines) {
		return fmt.Errorf("%w: the campaign has %d cell lines, the screen %d", ErrScreenChanged, len(cfg.CellLines), len(sc.CellLines))
	}
	for i, cl := range cfg.CellLines {
		if sc.CellLines[i] != cl {
			return fmt.Errorf("%w: the campaign's cell line %d is %s, the screen's is %s", ErrScreenChanged, i, cl, sc.CellLines[i])
		}
	}
	return nil
}

// BestOf returns the highest score of ms, -Inf for none.
func BestOf(ms []Measurement) float64 {
	b := math.Inf(-1)
	for _, m := range ms {
		b = math.Max(b, m.Y)
	}
	return b
}

// Summary returns the highest predicted mu of the round's suggestions and
// the highest score measured in it so far (-Inf for none).
func (r *Round) Summary() (bestMu, bestMeasured float64) {
	bestMu, bestMeasured = math.Inf(-1), math.Inf(-1)
	for _, s := range r.Suggestions {
		bestMu = math.Max(bestMu, s.Mu)
	}
	for _, y := range r.Measured {
		bestMeasured = math.Max(bestMeasured, y)
	}
	return bestMu, bestMeasured
}
