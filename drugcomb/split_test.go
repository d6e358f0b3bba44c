package drugcomb

import (
	"fmt"
	"reflect"
	"testing"
)

func TestSplitRandom(t *testing.T) {
	for _, tc := range []struct {
		n                     int
		fracs                 [3]float64
		wantTr, wantVa, wantT int
	}{
		// Sizes: round(0.4*n), round(0.3*n), rest.
		{1440, DefaultFracs, 576, 432, 432},
		{10, [3]float64{}, 4, 3, 3},
		{7, [3]float64{8, 1, 1}, 6, 1, 0},
		{0, DefaultFracs, 0, 0, 0},
		{5, [3]float64{1, 1, 0}, 3, 2, 0},
	} {
		t.Run(fmt.Sprint(tc.n, tc.fracs), func(t *testing.T) {
			sp := SplitRandom(tc.n, tc.fracs, 42)
			if len(sp.Train) != tc.wantTr || len(sp.Val) != tc.wantVa || len(sp.Test) != tc.wantT {
				t.Fatalf("sizes %d/%d/%d, want %d/%d/%d", len(sp.Train), len(sp.Val), len(sp.Test), tc.wantTr, tc.wantVa, tc.wantT)
			}
			seen := make([]bool, tc.n)
			for _, set := range [][]int{sp.Train, sp.Val, sp.Test} {
				for _, i := range set {
					if seen[i] {
						t.Fatalf("pair %d in two sets", i)
					}
					seen[i] = true
				}
			}
			for i, s := range seen {
				if !s {
					t.Fatalf("pair %d in no set", i)
				}
			}
			if again := SplitRandom(tc.n, tc.fracs, 42); !reflect.DeepEqual(sp, again) {
				t.Fatal("same seed, different split")
			}
		})
	}
	if reflect.DeepEqual(SplitRandom(100, DefaultFracs, 1), SplitRandom(100, DefaultFracs, 2)) {
		t.Error("different seeds gave the same split")
	}
}

// gridScreen has all pairs of n drugs on one cell line.
func gridScreen(n int) *Screen {
	s := &Screen{ScoreNames: []string{"s"}, CellLines: []string{"c"}}
	for i := 0; i < n; i++ {
		s.Drugs = append(s.Drugs, Drug{ID: fmt.Sprint(i)})
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			s.Pairs = append(s.Pairs, Pair{A: a, B: b, N: 1, Mean: []float64{0}, Var: []float64{0}})
		}
	}
	return s
}

func TestSplitByDrug(t *testing.T) {
	s := gridScreen(20) // 190 pairs
	for seed := uint64(0); seed < 5; seed++ {
		sp := SplitByDrug(s, 0.3, 0.2, seed)
		held := map[int]bool{}
		for _, d := range sp.HeldOutDrugs {
			held[d] = true
		}
		if len(held) == 0 {
			t.Fatal("no held-out drug")
		}
		for _, i := range sp.Test {
			p := s.Pairs[i]
			if !held[p.A] && !held[p.B] {
				t.Fatalf("test pair %d has no held-out drug", i)
			}
		}
		for _, set := range [][]int{sp.Train, sp.Val} {
			for _, i := range set {
				p := s.Pairs[i]
				if held[p.A] || held[p.B] {
					t.Fatalf("pair %d outside test has a held-out drug", i)
				}
			}
		}
		if n := len(sp.Train) + len(sp.Val) + len(sp.Test); n != len(s.Pairs) {
			t.Fatalf("split covers %d of %d pairs", n, len(s.Pairs))
		}
		// Holding out h drugs of 20 removes h*(39-h)/2 pairs; the target 57
		// is first reached at h = 4 (70 pairs).
		if got := len(sp.HeldOutDrugs); got != 4 || len(sp.Test) != 70 {
			t.Errorf("held out %d drugs, %d test pairs; want 4 and 70", got, len(sp.Test))
		}
		if got := len(sp.Val); got != 38 {
			t.Errorf("validation %d, want round(0.2*190) = 38", got)
		}
	}
}

func TestKeepPairs(t *testing.T) {
	// Three pairs with a truth; keep the first and the last and renumber the
	// kept pairs' cell line: the truth must follow its pairs (a derivation:
	// index i of the kept list is original index 0, then 2).
	s := &Screen{
		Pairs: []Pair{{A: 0, B: 1, CellLine: 1}, {A: 0, B: 2, CellLine: 0}, {A: 1, B: 2, CellLine: 1}},
		Truth: &Truth{Mean: []float64{10, 20, 30}, NoiseVar: []float64{1, 2, 3}},
	}
	out := s.KeepPairs(func(_ int, p *Pair) bool {
		if p.CellLine != 1 {
			return false
		}
		p.CellLine = 0
		return true
	})
	if len(out.Pairs) != 2 || out.Pairs[0].B != 1 || out.Pairs[1].A != 1 {
		t.Fatalf("pairs %+v", out.Pairs)
	}
	if out.Pairs[0].CellLine != 0 || s.Pairs[0].CellLine != 1 {
		t.Fatalf("the edit must reach the copy only: kept %+v, original %+v", out.Pairs[0], s.Pairs[0])
	}
	if got := out.Truth.Mean; len(got) != 2 || got[0] != 10 || got[1] != 30 {
		t.Fatalf("truth means %v, want [10 30]", got)
	}
	if got := out.Truth.NoiseVar; got[0] != 1 || got[1] != 3 {
		t.Fatalf("truth variances %v, want [1 3]", got)
	}
	if len(s.Pairs) != 3 {
		t.Fatal("the original screen changed")
	}
}

