package cli

import (
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/deup-screening/deup/internal/shareddata"
	"github.com/deup-screening/deup/suggest"
)

// TestTUIEndToEnd drives the real binary in a tmux terminal: import the
// ALMANAC PC-3 screen, train a model (one epoch: the UI is under test, not
// the model), open `deup tui` on both, sort by σ_epistemic, mark the three
// top pairs, export them, quit, and check that the file holds exactly the
// three pairs with the largest σ_epistemic according to `deup predict
// --all-pairs` with the same model. Skipped without tmux (.ci/run installs
// it). The test polls the terminal until the expected text appears (a
// deadline, no fixed sleeps).
func TestTUIEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and trains a model")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "deup")
	run := func(name string, args ...string) string {
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
	run(bin, "data", "import", "--format", "almanac",
		"--pairs", shareddata.Path(t, "almanac", "synergy_PC-3.csv"),
		"--drugs", shareddata.Path(t, "almanac", "drugs.csv"), "--out", "pc3")
	run(bin, "train", "--screen", "pc3", "--epochs", "1", "--seed", "3", "--out", "pc3.model")
	run(bin, "predict", "--model", "pc3.model", "--screen", "pc3", "--all-pairs", "--out", "all.csv")
	want := topBySigmaEpistemic(t, filepath.Join(dir, "all.csv"), 3)

	sock := fmt.Sprintf("deup-e2e-%d", os.Getpid())
	tm := func(args ...string) string {
		t.Helper()
		return run(tmux, append([]string{"-L", sock}, args...)...)
	}
	tm("new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30", "-c", dir,
		bin+" tui --screen pc3 --model pc3.model --export picked.csv; echo exit=$? > status; sleep 60")
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

	waitFor("of 3,160 pairs")
	keys("7")
	waitFor("σ_epi↓")
	keys("Space")
	waitFor("batch: 1 marked")
	keys("Space")
	waitFor("batch: 2 marked")
	keys("Space")
	waitFor("batch: 3 marked")
	keys("B")
	waitFor("3 pairs ·")
	keys("e")
	waitFor("export to: picked.csv")
	keys("Enter")
	waitFor("Exported 3 pairs to picked.csv")
	keys("x") // any key: back to the table
	waitFor("of 3,160 pairs")
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

	got, err := suggest.ReadFile(filepath.Join(dir, "picked.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("exported %d pairs, want 3", len(got))
	}
	for i, s := range got {
		key := [2]string{s.DrugA.ID, s.DrugB.ID}
		w := want[i]
		if key != w.pair && key != [2]string{w.pair[1], w.pair[0]} {
			t.Errorf("rank %d: exported %v, want %v (σ_epistemic %v)", i+1, key, w.pair, w.sigma)
		}
		// the UI stores predictions as float32
		if d := s.SigmaEpistemic - w.sigma; d > 1e-4*w.sigma || d < -1e-4*w.sigma {
			t.Errorf("rank %d: σ_epistemic %v, predict says %v", i+1, s.SigmaEpistemic, w.sigma)
		}
		if s.Rank != i+1 || s.CellLine != "PC-3" || s.DrugA.SMILES == "" || s.DrugA.PubChemCID == 0 {
			t.Errorf("rank %d: %+v", i+1, s)
		}
	}
}

type scored struct {
	pair  [2]string
	sigma float64
}

// topBySigmaEpistemic reads a `deup predict` CSV and returns its k pairs
// with the largest sigma_epistemic, largest first.
func topBySigmaEpistemic(t *testing.T, path string, k int) []scored {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(recs[0], "sigma_epistemic")
	if col < 0 || recs[0][0] != "drug_a" || recs[0][1] != "drug_b" {
		t.Fatalf("unexpected header %v", recs[0])
	}
	var all []scored
	for _, r := range recs[1:] {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, scored{[2]string{r[0], r[1]}, v})
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		switch {
		case a.sigma > b.sigma:
			return -1
		case a.sigma < b.sigma:
			return 1
		}
		return 0
	})
	if len(all) > k && float32(all[k-1].sigma) == float32(all[k].sigma) {
		t.Fatalf("tie at rank %d: the expected set is ambiguous", k)
	}
	return all[:k]
}
