package cli

import (
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
)

// TestBenchSplitter checks --split-by's splits on the synthetic default:
// drugs: no test pair's held-out drug appears in training or validation;
// cell-lines: test pairs are whole cell lines.
func TestBenchSplitter(t *testing.T) {
	sc, err := data.Synth(data.DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	fracs := [3]float64{0.4, 0.3, 0.3}
	one, err := oneCellLine(sc, "")
	if err != nil {
		t.Fatal(err)
	}
	split, err := benchSplitter(one, "drugs", fracs)
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
	split, err = benchSplitter(sc, "cell-lines", fracs)
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
	if _, err := benchSplitter(one, "cell-lines", fracs); err == nil {
		t.Error("cell-lines on a one-line screen: no error")
	}
	if f, err := benchSplitter(one, "pairs", fracs); err != nil || f != nil {
		t.Errorf("pairs: %v, %v (want the bench's random split)", f != nil, err)
	}
}

func TestBenchSplitByUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--split-by", "scaffolds", "--out", dir}, "--split-by"},
		{[]string{"bench", "--split-by", "cell-lines", "--cell-line", "SYNTH-1", "--out", dir}, "leave --cell-line out"},
	} {
		code, _, stderr := smoMain(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q", tc.args, code, stderr)
		}
	}
}

// TestBenchSplitByCellLines runs the bench with one epoch on the synthetic
// default's two cell lines, one held out.
func TestBenchSplitByCellLines(t *testing.T) {
	code, stdout, stderr := smoMain(t, "bench", "--split-by", "cell-lines", "--seeds", "1", "--methods", "ensemble", "--members", "1", "--epochs", "1", "--patience", "1", "--extra-passes", "-1", "--no-figures", "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "SYNTH-1, SYNTH-2") || !strings.Contains(stdout, "split by cell-lines") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
