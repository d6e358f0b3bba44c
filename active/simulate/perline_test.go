package simulate

import (
	"context"
	"fmt"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
	"github.com/deup-screening/deup/active/surrogate"
)

// TestSimulatePerLine: Run passes Config.MaxPerLine to every run.
func TestSimulatePerLine(t *testing.T) {
	base, table := activetest.PanelScreen(10, []float64{0, 30}, 5)
	sts := []Strategy{{Name: "greedy", Model: "bayes-ridge", Acquisition: "greedy"}}
	for _, tc := range []struct {
		perLine  int
		wantLine map[int]int // pairs acquired per line over the rounds (greedy goes to line 2 uncapped)
	}{
		{0, map[int]int{1: 12}},
		{2, map[int]int{0: 6, 1: 6}},
	} {
		cfg := Config{Init: 20, Batch: 4, Rounds: 3, MaxPerLine: tc.perLine, Strategies: sts, Seeds: 1, Seed0: 3, Features: "identity", Workers: 1}
		traces, err := Run(context.Background(), table, base, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(traces) != 1 || len(traces[0].ModelVers) != 4 {
			t.Fatalf("traces %+v", traces)
		}
		// Rebuild the run: the initial set is SplitInitial's, the rest
		// was acquired; Trace does not list pairs, so count through a
		// campaign with the same config.
		initial, cands, _ := active.SplitInitial(table, 20, 3)
		cc := base
		cc.Mode, cc.Model, cc.Acquisition, cc.Batch, cc.Rounds, cc.MaxPerLine, cc.Seed, cc.Features = active.Retrospective, "bayes-ridge", "greedy", 4, 3, tc.perLine, 3, "identity"
		c, err := active.Create(active.NewMemoryStore(), cc, initial, cands)
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := surrogate.NewEncoder(cc)
		sur, _ := surrogate.New(cc.Model, enc)
		got := map[int]int{}
		for r := 1; !c.Done(); r++ {
			prop, err := c.Step(context.Background(), sur, table)
			if err != nil {
				t.Fatal(err)
			}
			if prop.Round.ModelVersion != traces[0].ModelVers[r] {
				t.Errorf("per-line %d round %d: simulate ran model %s, the campaign %s", tc.perLine, r, traces[0].ModelVers[r], prop.Round.ModelVersion)
			}
			for l, n := range activetest.PerLine(prop.Round) {
				got[l] += n
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.wantLine) {
			t.Errorf("per-line %d: acquired per line %v, want %v", tc.perLine, got, tc.wantLine)
		}
	}
}
