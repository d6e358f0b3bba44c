package active

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/deup-screening/deup/drugcomb"

	"github.com/deup-screening/deup/internal/streams"
)

// ScreenTable returns the measured pairs of a screen as a table: score
// column score, restricted to cell line cellLine ("" means all cell lines).
// Pairs whose score is NaN (not measured for that column) are left out and
// counted in skipped.
func ScreenTable(s *drugcomb.Screen, score int, cellLine string) (t TableOracle, skipped int, err error) {
	var names []string
	if cellLine != "" {
		names = []string{cellLine}
	}
	return ScreenTableLines(s, score, names)
}

// CellLineIndices returns the positions in s.CellLines of the named lines
// (drugcomb.IndexName's rule: exact, else ignoring case), in the order
// given; nil names means every line.
func CellLineIndices(s *drugcomb.Screen, names []string) ([]int, error) {
	if names == nil {
		out := make([]int, len(s.CellLines))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, n := range names {
		cl := drugcomb.IndexName(s.CellLines, n)
		if cl < 0 {
			return nil, fmt.Errorf("active: screen %s has no cell line %q (has %s)", s.Name, n, strings.Join(s.CellLines, ", "))
		}
		if !slices.Contains(out, cl) {
			out = append(out, cl)
		}
	}
	return out, nil
}

// ScreenTableLines is ScreenTable on the named cell lines (nil: every
// line): the oracle of a campaign across the lines of a panel. The pairs
// keep their line's position in s.CellLines.
func ScreenTableLines(s *drugcomb.Screen, score int, cellLines []string) (t TableOracle, skipped int, err error) {
	if score < 0 || score >= len(s.ScoreNames) {
		return nil, 0, fmt.Errorf("active: screen %s has no score column %d", s.Name, score)
	}
	idx, err := CellLineIndices(s, cellLines)
	if err != nil {
		return nil, 0, err
	}
	keep := make([]bool, len(s.CellLines))
	for _, i := range idx {
		keep[i] = true
	}
	t = TableOracle{}
	for i, p := range s.Pairs {
		if p.CellLine >= 0 && p.CellLine < len(keep) && !keep[p.CellLine] {
			continue
		}
		if p.A == p.B || p.A < 0 || p.B < 0 || p.A >= len(s.Drugs) || p.B >= len(s.Drugs) || p.CellLine < 0 || p.CellLine >= len(s.CellLines) {
			return nil, 0, fmt.Errorf("active: screen %s: pair %d references drugs %d,%d cell line %d out of range", s.Name, i, p.A, p.B, p.CellLine)
		}
		y := p.Mean[score]
		if math.IsNaN(y) {
			skipped++
			continue
		}
		k := NewPairOnLine(p.A, p.B, p.CellLine)
		if _, dup := t[k]; dup {
			return nil, 0, fmt.Errorf("active: screen %s: pair %d (%s + %s) appears twice", s.Name, i, s.Drugs[p.A].Name, s.Drugs[p.B].Name)
		}
		t[k] = y
	}
	if len(t) == 0 {
		return nil, skipped, fmt.Errorf("active: screen %s has no measured pairs for %q", s.Name, strings.Join(cellLines, ","))
	}
	return t, skipped, nil
}

// SplitInitial draws n pairs of the table (seeded) as the initial measured
// set of a retrospective campaign; the rest are its candidates. Both keep
// the table's sorted order.
func SplitInitial(t TableOracle, n int, seed uint64) (initial []Measurement, candidates []PairOnLine, err error) {
	all := t.SortedPairs()
	if n < 2 || n >= len(all) {
		return nil, nil, fmt.Errorf("active: initial set of %d pairs out of %d: want 2 <= n < %d", n, len(all), len(all))
	}
	rng := rand.New(rand.NewPCG(seed, streams.InitialPairs))
	chosen := map[int]bool{}
	for _, i := range rng.Perm(len(all))[:n] {
		chosen[i] = true
	}
	for i, p := range all {
		if chosen[i] {
			initial = append(initial, Measurement{p, t[p]})
		} else {
			candidates = append(candidates, p)
		}
	}
	return initial, candidates, nil
}

// AllUnmeasured lists every unordered pair of distinct drugs on each of
// cellLines that the table has not measured: the candidates of a live
// campaign over a screen's drugs.
func AllUnmeasured(t TableOracle, nDrugs int, cellLines []int) []PairOnLine {
	var out []PairOnLine
	for _, c := range cellLines {
		for a := 0; a < nDrugs; a++ {
			for b := a + 1; b < nDrugs; b++ {
				p := PairOnLine{a, b, c}
				if _, ok := t[p]; !ok {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// TopFraction returns the pairs of t whose score is at or above the
// (1-frac) quantile: the ceil(frac*n) best pairs (at least 1), ties at the
// threshold included. RECOVER's metric is the share of these found.
func TopFraction(t TableOracle, frac float64) map[PairOnLine]bool {
	ys := make([]float64, 0, len(t))
	for _, y := range t {
		ys = append(ys, y)
	}
	sortDesc(ys)
	k := int(math.Ceil(frac * float64(len(ys))))
	if k < 1 {
		k = 1
	}
	thr := ys[k-1]
	top := map[PairOnLine]bool{}
	for p, y := range t {
		if y >= thr {
			top[p] = true
		}
	}
	return top
}

func sortDesc(x []float64) { sort.Sort(sort.Reverse(sort.Float64Slice(x))) }
