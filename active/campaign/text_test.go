package campaign

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/internal/jsonfloat"
)

func TestReportWriteText(t *testing.T) {
	f := func(v float64) *jsonfloat.Float { p := jsonfloat.Float(v); return &p }
	rounds := []active.RoundReport{
		{Round: 1, ModelVersion: "m1", Suggested: 5, Measured: 5, BestInRound: f(12.5), BestSoFar: 12.5, MeanAbsError: f(1.25), MeanSigmaTot: f(2), TopFoundSoFar: f(0.5)},
		{Round: 2, ModelVersion: "m2", Suggested: 5, Measured: 0, BestSoFar: 12.5},
	}
	tests := []struct {
		name string
		rep  Report
		want string
	}{
		{
			name: "live, no explore",
			rep:  Report{Config: active.Config{Mode: active.Live, Model: "deup-ridge", Acquisition: "ucb", Batch: 5}, Initial: 40, InitialBest: 10, Rounds: rounds, Open: 7},
			want: "campaign c: live, deup-ridge with ucb, batch 5; 40 initial pairs (best 10), 2 rounds, 7 open candidates\n" +
				"round  measured  best in round  best so far  mean |y-mu|  mean sigma_total  model\n" +
				"1      5/5       12.5           12.5         1.25         2                 m1\n" +
				"2      0/5       -              12.5         -            -                 m2\n",
		},
		{
			name: "retrospective with explore: the top-1% column",
			rep:  Report{Config: active.Config{Mode: active.Retrospective, Model: "deup-ridge", Acquisition: "ei", Batch: 5, Explore: 0.5}, Initial: 40, InitialBest: 10, Rounds: rounds[:1], Top: true},
			want: "campaign c: retrospective, deup-ridge with ei, batch 5; 40 initial pairs (best 10), 1 rounds, 0 open candidates\n" +
				"explore 0.5 (set at init): each round ranks by (1 - 0.5) r(ei) + 0.5 r(sigma_epistemic)\n" +
				"round  measured  best in round  best so far  mean |y-mu|  mean sigma_total  top-1% found  model\n" +
				"1      5/5       12.5           12.5         1.25         2                 0.5           m1\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.rep.WriteText(&buf, "c"); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestWriteRound: the line of a measured round names its suggestions,
// model, highest mu (Round.Summary), measured count and best so far.
func TestWriteRound(t *testing.T) {
	screens, sc := synthScreens(t)
	dir := filepath.Join(t.TempDir(), "c")
	cfg := testConfig(sc, active.Retrospective)
	cfg.Rounds = 1
	initCampaign(t, dir, cfg, sc, 40)
	o, err := screens.OpenParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	c, s, oracle := o.Campaign, o.Surrogate, o.Oracle
	if err := Run(t.Context(), c, s, oracle, func(*active.Round) {}); err != nil {
		t.Fatal(err)
	}
	r := c.Rounds()[0]
	bestMu := math.Inf(-1)
	for _, sg := range r.Suggestions {
		bestMu = math.Max(bestMu, sg.Mu)
	}
	best := math.Inf(-1)
	for _, y := range r.Measured {
		best = math.Max(best, y)
	}
	want := fmt.Sprintf("round 1: 5 suggestions by %s (highest predicted mu %.4g); measured 5/5, best %.4g; best so far %.4g\n", r.ModelVersion, bestMu, best, c.Best())
	var buf bytes.Buffer
	if err := WriteRound(&buf, c, r); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
