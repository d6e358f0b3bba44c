package drugcomb

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// Butina clusters n items by the algorithm of Butina (J. Chem. Inf. Comput.
// Sci. 1999, 39, 747), as RDKit's rdkit.ML.Cluster.Butina.ClusterData with
// isDistData and reordering off: two items are neighbours when their
// distance 1 − sim(i, j) is at most cutoff; items are taken in decreasing
// order of their number of neighbours (ties: the higher index first, as
// RDKit's reverse sort of (count, index)); each item not yet clustered
// becomes a centroid, and its unclustered neighbours join it. It returns
// the cluster of each item, clusters numbered 0, 1, ... in the order they
// were formed (the largest first). sim must be symmetric with values in
// [0, 1]; an item is always its own neighbour.
func Butina(n int, sim func(i, j int) float64, cutoff float64) []int {
	nbrs := make([][]int, n)
	for i := 0; i < n; i++ {
		nbrs[i] = append(nbrs[i], i)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if 1-sim(i, j) <= cutoff {
				nbrs[i] = append(nbrs[i], j)
				nbrs[j] = append(nbrs[j], i)
			}
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ia, ib := order[a], order[b]
		if len(nbrs[ia]) != len(nbrs[ib]) {
			return len(nbrs[ia]) > len(nbrs[ib])
		}
		return ia > ib
	})
	cluster := make([]int, n)
	for i := range cluster {
		cluster[i] = -1
	}
	next := 0
	for _, c := range order {
		if cluster[c] >= 0 {
			continue
		}
		for _, j := range nbrs[c] {
			if cluster[j] < 0 {
				cluster[j] = next
			}
		}
		next++
	}
	return cluster
}

// GroupSplit is a split for out-of-distribution tests: drugs are held out
// whole, and the pairs fall into training pairs and three test sets.
type GroupSplit struct {
	HeldOutDrugs []int // indices into Screen.Drugs, sorted
	Train        []int // pairs of two kept drugs, for training
	TestIn       []int // pairs of two kept drugs held out of training (in distribution)
	TestOne      []int // pairs with exactly one held-out drug
	TestTwo      []int // pairs whose two drugs are held out
}

// SplitByDrugGroups holds out whole groups of drugs (for example clusters
// of similar structures, from Butina): groups are taken in a seeded random
// order and held out until at least round(drugFrac × the number of drugs
// that have a pair) drugs are; a group that would overshoot that target by
// more than half of it is skipped. groups[d] is drug d's group. Pairs of
// two kept drugs are split at random into TestIn (round(inTestFrac × their
// number)) and Train; pairs with a held-out drug go to TestOne or TestTwo.
// Every set is sorted. It returns an error if drugFrac or inTestFrac is
// not in (0, 1), len(groups) != len(s.Drugs), or no drug can be held out.
func SplitByDrugGroups(s *Screen, groups []int, drugFrac, inTestFrac float64, seed uint64) (GroupSplit, error) {
	var sp GroupSplit
	if !(drugFrac > 0 && drugFrac < 1) || !(inTestFrac > 0 && inTestFrac < 1) {
		return sp, fmt.Errorf("drugcomb: split by drug groups: fractions %v and %v, want each in (0, 1)", drugFrac, inTestFrac)
	}
	if len(groups) != len(s.Drugs) {
		return sp, fmt.Errorf("drugcomb: split by drug groups: %d groups for %d drugs", len(groups), len(s.Drugs))
	}
	used := make([]bool, len(s.Drugs))
	for _, p := range s.Pairs {
		used[p.A], used[p.B] = true, true
	}
	members := map[int][]int{}
	nUsed := 0
	for d, g := range groups {
		if used[d] {
			members[g] = append(members[g], d)
			nUsed++
		}
	}
	ids := make([]int, 0, len(members))
	for g := range members {
		ids = append(ids, g)
	}
	slices.Sort(ids)
	rng := newRand(seed)
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	target := int(math.Round(drugFrac * float64(nUsed)))
	if target < 1 {
		target = 1
	}
	held := make([]bool, len(s.Drugs))
	n := 0
	for _, g := range ids {
		if n >= target {
			break
		}
		if m := len(members[g]); n+m > target+target/2 && n > 0 {
			continue
		}
		for _, d := range members[g] {
			held[d] = true
			sp.HeldOutDrugs = append(sp.HeldOutDrugs, d)
		}
		n += len(members[g])
	}
	if n == 0 || n >= nUsed {
		return sp, fmt.Errorf("drugcomb: split by drug groups: %d of %d drugs held out, want some but not all", n, nUsed)
	}
	slices.Sort(sp.HeldOutDrugs)
	var in []int
	for i, p := range s.Pairs {
		switch {
		case held[p.A] && held[p.B]:
			sp.TestTwo = append(sp.TestTwo, i)
		case held[p.A] || held[p.B]:
			sp.TestOne = append(sp.TestOne, i)
		default:
			in = append(in, i)
		}
	}
	rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
	k := int(math.Round(inTestFrac * float64(len(in))))
	sp.TestIn, sp.Train = sorted(in[:k]), sorted(in[k:])
	return sp, nil
}

