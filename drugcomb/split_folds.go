package drugcomb

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/deup-screening/deup/internal/streams"
)

// What a split holds out, or what an out-of-sample part is drawn by: the
// unit of a split (deup bench --split-by, --oos-by).
const (
	ByPairs        = "pairs"        // (pair, cell line) rows at random
	ByCombinations = "combinations" // unordered drug pairs, each with every cell line it was measured on
	ByDrugs        = "drugs"        // drugs: every pair with a held-out drug
	ByCellLines    = "cell-lines"   // whole cell lines
)

// Combinations returns each pair's combination: the number of its
// unordered drug pair (A, B), counted in order of first appearance in
// s.Pairs, and the number of combinations. On a one-line screen every
// pair is its own combination.
func Combinations(s *Screen) (comb []int, n int) {
	id := map[[2]int]int{}
	comb = make([]int, len(s.Pairs))
	for i, p := range s.Pairs {
		k := [2]int{min(p.A, p.B), max(p.A, p.B)}
		c, ok := id[k]
		if !ok {
			c = len(id)
			id[k] = c
		}
		comb[i] = c
	}
	return comb, len(id)
}

// SplitByCombination holds out whole combinations: combinations are
// taken in a seeded random order and held out, with every cell line they
// were measured on, until their pairs reach testFrac of all pairs; those
// pairs are the test set. Of the others a share valFrac of all pairs,
// drawn at random, is the validation set (as SplitByDrug's), the rest
// the training set. It panics on a fraction outside [0, 1) or on
// testFrac+valFrac > 1, as SplitByDrug.
func SplitByCombination(s *Screen, testFrac, valFrac float64, seed uint64) Split {
	for _, f := range []float64{testFrac, valFrac} {
		if !(f >= 0 && f < 1) {
			panic("drugcomb: SplitByCombination: fraction outside [0, 1)")
		}
	}
	if testFrac+valFrac > 1 {
		panic(fmt.Sprintf("drugcomb: SplitByCombination: test + validation fractions %g > 1", testFrac+valFrac))
	}
	rng := newRand(seed)
	comb, nc := Combinations(s)
	members := groupMembers(comb, nc)
	n := len(s.Pairs)
	target := int(math.Round(testFrac * float64(n)))
	inTest := make([]bool, n)
	nTest := 0
	for _, c := range rng.Perm(nc) {
		if nTest >= target {
			break
		}
		for _, i := range members[c] {
			inTest[i] = true
			nTest++
		}
	}
	return splitHeldOut(inTest, valFrac, rng)
}

// groupMembers lists the pairs of each of n groups (group[i] is pair i's),
// each list ascending.
func groupMembers(group []int, n int) [][]int {
	m := make([][]int, n)
	for i, g := range group {
		m[g] = append(m[g], i)
	}
	return m
}

// FoldsError says why K-fold cross-validation cannot be done: K below 2,
// or more folds than the split has units.
type FoldsError struct {
	K, Units int
	By       string
}

func (e *FoldsError) Error() string {
	if e.K < 2 {
		return fmt.Sprintf("%d folds: K-fold cross-validation needs K ≥ 2", e.K)
	}
	return fmt.Sprintf("%d folds of %d %s: K must be at most the number of units, so that every fold tests one", e.K, e.Units, e.By)
}

// SplitFolds is K-fold cross-validation over the units of by (ByPairs,
// ByCombinations, ByDrugs or ByCellLines): a seeded permutation of the
// units deals them into k folds (unit at position q of the permutation
// into fold q mod k), so every unit is tested exactly once. Fold f's
// split has as test set the pairs of the units of fold f: for ByDrugs the
// pairs with a drug of fold f (a pair whose two drugs are in different
// folds is tested in both). The other pairs (for ByDrugs, those with
// neither drug in fold f) are split at random into validation (a share
// valFrac of them) and training. Every set is sorted. A k below 2, above
// the number of units, a by not listed, or ByCellLines on a screen with
// one cell line with pairs, is an error (a *FoldsError for k).
func SplitFolds(s *Screen, by string, k int, valFrac float64, seed uint64) ([]Split, error) {
	if !(valFrac > 0 && valFrac < 1) {
		return nil, fmt.Errorf("drugcomb: folds: validation fraction %v, want in (0, 1)", valFrac)
	}
	if k < 2 {
		return nil, &FoldsError{K: k, By: by}
	}
	var unit []int // pair → unit (ByDrugs: unused)
	var units int
	switch by {
	case ByPairs:
		unit = make([]int, len(s.Pairs))
		for i := range unit {
			unit[i] = i
		}
		units = len(unit)
	case ByCombinations:
		unit, units = Combinations(s)
	case ByCellLines:
		unit = make([]int, len(s.Pairs))
		used := map[int]bool{}
		for i, p := range s.Pairs {
			unit[i] = p.CellLine
			used[p.CellLine] = true
		}
		if len(used) < 2 {
			return nil, fmt.Errorf("drugcomb: folds by cell line: the screen has %d cell line(s) with pairs, need at least 2 (%v)", len(used), s.CellLines)
		}
		units = len(s.CellLines)
	case ByDrugs:
		units = len(s.Drugs)
	default:
		return nil, fmt.Errorf("drugcomb: folds by %q: want %s, %s, %s or %s", by, ByPairs, ByCombinations, ByDrugs, ByCellLines)
	}
	// Units without a pair (a drug or line of the table never measured)
	// are not dealt: they have nothing to test.
	has := make([]bool, units)
	if by == ByDrugs {
		for _, p := range s.Pairs {
			has[p.A], has[p.B] = true, true
		}
	} else {
		for _, u := range unit {
			has[u] = true
		}
	}
	var live []int
	for u, h := range has {
		if h {
			live = append(live, u)
		}
	}
	if k > len(live) {
		return nil, &FoldsError{K: k, Units: len(live), By: by}
	}
	rng := newRand(seed)
	fold := make([]int, units)
	for q, j := range rng.Perm(len(live)) {
		fold[live[j]] = q % k
	}
	splits := make([]Split, k)
	for f := range k {
		inTest := make([]bool, len(s.Pairs))
		nTest := 0
		for i, p := range s.Pairs {
			if by == ByDrugs {
				inTest[i] = fold[p.A] == f || fold[p.B] == f
			} else {
				inTest[i] = fold[unit[i]] == f
			}
			if inTest[i] {
				nTest++
			}
		}
		// splitHeldOut takes the validation share of all pairs: of the
		// non-test ones, valFrac.
		splits[f] = splitHeldOut(inTest, valFrac*float64(len(s.Pairs)-nTest)/float64(max(len(s.Pairs), 1)), rng)
	}
	return splits, nil
}

