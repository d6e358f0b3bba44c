package simreport

import (
	"bytes"
	"math"
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
		"pairs chosen with a drug measured in at most 2 pairs before the round (all rounds, mean over seeds): a 1.5; bb 0.0;\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
