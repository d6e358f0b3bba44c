package bench

import (
	"slices"
	"testing"

	"github.com/deup-screening/deup/data"
)

// TestSplitter checks Splitter's splits on the synthetic default:
// drugs: no test pair's held-out drug appears in training or validation;
// cell-lines: test pairs are whole cell lines.
func TestSplitter(t *testing.T) {
	sc, err := data.Synth(data.DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	fracs := [3]float64{0.4, 0.3, 0.3}
	one, err := sc.KeepCellLines(sc.CellLines[:1])
	if err != nil {
		t.Fatal(err)
	}
	split, err := Splitter(one, ByDrugs, fracs, "")
	if err != nil || split == nil {
		t.Fatalf("drugs: %v", err)
	}
	sp, err := split(2)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, i := range append(append([]int{}, sp.Train...), sp.Val...) {
		seen[one.Pairs[i].A], seen[one.Pairs[i].B] = true, true
	}
	for _, i := range sp.Test {
		if p := one.Pairs[i]; seen[p.A] && seen[p.B] {
			t.Fatalf("test pair %d: both drugs seen in training or validation", i)
		}
	}
	if len(sp.Test) == 0 || len(sp.Val) == 0 || len(sp.Train) == 0 {
		t.Fatalf("sizes %d/%d/%d", len(sp.Train), len(sp.Val), len(sp.Test))
	}
	split, err = Splitter(sc, ByCellLines, fracs, "")
	if err != nil {
		t.Fatal(err)
	}
	sp, err = split(1)
	if err != nil {
		t.Fatal(err)
	}
	test := map[int]bool{}
	for _, i := range sp.Test {
		test[sc.Pairs[i].CellLine] = true
	}
	for _, i := range append(append([]int{}, sp.Train...), sp.Val...) {
		if test[sc.Pairs[i].CellLine] {
			t.Fatalf("pair %d of a held-out cell line is in training or validation", i)
		}
	}
	if _, err := Splitter(one, ByCellLines, fracs, ""); err == nil {
		t.Error("cell-lines on a one-line screen: no error")
	}
	if f, err := Splitter(one, ByPairs, fracs, ""); err != nil || f != nil {
		t.Errorf("pairs: %v, %v (want the bench's random split)", f != nil, err)
	}
}

// TestSplitterUnknown: an unknown hold-out is an error, not the random split.
func TestSplitterUnknown(t *testing.T) {
	sc, err := data.Synth(data.DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Splitter(sc, "wells", [3]float64{0.4, 0.3, 0.3}, ""); err == nil {
		t.Error("by wells: no error")
	}
}

// TestSeedsTrainings: Seeds(n) is 1..n and Trainings counts one training
// per seed and method, plus one per seed and line for the per-line
// reference (the totals of Run's progress events).
func TestSeedsTrainings(t *testing.T) {
	if got := Seeds(1, 3); len(got) != 3 || got[0] != 1 || got[2] != 3 {
		t.Errorf("Seeds(1, 3) = %v, want [1 2 3]", got)
	}
	if got := Seeds(7, 2); len(got) != 2 || got[0] != 7 || got[1] != 8 {
		t.Errorf("Seeds(7, 2) = %v, want [7 8]", got)
	}
	if got := Seeds(1, 0); len(got) != 0 {
		t.Errorf("Seeds(0) = %v, want none", got)
	}
	for _, c := range []struct {
		cfg   Config
		lines int
		want  int
	}{
		{Config{Methods: []string{DEUP, Ensemble}, Seeds: []uint64{1, 2, 3}}, 1, 6},
		{Config{Methods: []string{DEUP}, Seeds: []uint64{1, 2}, PerLineReference: true}, 4, 2 + 2*4},
		{Config{}, 1, 4 * 3}, // the defaults: four methods, seeds 1..3
	} {
		if got := c.cfg.Trainings(c.lines); got != c.want {
			t.Errorf("%+v on %d lines: %d trainings, want %d", c.cfg, c.lines, got, c.want)
		}
	}
	r := Row{Floored: []int{2, 0, 5}}
	if got := r.FlooredTotal(); got != 7 {
		t.Errorf("FlooredTotal %d, want 7", got)
	}
}

// TestPerLineChoice: the per-line reference row by default on a panel split by
// pairs only; asked for, it needs a panel with every line in training.
func TestPerLineChoice(t *testing.T) {
	for _, tc := range []struct {
		ref   string
		lines int
		by    string
		want  bool
		err   bool
	}{
		{"", 3, ByPairs, true, false},
		{"", 3, ByDrugs, false, false},
		{"", 3, ByCellLines, false, false},
		{"", 1, ByPairs, false, false},
		{"per-line", 3, ByDrugs, true, false},
		{"per-line", 1, ByPairs, false, true},
		{"per-line", 3, ByCellLines, false, true},
		{"none", 3, ByPairs, false, false},
		{"per-drug", 3, ByPairs, false, true},
	} {
		got, err := PerLineChoice(tc.ref, tc.lines, tc.by)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("PerLineChoice(%q, %d, %s) = %v, %v; want %v, error %v", tc.ref, tc.lines, tc.by, got, err, tc.want, tc.err)
		}
	}
}

// TestWithFoldShots checks --new-line-shots under --folds on a three-line
// panel in three folds by cell lines: in each fold k pairs of the held-out
// line go into training (with noShots: out of the test set only), the
// rest of the line is the test set of both runs, every other pair keeps
// its part, and the draw is the seed's.
func TestWithFoldShots(t *testing.T) {
	c := data.DefaultSynth(5)
	c.CellLines, c.Pairs = 3, 300
	sc, err := data.Synth(c)
	if err != nil {
		t.Fatal(err)
	}
	const k = 7
	base, err := FoldSplitter(sc, ByCellLines, 3, [3]float64{0.4, 0.3, 0.3}, "")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := base(2)
	if err != nil {
		t.Fatal(err)
	}
	shots, err := WithFoldShots(sc, base, k, false)(2)
	if err != nil {
		t.Fatal(err)
	}
	twin, err := WithFoldShots(sc, base, k, true)(2)
	if err != nil {
		t.Fatal(err)
	}
	again, err := WithFoldShots(sc, base, k, false)(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(shots) != 3 || len(twin) != 3 {
		t.Fatalf("%d and %d folds, want 3", len(shots), len(twin))
	}
	for f := range plain {
		if !slices.Equal(shots[f].Test, twin[f].Test) || !slices.Equal(shots[f].Train, again[f].Train) {
			t.Fatalf("fold %d: the K = 0 twin's test pairs differ, or the draw is not the seed's", f+1)
		}
		if got, want := len(shots[f].Test), len(plain[f].Test)-k; got != want {
			t.Errorf("fold %d: %d test pairs, want %d (one held-out line, %d shots)", f+1, got, want, k)
		}
		if !slices.Equal(twin[f].Train, plain[f].Train) || !slices.Equal(shots[f].Val, plain[f].Val) {
			t.Errorf("fold %d: the twin's training or the validation part moved", f+1)
		}
		var added []int
		for _, i := range shots[f].Train {
			if !slices.Contains(plain[f].Train, i) {
				added = append(added, i)
			}
		}
		if len(added) != k || len(shots[f].Train) != len(plain[f].Train)+k {
			t.Fatalf("fold %d: %d pairs added to training (%d in all, %d without shots), want %d", f+1, len(added), len(shots[f].Train), len(plain[f].Train), k)
		}
		line := sc.Pairs[plain[f].Test[0]].CellLine
		for _, i := range added {
			if sc.Pairs[i].CellLine != line || !slices.Contains(plain[f].Test, i) || slices.Contains(shots[f].Test, i) {
				t.Fatalf("fold %d: shot %d is not a test pair of the held-out line moved out of the test set", f+1, i)
			}
		}
	}
}
