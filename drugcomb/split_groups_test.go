package drugcomb

import (
	"reflect"
	"slices"
	"testing"
)

func TestButina(t *testing.T) {
	// Five items on a line at 0, 0.1, 0.2, 0.9, 1.0 with sim = 1 - |a - b|
	// and cutoff 0.15: neighbour lists {0,1}, {1,0,2}, {2,1}, {3,4}, {4,3}.
	// Item 1 has the most neighbours: cluster 0 = {0, 1, 2}. Items 3 and 4
	// tie on two neighbours; the higher index (4) comes first (RDKit's
	// reverse sort): cluster 1 = {4, 3}. Derived by hand from Butina 1999.
	pos := []float64{0, 0.1, 0.2, 0.9, 1.0}
	sim := func(i, j int) float64 {
		d := pos[i] - pos[j]
		if d < 0 {
			d = -d
		}
		return 1 - d
	}
	if got, want := Butina(len(pos), sim, 0.15), []int{0, 0, 0, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("Butina = %v, want %v", got, want)
	}
	// Cutoff 0: every item alone; ties by index, highest first.
	if got, want := Butina(3, sim, 0), []int{2, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("Butina cutoff 0 = %v, want %v", got, want)
	}
	// A chain 0-1-2-3 (neighbours only consecutive): 2 and 1 tie at three
	// neighbours, 2 first: {1, 2, 3}, then 0 alone.
	chain := func(i, j int) float64 {
		if i-j == 1 || j-i == 1 {
			return 1
		}
		return 0
	}
	if got, want := Butina(4, chain, 0.5), []int{1, 0, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("Butina chain = %v, want %v", got, want)
	}
}

func TestSplitByDrugGroups(t *testing.T) {
	s := gridScreen(20) // 190 pairs
	groups := make([]int, 20)
	for d := range groups {
		groups[d] = d / 2 // ten groups of two drugs
	}
	for seed := uint64(0); seed < 5; seed++ {
		sp, err := SplitByDrugGroups(s, groups, 0.2, 0.3, seed)
		if err != nil {
			t.Fatal(err)
		}
		// 4 drugs = two whole groups: 4*16 = 64 pairs with one held-out
		// drug, 6 with two; 190 - 70 = 120 in distribution, 36 of them test.
		if len(sp.HeldOutDrugs) != 4 || len(sp.TestOne) != 64 || len(sp.TestTwo) != 6 || len(sp.TestIn) != 36 || len(sp.Train) != 84 {
			t.Fatalf("seed %d: held %v, one %d, two %d, in %d, train %d", seed, sp.HeldOutDrugs, len(sp.TestOne), len(sp.TestTwo), len(sp.TestIn), len(sp.Train))
		}
		held := map[int]bool{}
		for _, d := range sp.HeldOutDrugs {
			held[d] = true
		}
		for _, d := range sp.HeldOutDrugs {
			if !held[d^1] {
				t.Fatalf("seed %d: drug %d held out without its group mate %d", seed, d, d^1)
			}
		}
		for _, i := range append(append([]int{}, sp.Train...), sp.TestIn...) {
			if p := s.Pairs[i]; held[p.A] || held[p.B] {
				t.Fatalf("in-distribution pair %d has a held-out drug", i)
			}
		}
		again, _ := SplitByDrugGroups(s, groups, 0.2, 0.3, seed)
		if !reflect.DeepEqual(sp, again) {
			t.Fatal("same seed, different split")
		}
	}
	for _, bad := range []struct {
		groups   []int
		fr, test float64
	}{{groups, 0, 0.3}, {groups, 0.2, 1}, {groups[:3], 0.2, 0.3}} {
		if _, err := SplitByDrugGroups(s, bad.groups, bad.fr, bad.test, 1); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func TestSplitByCellLine(t *testing.T) {
	s := &Screen{CellLines: []string{"a", "b", "c", "d"}}
	for i := 0; i < 100; i++ {
		s.Pairs = append(s.Pairs, Pair{A: 0, B: 1, CellLine: i % 4})
	}
	for seed := uint64(0); seed < 4; seed++ {
		sp, err := SplitByCellLine(s, 0.3, 0.2, seed)
		if err != nil {
			t.Fatal(err)
		}
		// 25 pairs per line: the 30-pair target needs two lines (50 pairs).
		if len(sp.Test) != 50 || len(sp.Val) != 20 || len(sp.Train) != 30 {
			t.Fatalf("sizes %d/%d/%d", len(sp.Train), len(sp.Val), len(sp.Test))
		}
		testLines := map[int]bool{}
		for _, i := range sp.Test {
			testLines[s.Pairs[i].CellLine] = true
		}
		for _, i := range append(append([]int{}, sp.Train...), sp.Val...) {
			if testLines[s.Pairs[i].CellLine] {
				t.Fatalf("pair %d of a held-out cell line outside the test set", i)
			}
		}
	}
	one := &Screen{CellLines: []string{"a"}, Pairs: []Pair{{CellLine: 0}}}
	if _, err := SplitByCellLine(one, 0.3, 0.2, 1); err == nil {
		t.Error("one cell line: no error")
	}
	if _, err := SplitByCellLine(s, 0.99, 0, 1); err == nil {
		t.Error("every cell line held out: no error")
	}
}

// TestNewLineShots: K pairs of each held-out line move from test to
// training (or, with drop, leave the test set), seeded; kept lines are
// untouched.
func TestNewLineShots(t *testing.T) {
	s := &Screen{CellLines: []string{"a", "b", "c", "d"}}
	for c := range 4 {
		for i := range 20 {
			s.Pairs = append(s.Pairs, Pair{A: i, B: i + 1, CellLine: c, N: 1})
		}
	}
	sp, err := SplitByCellLine(s, 0.5, 0.2, 3)
	if err != nil {
		t.Fatal(err)
	}
	held := map[int]bool{}
	for _, i := range sp.Test {
		held[s.Pairs[i].CellLine] = true
	}
	k := 5
	shots := NewLineShots(s, sp, k, 9, false)
	if len(shots.Train) != len(sp.Train)+k*len(held) || len(shots.Test) != len(sp.Test)-k*len(held) || len(shots.Val) != len(sp.Val) {
		t.Fatalf("shots: train %d→%d, test %d→%d, %d held lines", len(sp.Train), len(shots.Train), len(sp.Test), len(shots.Test), len(held))
	}
	dropped := NewLineShots(s, sp, k, 9, true)
	if !slices.Equal(dropped.Test, shots.Test) || !slices.Equal(dropped.Train, sp.Train) {
		t.Error("dropping the shots changes the test set or training")
	}
	if again := NewLineShots(s, sp, k, 9, false); !slices.Equal(again.Train, shots.Train) {
		t.Error("same seed, other shots")
	}
	if same := NewLineShots(s, sp, 0, 9, false); !slices.Equal(same.Test, sp.Test) {
		t.Error("k = 0 changes the split")
	}
}
