package active_test

import (
	"math"
	"testing"

	"github.com/deup-screening/deup/active"
)

func TestReport(t *testing.T) {
	c := runCampaign(t, active.NewMemoryStore(), "bayes-ridge", "greedy", 1)
	all := map[active.PairOnLine]bool{}
	for _, m := range c.Measured() {
		all[m.Pair] = true
	}
	rows := active.Report(c, all)
	if len(rows) != len(c.Rounds()) || len(rows) == 0 {
		t.Fatalf("%d rows for %d rounds", len(rows), len(c.Rounds()))
	}
	found := c.Initial()
	for k, r := range c.Rounds() {
		row := rows[k]
		var ae, st float64
		best := math.Inf(-1)
		for _, s := range r.Suggestions {
			if y, ok := r.Measured[s.Pair]; ok {
				ae += math.Abs(y - s.Mu)
				st += s.SigmaTotal
				best = math.Max(best, y)
			}
		}
		n := float64(len(r.Measured))
		if row.Round != r.Index || row.Measured != len(r.Measured) || row.Suggested != len(r.Suggestions) ||
			float64(*row.BestInRound) != best || float64(*row.MeanAbsError) != ae/n || float64(*row.MeanSigmaTot) != st/n {
			t.Errorf("round %d: %+v", k, row)
		}
		found += len(r.Measured)
		if got, want := float64(*row.TopFoundSoFar), float64(found)/float64(len(all)); got != want {
			t.Errorf("round %d: top found %v, want %v", k, got, want)
		}
	}
	if last := rows[len(rows)-1]; float64(last.BestSoFar) != c.Best() {
		t.Errorf("best so far %v, campaign best %v", last.BestSoFar, c.Best())
	}
	if active.Report(c, nil)[0].TopFoundSoFar != nil {
		t.Error("no top: TopFoundSoFar set")
	}
}
