package active_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
	"github.com/deup-screening/deup/active/surrogate"
)

// TestCampaignPerLine runs a greedy campaign on a three-line panel whose
// third line is 40 higher on every pair (so an uncapped greedy batch goes
// to it whole) with and without Config.MaxPerLine: the cap is the rule of
// SelectBatchPerLine (deup suggest --per-line), every round holds at most
// that many pairs of each line, and the reason says so.
func TestCampaignPerLine(t *testing.T) {
	base, table := activetest.PanelScreen(12, []float64{0, 0, 40}, 4)
	for _, tc := range []struct {
		perLine int
		// maxOnLine is the most pairs of one line a round may hold;
		// atLeast says a round's largest line share must reach it (the
		// uncapped campaign must put more than the cap on the third line,
		// or the capped run would prove nothing).
		maxOnLine, atLeast int
	}{
		{perLine: 0, maxOnLine: 6, atLeast: 6},
		{perLine: 2, maxOnLine: 2, atLeast: 2},
	} {
		t.Run(fmt.Sprint("per-line=", tc.perLine), func(t *testing.T) {
			initial, cands, err := active.SplitInitial(table, 40, 7)
			if err != nil {
				t.Fatal(err)
			}
			cfg := activetest.Config(base, "bayes-ridge", "greedy", 6, 3, 7)
			cfg.MaxPerLine = tc.perLine
			c, err := active.Create(active.NewMemoryStore(), cfg, initial, cands)
			if err != nil {
				t.Fatal(err)
			}
			enc, _ := surrogate.NewEncoder(cfg)
			sur, _ := surrogate.New(cfg.Model, enc)
			for !c.Done() {
				if _, err := c.Step(context.Background(), sur, table); err != nil {
					t.Fatal(err)
				}
			}
			for _, r := range c.Rounds() {
				most := 0
				for line, n := range activetest.PerLine(r) {
					if n > tc.maxOnLine {
						t.Errorf("round %d: %d pairs on line %d, cap %d", r.Index, n, line, tc.maxOnLine)
					}
					most = max(most, n)
				}
				if most < tc.atLeast {
					t.Errorf("round %d: at most %d pairs on one line, want %d", r.Index, most, tc.atLeast)
				}
				if len(r.Suggestions) != 6 {
					t.Errorf("round %d: %d suggestions, want 6", r.Index, len(r.Suggestions))
				}
				if got := r.Suggestions[0].Reason; (tc.perLine > 0) != containsStr(got, "per cell line") {
					t.Errorf("round %d reason %q", r.Index, got)
				}
			}
		})
	}
	bad := activetest.Config(base, "bayes-ridge", "greedy", 6, 3, 7)
	bad.MaxPerLine = -1
	if err := bad.Check(); err == nil {
		t.Error("MaxPerLine -1 accepted")
	}
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
