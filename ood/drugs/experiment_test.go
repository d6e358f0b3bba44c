package drugs

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/due"
)

// TestExperimentSmall runs every method on small networks and checks
// that the scores are finite and the same seed gives the same numbers.
func TestExperimentSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 15 small networks")
	}
	sc, err := data.Synth(data.DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	if sc, err = sc.OneCellLine("SYNTH-1"); err != nil {
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
	set := Settings{HoldOut: 0.2, InTest: 0.3, Folds: 3, Seeds: []uint64{1}, Methods: strings.Split(DefaultMethods, ","),
		Model: small, DUE: due.Config{TowerHidden: 64, TowerOut: 32, CombHidden: 16, MaxEpochs: 5, Patience: 2, Inducing: 20},
		Members: 2, Passes: 10, Dropout: 0.1, Cutoff: 0.6, Bandwidth: 0.1, PCADims: 4, Workers: 2}
	run := func(set Settings) *Report {
		x, err := NewExperiment(sc, d, set)
		if err != nil {
			t.Fatal(err)
		}
		r, err := x.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return Score(r, set.Methods, sc.Truth)
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

func sameScores(a, b Scores) bool {
	x := []float64{a.SRCC, a.AUROC, a.RejAUC, a.SRCCOne, a.SRCCTwo, a.AUROCOne, a.AUROCTwo, a.SRCCExcess, a.RMSE}
	y := []float64{b.SRCC, b.AUROC, b.RejAUC, b.SRCCOne, b.SRCCTwo, b.AUROCOne, b.AUROCTwo, b.SRCCExcess, b.RMSE}
	for i := range x {
		if x[i] != y[i] && !(math.IsNaN(x[i]) && math.IsNaN(y[i])) {
			return false
		}
	}
	return true
}
