package cli

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/ledger"
)

// TestExploreFlag: --explore of campaign init and suggest --campaign. A
// campaign without it writes no "explore" key (its ledger is the one
// written before the flag existed); with --explore 1, UCB ranks like the
// explore acquisition, so its first batch is the explore campaign's (same
// seed, same screen); suggest --campaign --explore overrides the weight
// for one round and records it; out-of-range weights are usage errors.
func TestExploreFlag(t *testing.T) {
	screen := campaignScreenDir(t)
	tmp := t.TempDir()
	first := func(args ...string) (ledger.Event, []active.PairOnLine) {
		t.Helper()
		dir := filepath.Join(tmp, strings.Join(args, "_"))
		mustRun(t, append(append([]string{"campaign", "init", "--screen", screen, "--batch", "4", "--model", "deup-ridge"}, args...), dir)...)
		mustRun(t, "suggest", "--campaign", dir, "--out", filepath.Join(dir, "r1.csv"))
		evs := ledgerEvents(t, dir)
		var pairs []active.PairOnLine
		for _, r := range evs[len(evs)-1].Records {
			pairs = append(pairs, active.PairOnLine{A: r.A, B: r.B, CellLine: r.CellLine})
		}
		return evs[len(evs)-1], pairs
	}
	plainEv, _ := first("--acquisition", "ucb")
	if evs := ledgerEvents(t, filepath.Join(tmp, "--acquisition_ucb")); strings.Contains(evs[0].Extra, `"explore":`) || strings.Contains(plainEv.Extra, `"explore":`) {
		t.Errorf("campaign without --explore records a weight:\n%s\n%s", evs[0].Extra, plainEv.Extra)
	}
	exEv, exPairs := first("--acquisition", "explore")
	ucbEv, ucbPairs := first("--acquisition", "ucb", "--explore", "1")
	if !reflect.DeepEqual(exPairs, ucbPairs) {
		t.Errorf("ucb --explore 1 picked %v, explore %v", ucbPairs, exPairs)
	}
	if !strings.Contains(ucbEv.Extra, `"explore":1`) || strings.Contains(exEv.Extra, `"explore":`) {
		t.Errorf("suggest events: ucb --explore 1 %s, explore %s", ucbEv.Extra, exEv.Extra)
	}
	if init := ledgerEvents(t, filepath.Join(tmp, "--acquisition_ucb_--explore_1"))[0]; init.Kind != active.KindInit || !strings.Contains(init.Extra, `"explore":1`) {
		t.Errorf("init event of ucb --explore 1: %s %s", init.Kind, init.Extra)
	}
	if r := ucbEv.Records[0].Reason; !strings.HasPrefix(r, "explore 1: rank blend") {
		t.Errorf("reason %q", r)
	}
	// A one-round override of a campaign without the flag.
	dir := filepath.Join(tmp, "override")
	mustRun(t, "campaign", "init", "--screen", screen, "--batch", "4", "--model", "deup-ridge", dir)
	mustRun(t, "suggest", "--campaign", dir, "--explore", "0.5", "--out", filepath.Join(dir, "r1.csv"))
	evs := ledgerEvents(t, dir)
	if last := evs[len(evs)-1]; !strings.Contains(last.Extra, `"explore":0.5`) {
		t.Errorf("suggest --explore 0.5: event %s", last.Extra)
	}
	for _, args := range [][]string{
		{"campaign", "init", "--screen", screen, "--explore", "1.5", filepath.Join(tmp, "bad")},
		{"campaign", "simulate", "--screen", screen, "--explore", "-0.1", "--out", filepath.Join(tmp, "sim")},
		{"suggest", "--campaign", dir, "--explore", "NaN", "--out", filepath.Join(tmp, "x.csv")},
	} {
		if _, errs, code := run(t, args...); code != 2 || !strings.Contains(errs, "--explore") {
			t.Errorf("deup %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
	}
}
