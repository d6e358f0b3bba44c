package cli

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/suggest"
)

// TestTUICampaignEndToEnd drives the real binary in a tmux terminal on a
// live campaign over the synthetic default screen (the fast "deup-ridge"
// surrogate, batch 5): R runs a round, a second R is refused while the round
// awaits results, e exports the marked suggestions, q quits; the exported
// file must be the batch 'deup suggest --campaign' exports, and the ledger
// must hold exactly one round. Skipped without tmux (.ci/run installs it).
func TestTUICampaignEndToEnd(t *testing.T) {
	e := newE2ETerm(t, "campaign")
	dir, bin, sh := e.dir, e.bin, e.run
	sh(bin, "campaign", "init", "--cell-line", "SYNTH-1", "--model", "deup-ridge", "--features", "identity", "--batch", "5", "camp")

	e.start(120, "tui --campaign camp --export picked.csv")
	waitFor, keys := e.waitFor, e.keys

	waitFor("of 1,800 pairs")
	keys("R")
	waitFor("round 1: 5 suggestions")
	waitFor("batch: 5 marked")
	keys("R")
	waitFor("round 1 is already open, waiting for 5 of 5 results: nothing run")
	keys("e")
	waitFor("export to: picked.csv")
	keys("Enter")
	waitFor("Exported 5 pairs to picked.csv")
	keys("x")
	waitFor("pairs")
	keys("q")
	e.waitExit()

	sh(bin, "suggest", "--campaign", "camp", "--out", "cli.csv")
	got, err := suggest.ReadFile(filepath.Join(dir, "picked.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := suggest.ReadFile(filepath.Join(dir, "cli.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || len(want) != 5 {
		t.Fatalf("exported %d pairs, deup suggest %d; want 5", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.DrugA.ID != w.DrugA.ID || g.DrugB.ID != w.DrugB.ID || g.CellLine != w.CellLine || g.Rank != w.Rank || g.Reason != w.Reason {
			t.Errorf("rank %d: UI exported %s+%s on %s (%q), deup suggest %s+%s on %s (%q)", i+1, g.DrugA.ID, g.DrugB.ID, g.CellLine, g.Reason, w.DrugA.ID, w.DrugB.ID, w.CellLine, w.Reason)
		}
		// the UI stores predictions as float32
		if d := g.Mu - w.Mu; d > 1e-4*(1+math.Abs(w.Mu)) || d < -1e-4*(1+math.Abs(w.Mu)) {
			t.Errorf("rank %d: mu %v, deup suggest %v", i+1, g.Mu, w.Mu)
		}
	}
	if out := sh(bin, "campaign", "report", "camp"); !strings.Contains(out, "1 rounds") {
		t.Errorf("campaign report:\n%s", out)
	}
}
