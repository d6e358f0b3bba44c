package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/due"
	"github.com/deup-screening/deup/ood/drugs"
)

// TestOODRun runs deup ood end to end on the synthetic default with one
// epoch per training (fast, not meaningful numbers) and checks the output
// files and the JSON keys of the issue.
func TestOODRun(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := run(t, "ood", "--seeds", "1", "--folds", "2", "--epochs", "1", "--patience", "1", "--methods", "deup-dv,deup-xdvb,mcdropout,density", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "| deup-dv |") || !strings.Contains(stdout, "srcc_excess_risk") {
		t.Errorf("stdout lacks the table:\n%s", stdout)
	}
	if !strings.Contains(stderr, "3/3") {
		t.Errorf("progress bar did not count 3 trainings (2 folds + final):\n%s", stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Methods map[string]map[string]struct {
			Mean *float64 `json:"mean"`
			SD   *float64 `json:"sd"`
		} `json:"methods"`
		NIn         int      `json:"n_in"`
		NOut        int      `json:"n_out"`
		WallSeconds *float64 `json:"wall_seconds"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.NIn <= 0 || res.NOut <= 0 || res.WallSeconds == nil {
		t.Errorf("n_in %d, n_out %d, wall_seconds %v", res.NIn, res.NOut, res.WallSeconds)
	}
	for _, m := range []string{"deup-dv", "deup-xdvb", "mcdropout", "density"} {
		e, ok := res.Methods[m]
		if !ok {
			t.Fatalf("results.json has no method %s", m)
		}
		for _, k := range []string{"srcc", "auroc", "rejection_auc", "srcc_one_unseen", "srcc_two_unseen", "srcc_excess_risk"} {
			v, ok := e[k]
			if !ok || v.Mean == nil {
				t.Errorf("%s: key %s missing or null", m, k)
				continue
			}
			if *v.Mean < -1 || *v.Mean > 1.5 {
				t.Errorf("%s %s = %v out of range", m, k, *v.Mean)
			}
		}
	}
	// The density row ranks by -log q: held-out drugs have no self term in
	// the kernel sum, so it separates in from out of distribution perfectly.
	if a := res.Methods["density"]["auroc"].Mean; a == nil || *a != 1 {
		t.Errorf("density auroc %v, want 1", a)
	}
	for _, f := range []string{"results.md", "rejection.png", "rejection.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestOODExperimentSmall runs every method on small networks and checks
// that the scores are finite and the same seed gives the same numbers.
func TestOODExperimentSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 15 small networks")
	}
	sc, err := data.Synth(data.DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	if sc, err = oneCellLine(sc, "SYNTH-1"); err != nil {
		t.Fatal(err)
	}
	f, _, err := features.Build(sc.Drugs, features.Config{Kind: features.Fingerprint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := model.NewDataset(sc, f, 0)
	if err != nil {
		t.Fatal(err)
	}
	small := model.Config{TowerHidden: 64, TowerOut: 32, CombHidden: 16, SigmaHidden: 16, MaxEpochs: 10, Patience: 3, LR: 1e-3}
	set := drugs.Settings{HoldOut: 0.2, InTest: 0.3, Folds: 3, Seeds: []uint64{1}, Methods: strings.Split(drugs.DefaultMethods, ","),
		Model: small, DUE: due.Config{TowerHidden: 64, TowerOut: 32, CombHidden: 16, MaxEpochs: 5, Patience: 2, Inducing: 20},
		Members: 2, Passes: 10, Dropout: 0.1, Cutoff: 0.6, Bandwidth: 0.1, PCADims: 4, Workers: 2}
	run := func(set drugs.Settings) *drugs.Report {
		x, err := drugs.NewExperiment(sc, d, set)
		if err != nil {
			t.Fatal(err)
		}
		r, err := x.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return drugs.Score(r, set.Methods, sc.Truth)
	}
	a := run(set)
	// Same seed, same numbers (on the DEUP trainings only, to save time).
	again := set
	again.Methods = []string{"deup-dv", "mcdropout"}
	b := run(again)
	for _, m := range again.Methods {
		sa, sb := a.PerSeed[m][0], b.PerSeed[m][0]
		sa.Secs, sb.Secs = 0, 0
		if !sameScores(sa, sb) {
			t.Errorf("%s: run twice: %+v vs %+v", m, sa, sb)
		}
	}
	for _, m := range set.Methods {
		sa := a.PerSeed[m][0]
		if math.IsNaN(sa.SRCC) || math.IsNaN(sa.AUROC) || math.IsNaN(sa.RejAUC) {
			t.Errorf("%s: %+v", m, sa)
		}
		t.Logf("%s: srcc %.3f auroc %.3f rejection %.3f excess %.3f", m, sa.SRCC, sa.AUROC, sa.RejAUC, sa.SRCCExcess)
	}
}

func sameScores(a, b drugs.Scores) bool {
	x := []float64{a.SRCC, a.AUROC, a.RejAUC, a.SRCCOne, a.SRCCTwo, a.AUROCOne, a.AUROCTwo, a.SRCCExcess, a.RMSE}
	y := []float64{b.SRCC, b.AUROC, b.RejAUC, b.SRCCOne, b.SRCCTwo, b.AUROCOne, b.AUROCTwo, b.SRCCExcess, b.RMSE}
	for i := range x {
		if x[i] != y[i] && !(math.IsNaN(x[i]) && math.IsNaN(y[i])) {
			return false
		}
	}
	return true
}
