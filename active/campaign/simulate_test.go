package campaign

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/simulate"
)

// TestSimulate: a one-strategy, one-seed, two-round simulation on the
// synthetic default's first line: its initial set is 10 % of the line's
// pairs (active.DefaultInit), every round is reported, and the summary
// carries the line and its pairs; features the screen cannot give are
// refused before anything runs.
func TestSimulate(t *testing.T) {
	_, sc := synthScreens(t)
	tab, err := Select(sc, "", sc.CellLines[0], "")
	if err != nil {
		t.Fatal(err)
	}
	greedy, err := simulate.ParseStrategy("greedy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.SimConfig(simulate.Config{Features: "nope"}); err == nil {
		t.Error("features nope accepted")
	}
	var se *SettingError
	if _, err := tab.SimConfig(simulate.Config{Features: "identity", MaxPerLine: 2}); !errors.As(err, &se) ||
		err.Error() != "a cap per cell line needs several cell lines (a simulation across several cell lines)" {
		t.Errorf("a cap per line on one line: %v, want a SettingError", err)
	}
	cfg, err := tab.SimConfig(simulate.Config{Batch: 5, Rounds: 2, Strategies: []simulate.Strategy{greedy}, Seeds: 1, TopFrac: 0.01, Features: "identity"})
	if err != nil {
		t.Fatal(err)
	}
	if want := active.DefaultInit(len(tab.Oracle)); cfg.Init != want {
		t.Errorf("init %d, want %d", cfg.Init, want)
	}
	var rounds []int
	rep, traces, err := tab.Simulate(t.Context(), cfg, func(p simulate.Progress) { rounds = append(rounds, p.Round) })
	if err != nil {
		t.Fatal(err)
	}
	if len(traces) != 1 || len(rounds) != 2 || rep.CellLine != sc.CellLines[0] || rep.Pairs != len(tab.Oracle) || rep.Measured[2] != cfg.Init+10 {
		t.Errorf("%d traces, rounds reported %v, line %q, %d pairs, %v measured; want 1, 2 rounds, %q, %d, %d after round 2",
			len(traces), rounds, rep.CellLine, rep.Pairs, rep.Measured, sc.CellLines[0], len(tab.Oracle), cfg.Init+10)
	}
}

// TestRun: Run steps a retrospective campaign through its rounds, each
// reported once, and stops when it is done.
func TestRun(t *testing.T) {
	screens, sc := synthScreens(t)
	dir := filepath.Join(t.TempDir(), "c")
	cfg := testConfig(sc, active.Retrospective)
	cfg.Rounds = 3
	initCampaign(t, dir, cfg, sc, 40)
	o, err := screens.OpenParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	c, s, oracle := o.Campaign, o.Surrogate, o.Oracle
	var got []int
	if err := Run(t.Context(), c, s, oracle, func(r *active.Round) { got = append(got, r.Index) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != 1 || got[2] != 3 || !c.Done() || len(c.Measured()) != 40+3*5 {
		t.Errorf("rounds %v, done %v, %d measured; want 1..3, done, %d", got, c.Done(), len(c.Measured()), 40+3*5)
	}
}