// SplitByCellLine holds out whole cell lines: cell lines are taken in a
// seeded random order and held out until their pairs reach testFrac of all
// pairs; those pairs are the test set. The remaining pairs are split at
// random into validation (valFrac of all pairs, or all that remain if
// fewer) and training. It returns an error when the screen has fewer than
// two cell lines with pairs, or when every cell line would be held out.
func SplitByCellLine(s *Screen, testFrac, valFrac float64, seed uint64) (Split, error) {
	for _, f := range []float64{testFrac, valFrac} {
		if !(f >= 0 && f < 1) {
			return Split{}, fmt.Errorf("drugcomb: split by cell line: fraction %v, want in [0, 1)", f)
		}
	}
	byLine := make([][]int, len(s.CellLines))
	for i, p := range s.Pairs {
		if p.CellLine < 0 || p.CellLine >= len(byLine) {
			return Split{}, fmt.Errorf("drugcomb: split by cell line: pair %d has cell line %d of %d", i, p.CellLine, len(byLine))
		}
		byLine[p.CellLine] = append(byLine[p.CellLine], i)
	}
	var lines []int
	for c, ps := range byLine {
		if len(ps) > 0 {
			lines = append(lines, c)
		}
	}
	if len(lines) < 2 {
		return Split{}, fmt.Errorf("drugcomb: split by cell line: the screen has %d cell line(s) with pairs, need at least 2 (%v)", len(lines), s.CellLines)
	}
	rng := newRand(seed)
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	n := len(s.Pairs)
	target := int(math.Round(testFrac * float64(n)))
	inTest := make([]bool, n)
	nTest, held := 0, 0
	for _, c := range lines {
		if nTest >= target && held > 0 {
			break
		}
		held++
		for _, i := range byLine[c] {
			inTest[i] = true
			nTest++
		}
	}
	if held == len(lines) {
		return Split{}, fmt.Errorf("drugcomb: split by cell line: a test fraction of %v holds out all %d cell lines", testFrac, len(lines))
	}
	return splitHeldOut(inTest, valFrac, rng), nil
}

// NewLineShots is the few-shot case of a split by cell line: for every
// cell line of s whose pairs are all in sp.Test (a held-out line), k of
// its test pairs, drawn with the seed, move into training (all of them
// when the line has k or fewer); with drop they leave the test set and
// go nowhere, so that the split without shots (k = 0) can be scored on
// exactly the test pairs of the split with them. Other lines are
// untouched; sp is not modified.
func NewLineShots(s *Screen, sp Split, k int, seed uint64, drop bool) Split {
	if k <= 0 {
		return sp
	}
	inFit := make([]bool, len(s.CellLines))
	for _, part := range [][]int{sp.Train, sp.Val} {
		for _, i := range part {
			inFit[s.Pairs[i].CellLine] = true
		}
	}
	byLine := map[int][]int{}
	var lines []int
	for _, i := range sp.Test {
		c := s.Pairs[i].CellLine
		if inFit[c] {
			continue
		}
		if byLine[c] == nil {
			lines = append(lines, c)
		}
		byLine[c] = append(byLine[c], i)
	}
	sort.Ints(lines)
	rng := newRand(seed ^ 0x73686f7473) // "shots"
	shot := map[int]bool{}
	for _, c := range lines {
		ps := append([]int(nil), byLine[c]...)
		rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		for _, i := range ps[:min(k, len(ps))] {
			shot[i] = true
		}
	}
	out := Split{Val: sp.Val, Test: []int{}, HeldOutDrugs: sp.HeldOutDrugs}
	out.Train = append(out.Train, sp.Train...)
	for _, i := range sp.Test {
		switch {
		case !shot[i]:
			out.Test = append(out.Test, i)
		case !drop:
			out.Train = append(out.Train, i)
		}
	}
	out.Train = sorted(out.Train)
	return out
}
