package drugcomb

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// panelScreen has every pair of n drugs on each of lines cell lines,
// except that line l skips the pairs (a, b) with a+b+l divisible by 5
// (so combinations differ in their number of lines).
func panelScreen(n, lines int) *Screen {
	s := &Screen{ScoreNames: []string{"s"}}
	for i := range n {
		s.Drugs = append(s.Drugs, Drug{ID: fmt.Sprint(i)})
	}
	for l := range lines {
		s.CellLines = append(s.CellLines, fmt.Sprint("line", l))
		for a := range n {
			for b := a + 1; b < n; b++ {
				if (a+b+l)%5 == 0 && lines > 1 {
					continue
				}
				s.Pairs = append(s.Pairs, Pair{A: a, B: b, CellLine: l, N: 1, Mean: []float64{0}, Var: []float64{0}})
			}
		}
	}
	return s
}

// unitOf returns pair i's unit under by (ByDrugs: none, -1).
func unitOf(s *Screen, by string, i int) int {
	comb, _ := Combinations(s)
	switch by {
	case ByPairs:
		return i
	case ByCombinations:
		return comb[i]
	case ByCellLines:
		return s.Pairs[i].CellLine
	}
	return -1
}

// TestSplitFolds checks the invariants of K-fold cross-validation: the
// parts of each fold are disjoint and cover every pair; every unit is in
// exactly one fold's test set, and no unit of a fold's test set is in
// its training or validation part; the validation part is valFrac of the
// non-test pairs; the same seed gives the same folds.
func TestSplitFolds(t *testing.T) {
	cases := []struct {
		name  string
		s     *Screen
		by    string
		k     int
		units int // units dealt
	}{
		{"pairs one line", gridScreen(12), ByPairs, 5, 66},
		{"combinations one line", gridScreen(12), ByCombinations, 5, 66},
		{"combinations panel", panelScreen(10, 4), ByCombinations, 5, 45},
		{"cell lines panel", panelScreen(10, 4), ByCellLines, 4, 4},
		{"drugs panel", panelScreen(10, 4), ByDrugs, 5, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			splits, err := SplitFolds(c.s, c.by, c.k, 0.3, 7)
			if err != nil {
				t.Fatal(err)
			}
			if len(splits) != c.k {
				t.Fatalf("%d folds, want %d", len(splits), c.k)
			}
			testedIn := map[int][]int{} // unit → folds testing it
			drugFold := map[int]int{}
			for f, sp := range splits {
				all := append(append(slices.Clone(sp.Train), sp.Val...), sp.Test...)
				slices.Sort(all)
				for i, j := range all {
					if i != j || len(all) != len(c.s.Pairs) {
						t.Fatalf("fold %d: parts do not partition the %d pairs", f, len(c.s.Pairs))
					}
				}
				for _, part := range [][]int{sp.Train, sp.Val, sp.Test} {
					if !slices.IsSorted(part) {
						t.Errorf("fold %d: a part is not sorted", f)
					}
				}
				if want := int(float64(len(c.s.Pairs)-len(sp.Test))*0.3 + 0.5); len(sp.Val) != want {
					t.Errorf("fold %d: %d validation pairs, want %d (0.3 of %d)", f, len(sp.Val), want, len(c.s.Pairs)-len(sp.Test))
				}
				testUnits := map[int]bool{}
				for _, i := range sp.Test {
					if c.by == ByDrugs {
						continue
					}
					u := unitOf(c.s, c.by, i)
					if !testUnits[u] {
						testUnits[u] = true
						testedIn[u] = append(testedIn[u], f)
					}
				}
				if c.by == ByDrugs {
					// A drug of every test pair is in this fold; no
					// training or validation pair has one.
					test := map[int]bool{}
					for _, i := range sp.Test {
						test[i] = true
					}
					held := map[int]bool{}
					for d := range c.s.Drugs {
						in := true
						for i, p := range c.s.Pairs {
							if (p.A == d || p.B == d) && !test[i] {
								in = false
							}
						}
						if in {
							held[d] = true
							if g, ok := drugFold[d]; ok && g != f {
								t.Errorf("drug %d held out in folds %d and %d", d, g, f)
							}
							drugFold[d] = f
						}
					}
					for _, i := range sp.Test {
						if p := c.s.Pairs[i]; !held[p.A] && !held[p.B] {
							t.Errorf("fold %d: test pair %d has no held-out drug", f, i)
						}
					}
					continue
				}
				for _, part := range [][]int{sp.Train, sp.Val} {
					for _, i := range part {
						if testUnits[unitOf(c.s, c.by, i)] {
							t.Fatalf("fold %d: pair %d's unit is in the test set and in training", f, i)
						}
					}
				}
			}
			if c.by == ByDrugs {
				if len(drugFold) != c.units {
					t.Errorf("%d drugs held out once, want %d", len(drugFold), c.units)
				}
			} else {
				if len(testedIn) != c.units {
					t.Errorf("%d units tested, want %d", len(testedIn), c.units)
				}
				for u, fs := range testedIn {
					if len(fs) != 1 {
						t.Errorf("unit %d tested in folds %v, want exactly one", u, fs)
					}
				}
			}
			again, _ := SplitFolds(c.s, c.by, c.k, 0.3, 7)
			if !reflect.DeepEqual(splits, again) {
				t.Error("the same seed gave other folds")
			}
			other, _ := SplitFolds(c.s, c.by, c.k, 0.3, 8)
			if reflect.DeepEqual(splits, other) {
				t.Error("another seed gave the same folds")
			}
		})
	}
}

