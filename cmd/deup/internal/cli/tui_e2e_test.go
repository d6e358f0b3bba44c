package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

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
	e := newE2ETerm(t, "tui")
	dir, bin, run := e.dir, e.bin, e.run
	run(bin, "data", "import", "--format", "almanac",
		"--pairs", shareddata.Path(t, "almanac", "synergy_PC-3.csv"),
		"--drugs", shareddata.Path(t, "almanac", "drugs.csv"), "--out", "pc3")
	run(bin, "train", "--screen", "pc3", "--epochs", "1", "--seed", "3", "--out", "pc3.model")
	run(bin, "predict", "--model", "pc3.model", "--screen", "pc3", "--all-pairs", "--out", "all.csv")
	want := topBySigmaEpistemic(t, filepath.Join(dir, "all.csv"), 3)

	e.start(100, "tui --screen pc3 --model pc3.model --export picked.csv")
	waitFor, keys := e.waitFor, e.keys

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
	keys("Enter") // the pair detail shows the model's calibrated interval
	waitFor("90% interval [")
	keys("q")
	e.waitExit()

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
		if s.Interval == nil || !(s.Interval.Lower < s.Mu && s.Mu < s.Interval.Upper) {
			t.Errorf("rank %d: interval %+v around mu %v (the model has a calibration)", i+1, s.Interval, s.Mu)
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
	if col < 0 || recs[0][0] != "drug_a_id" || recs[0][1] != "drug_b_id" {
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