// TestKeepDrugs: dropping drug b (index 1) of a, b, c, d leaves the pairs
// of a, c, d renumbered (c: 2 -> 1, d: 3 -> 2) with their truth aligned.
func TestKeepDrugs(t *testing.T) {
	s := &Screen{
		Drugs: []Drug{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}},
		Pairs: []Pair{{A: 0, B: 1, N: 1}, {A: 0, B: 2, N: 1}, {A: 1, B: 3, N: 1}, {A: 2, B: 3, N: 2}},
		Truth: &Truth{Mean: []float64{1, 2, 3, 4}, NoiseVar: []float64{10, 20, 30, 40}},
	}
	got := s.KeepDrugs(func(_ int, d Drug) bool { return d.ID != "b" })
	wantIDs := []string{"a", "c", "d"}
	wantPairs := [][2]int{{0, 1}, {1, 2}}
	wantTruth := []float64{2, 4}
	if len(got.Drugs) != len(wantIDs) || len(got.Pairs) != len(wantPairs) {
		t.Fatalf("kept %d drugs, %d pairs; want %d, %d", len(got.Drugs), len(got.Pairs), len(wantIDs), len(wantPairs))
	}
	for i, id := range wantIDs {
		if got.Drugs[i].ID != id {
			t.Errorf("drug %d = %s, want %s", i, got.Drugs[i].ID, id)
		}
	}
	for i, p := range wantPairs {
		if got.Pairs[i].A != p[0] || got.Pairs[i].B != p[1] || got.Truth.Mean[i] != wantTruth[i] {
			t.Errorf("pair %d = %d-%d (truth %v), want %d-%d (%v)", i, got.Pairs[i].A, got.Pairs[i].B, got.Truth.Mean[i], p[0], p[1], wantTruth[i])
		}
	}
	if s.Pairs[3].A != 2 {
		t.Error("KeepDrugs changed the input screen's pairs")
	}
}

// TestParseSplit: the benchmark's rule normalizes three positive numbers
// (40/30/30 is 0.4/0.3/0.3); deup train's takes IN/OUT or TRAIN/VAL/TEST
// percentages adding up to 100, as given (the --split help texts).
func TestParseSplit(t *testing.T) {
	for _, tc := range []struct {
		in    string
		inOut bool
		want  [3]float64
		err   string
	}{
		{"40/30/30", false, [3]float64{0.4, 0.3, 0.3}, ""},
		{"0.5/0.25/0.25", false, [3]float64{0.5, 0.25, 0.25}, ""},
		{"2/1/1", false, [3]float64{0.5, 0.25, 0.25}, ""},
		{"40/30", false, [3]float64{}, "want three numbers like 40/30/30"},
		{"40/x/30", false, [3]float64{}, `part 2 ("x") is not a positive number`},
		{"40/0/60", false, [3]float64{}, `part 2 ("0") is not a positive number`},
		{"70/30", true, [3]float64{70, 30, 0}, ""},
		{"40/30/30", true, [3]float64{40, 30, 30}, ""},
		{" 60 / 40 ", true, [3]float64{60, 40, 0}, ""},
		{"half", true, [3]float64{}, "want IN/OUT (e.g. 70/30) or TRAIN/VAL/TEST (e.g. 40/30/30)"},
		{"70/-30", true, [3]float64{}, "part 2 is not a percentage"},
		{"70/20", true, [3]float64{}, "the parts must add up to 100, with in-sample and out-of-sample parts above 0"},
		{"100/0", true, [3]float64{}, "the parts must add up to 100, with in-sample and out-of-sample parts above 0"},
		{"70/30/0", true, [3]float64{}, "a test part of 0: use IN/OUT (e.g. 70/30)"},
	} {
		got, err := ParseSplit(tc.in, tc.inOut)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseSplit(%q, %v) error %v, want %q", tc.in, tc.inOut, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSplit(%q, %v): %v", tc.in, tc.inOut, err)
			continue
		}
		for i := range got {
			if d := got[i] - tc.want[i]; d > 1e-12 || d < -1e-12 {
				t.Errorf("ParseSplit(%q, %v) = %v, want %v", tc.in, tc.inOut, got, tc.want)
				break
			}
		}
	}
}
