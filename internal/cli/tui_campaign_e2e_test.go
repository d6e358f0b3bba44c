package cli

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deup-screening/deup/suggest"
)

// TestTUICampaignEndToEnd drives the real binary in a tmux terminal on a
// live campaign over the synthetic default screen (the fast "deup"
// surrogate, batch 5): R runs a round, a second R is refused while the round
// awaits results, e exports the marked suggestions, q quits; the exported
// file must be the batch 'deup suggest --campaign' exports, and the ledger
// must hold exactly one round. Skipped without tmux (.ci/run installs it).
func TestTUICampaignEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "deup")
	sh := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/deup-screening/deup/cmd/deup").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sh(bin, "campaign", "init", "--cell-line", "SYNTH-1", "--model", "deup", "--features", "identity", "--batch", "5", "camp")

	sock := fmt.Sprintf("deup-e2e-campaign-%d", os.Getpid())
	tm := func(args ...string) string {
		t.Helper()
		return sh(tmux, append([]string{"-L", sock}, args...)...)
	}
	tm("new-session", "-d", "-s", "e2e", "-x", "120", "-y", "30", "-c", dir,
		bin+" tui --campaign camp --export picked.csv; echo exit=$? > status; sleep 60")
	t.Cleanup(func() { exec.Command(tmux, "-L", sock, "kill-server").Run() })
	screen := func() string { return tm("capture-pane", "-p", "-t", "e2e") }
	waitFor := func(what string) string {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			s := screen()
			if strings.Contains(s, what) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("no %q on the screen after 60s:\n%s", what, s)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	keys := func(k ...string) { t.Helper(); tm(append([]string{"send-keys", "-t", "e2e"}, k...)...) }

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
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(dir, "status"))
		if strings.TrimSpace(string(b)) == "exit=0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deup tui did not exit 0 (status %q):\n%s", b, screen())
		}
		time.Sleep(50 * time.Millisecond)
	}

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
