package model_test

import (
	"context"
	"math"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/model"
)

// TestSyntheticDefault trains DEUP on the embedded synthetic default
// (data.DefaultSynth(1), first cell line; fingerprints computed by chem
// from its generated SMILES) with a narrower tower to keep the test fast,
// and compares with the hidden truth: the test RMSE of μ against the true
// expected synergy must be far below the score sd, σ_total must track the
// true expected error sqrt((truth−μ)² + noise/N) and σ_epistemic the true
// excess error |truth−μ| (positively; see the thresholds below).
func TestSyntheticDefault(t *testing.T) {
	sc, err := data.Synth(data.DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	one := *sc
	one.Pairs, one.Truth = nil, &drugcomb.Truth{}
	for i, p := range sc.Pairs {
		if p.CellLine == 0 {
			one.Pairs = append(one.Pairs, p)
			one.Truth.Mean = append(one.Truth.Mean, sc.Truth.Mean[i])
			one.Truth.NoiseVar = append(one.Truth.NoiseVar, sc.Truth.NoiseVar[i])
		}
	}
	f, _, err := features.Build(one.Drugs, features.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := model.NewDataset(&one, f, 0)
	if err != nil {
		t.Fatal(err)
	}
	split := drugcomb.SplitRandom(len(d.Pairs), [3]float64{0.4, 0.3, 0.3}, 1)
	m := model.NewDEUP(model.Config{Seed: 1, TowerHidden: 256, TowerOut: 128, LR: 1e-3, MaxEpochs: 200, Patience: 30})
	var last model.Progress
	if err := m.Fit(context.Background(), d, split, func(p model.Progress) {
		if !p.Done {
			last = p
		}
	}); err != nil {
		t.Fatal(err)
	}
	pairs := make([]model.Pair, len(split.Test))
	for k, i := range split.Test {
		pairs[k] = d.Pairs[i]
	}
	pred, err := m.Predict(f, pairs)
	if err != nil {
		t.Fatal(err)
	}
	var se, mean, v float64
	obs, exc, st, se2 := make([]float64, len(pairs)), make([]float64, len(pairs)), make([]float64, len(pairs)), make([]float64, len(pairs))
	for _, i := range split.Test {
		mean += d.Y[i]
	}
	mean /= float64(len(pairs))
	for k, i := range split.Test {
		r := pred[k].Mu - one.Truth.Mean[i]
		se += r * r
		v += (d.Y[i] - mean) * (d.Y[i] - mean)
		// The expected error of μ against a measured target: excess error
		// plus the noise of a mean of N replicates (what σ_total estimates).
		obs[k] = math.Sqrt(r*r + one.Truth.NoiseVar[i]/float64(d.N[i]))
		exc[k] = math.Abs(r)
		st[k], se2[k] = pred[k].SigmaTotal, pred[k].SigmaEpistemic
	}
	rmse, sd := math.Sqrt(se/float64(len(pairs))), math.Sqrt(v/float64(len(pairs)))
	cTot, cEpi := corr(st, obs), corr(se2, exc)
	t.Logf("epochs %d (best %d)", last.Epoch, last.BestEpoch)
	t.Logf("test RMSE vs truth %.2f, score sd %.2f; corr(σ_total, true expected error) %.3f; corr(σ_epistemic, |truth−μ|) %.3f; %s", rmse, sd, cTot, cEpi, m.AleatoricNote())
	if rmse > 0.5*sd {
		t.Errorf("test RMSE %.2f not far below the score sd %.2f", rmse, sd)
	}
	// Measured (seed 1): 0.07 (total) and 0.19 (epistemic): weak on this
	// screen, where σ_out learns from 270 validation pairs up to the best
	// epoch of μ; stronger on the toy screen (deup_test.go) and on PC-3.
	if cTot <= 0 || cEpi < 0.1 {
		t.Errorf("σ does not track the error: corr %.3f (total), %.3f (epistemic)", cTot, cEpi)
	}
}