func TestSplitFoldsRefuses(t *testing.T) {
	cases := []struct {
		name  string
		s     *Screen
		by    string
		k     int
		folds bool // a *FoldsError
	}{
		{"K 1", gridScreen(6), ByPairs, 1, true},
		{"K above the combinations", panelScreen(4, 3), ByCombinations, 7, true}, // 6 combinations
		{"K above the lines", panelScreen(6, 3), ByCellLines, 4, true},
		{"cell lines on one line", gridScreen(6), ByCellLines, 2, false},
		{"unknown unit", gridScreen(6), "wells", 2, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := SplitFolds(c.s, c.by, c.k, 0.3, 1)
			var fe *FoldsError
			if err == nil || errors.As(err, &fe) != c.folds {
				t.Fatalf("err %v, want an error (FoldsError %v)", err, c.folds)
			}
		})
	}
}

// TestSplitByCombination: no combination has pairs in the test set and
// elsewhere; the test set reaches its fraction.
func TestSplitByCombination(t *testing.T) {
	s := panelScreen(12, 5)
	comb, _ := Combinations(s)
	for seed := range uint64(4) {
		sp := SplitByCombination(s, 0.3, 0.3, seed)
		test := map[int]bool{}
		for _, i := range sp.Test {
			test[comb[i]] = true
		}
		for _, part := range [][]int{sp.Train, sp.Val} {
			for _, i := range part {
				if test[comb[i]] {
					t.Fatalf("seed %d: combination %d in test and training", seed, comb[i])
				}
			}
		}
		if n := len(s.Pairs); len(sp.Test) < int(0.3*float64(n)) || len(sp.Train)+len(sp.Val)+len(sp.Test) != n {
			t.Errorf("seed %d: test %d of %d pairs", seed, len(sp.Test), n)
		}
	}
}

// TestDrawOOS: by pairs the split is unchanged; by combinations no
// combination has pairs in both the training and validation parts; by
// drugs no validation pair's drugs are both in training pairs' drugs;
// the test part is kept, the sizes are at least the original's.
func TestDrawOOS(t *testing.T) {
	s := panelScreen(12, 5)
	sp := SplitRandom(len(s.Pairs), DefaultFracs, 3)
	same, err := DrawOOS(s, sp, ByPairs, 3)
	if err != nil || !reflect.DeepEqual(same, sp) {
		t.Fatalf("by pairs changed the split (err %v)", err)
	}
	comb, _ := Combinations(s)
	for _, by := range []string{ByCombinations, ByDrugs} {
		out, err := DrawOOS(s, sp, by, 3)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out.Test, sp.Test) || len(out.Val) < len(sp.Val) || len(out.Train)+len(out.Val) != len(sp.Train)+len(sp.Val) {
			t.Fatalf("by %s: train %d val %d test %d from %d/%d/%d", by, len(out.Train), len(out.Val), len(out.Test), len(sp.Train), len(sp.Val), len(sp.Test))
		}
		trainComb, trainDrug := map[int]bool{}, map[int]bool{}
		for _, i := range out.Train {
			trainComb[comb[i]] = true
			trainDrug[s.Pairs[i].A], trainDrug[s.Pairs[i].B] = true, true
		}
		for _, i := range out.Val {
			p := s.Pairs[i]
			if by == ByCombinations && trainComb[comb[i]] {
				t.Fatalf("by combinations: combination %d in training and validation", comb[i])
			}
			if by == ByDrugs && trainDrug[p.A] && trainDrug[p.B] {
				t.Fatalf("by drugs: validation pair %d has two training drugs", i)
			}
		}
	}
	if _, err := DrawOOS(s, sp, "rows", 3); err == nil {
		t.Error("an unknown draw was accepted")
	}
}