// DefaultOOS is the default draw of the out-of-sample part (deup train
// and bench --oos-by), on one line and on a panel. The draw by combination (each drug pair leaves with all
// its lines, the question a panel model is asked about a pair never
// measured) was the panel default first; on NCI-ALMANAC's 43 lines under
// the leave-combination-out protocol (5 folds, DEUP) it cost μ 0.13 in
// Pearson r (0.32 against 0.45) and left σ's corr and ±1σ coverage level
// (0.37 against 0.38, 72.5 % against 70.0 %; docs/protocol.md), so it is
// asked for with --oos-by combinations.
const DefaultOOS = ByPairs

// CheckOOS returns an error unless by is ByPairs, ByCombinations or ByDrugs.
func CheckOOS(by string) error {
	switch by {
	case ByPairs, ByCombinations, ByDrugs:
		return nil
	}
	return fmt.Errorf("%q: want %s, %s or %s", by, ByPairs, ByCombinations, ByDrugs)
}

// DrawOOS redraws the validation (out-of-sample) part of sp by by: with
// ByPairs it returns sp as it is (its parts drawn as (pair, line) rows);
// with ByCombinations, whole combinations of the pairs in sp.Train and
// sp.Val, taken in a seeded random order until they hold at least
// len(sp.Val) pairs, become the validation part (every line of a
// validation combination outside training, as far as sp leaves it there:
// the test part is not touched); with ByDrugs, drugs taken in a seeded
// random order until the pairs of sp.Train and sp.Val with one of them
// hold at least len(sp.Val) pairs: those pairs are the validation part,
// so every validation pair has a drug no training pair has. The rest of
// sp.Train and sp.Val is the training part. Test and HeldOutDrugs are
// kept. A draw that would leave fewer than 3 training pairs is an error.
func DrawOOS(s *Screen, sp Split, by string, seed uint64) (Split, error) {
	if err := CheckOOS(by); err != nil {
		return Split{}, fmt.Errorf("drugcomb: out-of-sample draw %w", err)
	}
	if by == ByPairs {
		return sp, nil
	}
	pool := append(slices.Clone(sp.Train), sp.Val...)
	slices.Sort(pool)
	target := len(sp.Val)
	rng := rand.New(rand.NewPCG(seed, streams.OOSDraw))
	inVal := make(map[int]bool, target)
	switch by {
	case ByCombinations:
		comb, _ := Combinations(s)
		byComb := map[int][]int{}
		var combs []int
		for _, i := range pool {
			c := comb[i]
			if byComb[c] == nil {
				combs = append(combs, c)
			}
			byComb[c] = append(byComb[c], i)
		}
		slices.Sort(combs)
		rng.Shuffle(len(combs), func(i, j int) { combs[i], combs[j] = combs[j], combs[i] })
		for _, c := range combs {
			if len(inVal) >= target {
				break
			}
			for _, i := range byComb[c] {
				inVal[i] = true
			}
		}
	case ByDrugs:
		byDrug := map[int][]int{}
		var drugs []int
		for _, i := range pool {
			p := s.Pairs[i]
			for _, d := range []int{p.A, p.B} {
				if byDrug[d] == nil {
					drugs = append(drugs, d)
				}
				byDrug[d] = append(byDrug[d], i)
			}
		}
		slices.Sort(drugs)
		rng.Shuffle(len(drugs), func(i, j int) { drugs[i], drugs[j] = drugs[j], drugs[i] })
		for _, d := range drugs {
			if len(inVal) >= target {
				break
			}
			for _, i := range byDrug[d] {
				inVal[i] = true
			}
		}
	}
	out := Split{Test: sp.Test, HeldOutDrugs: sp.HeldOutDrugs, Val: []int{}, Train: []int{}}
	for _, i := range pool {
		if inVal[i] {
			out.Val = append(out.Val, i)
		} else {
			out.Train = append(out.Train, i)
		}
	}
	if len(out.Train) < 3 {
		return Split{}, fmt.Errorf("drugcomb: out-of-sample draw by %s: %d pairs in validation leave %d to train on", by, len(out.Val), len(out.Train))
	}
	return out, nil
}
