package simreport

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active/simulate"
)

func TestWriteText(t *testing.T) {
	nan := math.NaN()
	traces := []simulate.Trace{
		{Strategy: "a", Seed: 1, Measured: []int{10, 15}, Best: []float64{3, 5}, TopFound: []float64{0, 0.5}, TestRMSE: []float64{nan, 2}, NewChemistry: []int{0, 1}},
		{Strategy: "a", Seed: 2, Measured: []int{10, 15}, Best: []float64{1, 7}, TopFound: []float64{0, 1}, TestRMSE: []float64{nan, 4}, NewChemistry: []int{0, 2}},
		{Strategy: "bb", Seed: 1, Measured: []int{10, 15}, Best: []float64{3, 3}, TopFound: []float64{0, 0}, TestRMSE: []float64{nan, 3}, NewChemistry: []int{0, 0}},
	}
	for i := range traces {
		traces[i].SigmaCorr = []float64{nan, 0.5}
	}
	cfg := simulate.Config{Init: 10, Batch: 5, Rounds: 1, Seeds: 2, TopFrac: 0.01,
		Strategies: []simulate.Strategy{{Name: "a"}, {Name: "bb"}}}
	var buf bytes.Buffer
	if err := Build(traces, cfg).WriteText(&buf, traces); err != nil {
		t.Fatal(err)
	}
	// a after round 1: top found 0.5, 1 -> 0.75 ± 0.25; best 5, 7 -> 6 ± 1;
	// RMSE 2, 4 -> 3 ± 1; new chemistry 1, 2 -> 1.5. bb: one seed, SE 0.
	// Columns: tabwriter, minwidth 2, padding 2.
	want := "strategy  top-1% found (final)  best (final)  test RMSE (last model)\n" +
		"a         0.750 ± 0.250         6 ± 1         3 ± 1\n" +
		"bb        0.000 ± 0.000         3 ± 0         3 ± 0\n" +
		"\ntop-1% found per round (mean ± se over 2 seeds):\n" +
		"round  measured  a              bb\n" +
		"0      10        0.000 ± 0.000  0.000 ± 0.000\n" +
		"1      15        0.750 ± 0.250  0.000 ± 0.000\n" +
		"pairs chosen with a drug measured in at most 2 pairs before the round (all rounds, mean over seeds): a 1.5; bb 0.0;\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestWriteTextDifferences: each deup-* strategy minus the greedy
// reference, paired by seed, per round.
func TestWriteTextDifferences(t *testing.T) {
	nan := math.NaN()
	tr := func(name string, seed uint64, top float64) simulate.Trace {
		return simulate.Trace{Strategy: name, Seed: seed, Measured: []int{10, 15}, Best: []float64{3, 3}, TopFound: []float64{0, top},
			TestRMSE: []float64{nan, 1}, SigmaCorr: []float64{nan, 0.2}, NewChemistry: []int{0, 5}}
	}
	// deup-a - greedy: seed 1 0.5 - 0, seed 2 1 - 0.25: differences 0.5
	// and 0.75, mean 0.625, sd 0.25/sqrt(2), se 0.125. random is no DEUP
	// strategy: no difference.
	traces := []simulate.Trace{tr("deup-a", 1, 0.5), tr("deup-a", 2, 1), tr("greedy", 2, 0.25), tr("greedy", 1, 0), tr("random", 1, 0), tr("random", 2, 0)}
	cfg := simulate.Config{Init: 10, Batch: 5, Rounds: 1, Seeds: 2, TopFrac: 0.01,
		Strategies: []simulate.Strategy{{Name: "deup-a"}, {Name: "greedy"}, {Name: "random"}}}
	r := Build(traces, cfg)
	if len(r.Differences) != 1 || r.Differences[0].Strategy != "deup-a" || r.Differences[0].Reference != "greedy" || r.Differences[0].Seeds != 2 {
		t.Fatalf("differences %+v", r.Differences)
	}
	d := r.Differences[0].Top1Found
	if d.Mean[1] != 0.625 || math.Abs(d.SE[1]-0.125) > 1e-12 {
		t.Errorf("difference %v ± %v, want 0.625 ± 0.125", d.Mean[1], d.SE[1])
	}
	// The share of picks on rare drugs: 5 of 5.
	if s := r.Acquisitions["greedy"].RareShare; s.Mean[1] != 1 || !math.IsNaN(s.Mean[0]) {
		t.Errorf("rare share %v", s.Mean)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf, traces); err != nil {
		t.Fatal(err)
	}
	want := "top-1% found minus greedy, paired by seed (mean ± se of the difference):\n" +
		"round  deup-a\n" +
		"1      +0.625 ± 0.125\n"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("got\n%s\nwant it to hold\n%s", buf.String(), want)
	}
	if Reference([]string{"greedy", "deup-net-greedy"}) != "deup-net-greedy" || Reference([]string{"random"}) != "" {
		t.Error("Reference: deup-net-greedy first, then greedy, else none")
	}
}
