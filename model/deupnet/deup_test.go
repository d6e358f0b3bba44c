package deupnet

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/deup-screening/deup/model"
)

func toyConfig(seed uint64) Config {
	return Config{Config: model.Config{TowerHidden: 96, TowerOut: 48, CombHidden: 32, SigmaHidden: 32, LR: 1e-3, BatchSize: 64, MaxEpochs: 150, Patience: 30, Seed: seed}}
}

// TestDEUPRecoversToyTruth trains on a screen with a known truth: the test
// RMSE of μ against the noiseless truth must be far below the score sd,
// and σ_total must track the true error.
func TestDEUPRecoversToyTruth(t *testing.T) {
	tp := makeToy(7, 60, 128, 12, 0.3)
	m := New(toyConfig(1))
	var last model.Progress
	if err := m.Fit(context.Background(), tp.d, tp.split, func(p model.Progress) { last = p }); err != nil {
		t.Fatal(err)
	}
	if !last.Done || last.BestEpoch == 0 {
		t.Fatalf("last progress %+v", last)
	}
	pairs := make([]model.PairRef, len(tp.split.Test))
	for k, i := range tp.split.Test {
		pairs[k] = tp.d.Pairs[i]
	}
	pred, err := m.Predict(tp.d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	var se, ym, yv float64
	absTrue := make([]float64, len(pairs))
	sig := make([]float64, len(pairs))
	for _, i := range tp.split.Test {
		ym += tp.d.Y[i]
	}
	ym /= float64(len(pairs))
	var sigNoise, trueNoise float64
	for k, i := range tp.split.Test {
		r := pred[k].Mu - tp.truth[i]
		se += r * r
		yv += (tp.d.Y[i] - ym) * (tp.d.Y[i] - ym)
		absTrue[k] = math.Abs(pred[k].Mu - tp.d.Y[i])
		sig[k] = pred[k].SigmaTotal
		if pred[k].SigmaTotal < pred[k].SigmaEpistemic || pred[k].SigmaTotal < pred[k].SigmaAleatoric {
			t.Fatalf("pair %d: %+v", k, pred[k])
		}
		sigNoise += pred[k].SigmaAleatoric * pred[k].SigmaAleatoric
		trueNoise += tp.noise[i] / float64(tp.d.N[i])
	}
	rmse := math.Sqrt(se / float64(len(pairs)))
	sd := math.Sqrt(yv / float64(len(pairs)))
	corr := pearson(sig, absTrue)
	t.Logf("epochs %d (best %d), test RMSE vs truth %.3f, score sd %.3f, corr(σ_total,|res|) %.3f, mean σ_alea² %.4f vs true %.4f; %s",
		last.Epoch, last.BestEpoch, rmse, sd, corr, sigNoise/float64(len(pairs)), trueNoise/float64(len(pairs)), m.AleatoricNote())
	if rmse > 0.4*sd { // measured 0.35·sd (gonum+AVX2 and OpenBLAS builds)
		t.Errorf("test RMSE %.3f not far below score sd %.3f", rmse, sd)
	}
	if corr < 0.2 {
		t.Errorf("corr(σ_total, |residual|) = %.3f, want ≥ 0.2", corr)
	}
	// The pooled aleatoric estimate: mean a(x) (one measurement) over the
	// test pairs within 25 % of the mean true noise variance (the
	// replicate sample variances it pools are unbiased for it).
	actx := m.alea.context()
	var aSum, nSum float64
	for k, i := range tp.split.Test {
		aSum += actx.pair(tp.d.Features, pairs[k].A, pairs[k].B, pairs[k].Line) * m.sd * m.sd
		nSum += tp.noise[i]
	}
	t.Logf("mean a(x) %.4f, mean true noise variance %.4f", aSum/float64(len(pairs)), nSum/float64(len(pairs)))
	if r := aSum / nSum; r < 0.75 || r > 1.25 {
		t.Errorf("mean a(x) / mean noise variance = %.3f, want within [0.75, 1.25]", r)
	}
	// Calibration of the scale: mean σ_total² within a factor 2 of the mean squared residual.
	var ms, mr float64
	for k := range sig {
		ms += sig[k] * sig[k]
		mr += absTrue[k] * absTrue[k]
	}
	if ratio := ms / mr; ratio < 0.5 || ratio > 2 {
		t.Errorf("mean σ_total² / mean residual² = %.3f, want within [0.5, 2]", ratio)
	}
}

// TestSameSeedSameNumbers: training twice with one seed gives identical
// predictions; another seed differs.
func TestSameSeedSameNumbers(t *testing.T) {
	tp := makeToy(8, 20, 64, 8, 0.3)
	run := func(seed uint64) []model.Prediction {
		cfg := toyConfig(seed)
		cfg.MaxEpochs = 3
		m := New(cfg)
		if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(tp.d.Features, tp.d.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b, c := run(5), run(5), run(6)
	if !slices.Equal(a, b) {
		t.Error("same seed, different predictions")
	}
	if slices.Equal(a, c) {
		t.Error("different seeds, same predictions")
	}
}

// TestPermutationInvariance: (a,b) and (b,a) give bit-identical outputs.
func TestPermutationInvariance(t *testing.T) {
	tp := makeToy(9, 15, 64, 8, 0.3)
	cfg := toyConfig(3)
	cfg.MaxEpochs = 2
	m := New(cfg)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	var ab, ba []model.PairRef
	for _, p := range tp.d.Pairs {
		ab = append(ab, p)
		ba = append(ba, model.PairRef{A: p.B, B: p.A})
	}
	x, err := m.Predict(tp.d.Features, ab)
	if err != nil {
		t.Fatal(err)
	}
	y, err := m.Predict(tp.d.Features, ba)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x, y) {
		t.Error("predictions depend on the order of the drugs")
	}
}

func TestFitCancellation(t *testing.T) {
	tp := makeToy(11, 20, 64, 8, 0.3)
	ctx, cancel := context.WithCancel(context.Background())
	m := New(toyConfig(1))
	err := m.Fit(ctx, tp.d, tp.split, func(p model.Progress) {
		if p.Epoch == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if _, err := m.Predict(tp.d.Features, tp.d.Pairs[:1]); err == nil {
		t.Error("predict after cancelled fit succeeded")
	}
}

// TestPredictWorkersSameNumbers: a large prediction, shared among
// GOMAXPROCS goroutines (here 3, so one part is not a half), gives the
// numbers of the same pairs predicted in small single-worker calls, bit
// for bit.
func TestPredictWorkersSameNumbers(t *testing.T) {
	tp := makeToy(12, 20, 64, 8, 0.3)
	cfg := toyConfig(2)
	cfg.MaxEpochs = 2
	m := New(cfg)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	var pairs []model.PairRef
	for len(pairs) < 5000 {
		for a := 0; a < 20; a++ {
			for b := 0; b < 20; b++ {
				pairs = append(pairs, model.PairRef{A: a, B: (a + b + len(pairs)) % 20})
			}
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	all, err := m.Predict(tp.d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < len(pairs); lo += 500 {
		hi := min(lo+500, len(pairs))
		part, err := m.Predict(tp.d.Features, pairs[lo:hi])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(part, all[lo:hi]) {
			t.Fatalf("pairs %d..%d differ between the shared and the single-worker prediction", lo, hi)
		}
	}
}

// TestAleatoricNote: the replicate count of the targets is said only when
// it says something (PC-3: 34 replicated pairs among 1440, RepN about 1.02,
// once printed as "means of 1 replicates").
func TestAleatoricNote(t *testing.T) {
	legacy := "aleatoric from replicate variance (ridge regressor on 34 replicated pairs"
	pooled := "aleatoric from replicate variance pooled with empirical-Bayes shrinkage (34 replicated pairs, 30 df; screen sd 0.5, prior df 4; 0 drugs with their own moderated variance"
	tests := []struct {
		name string
		alea aleatoric
		want string
	}{
		{"legacy RepN 1", aleatoric{Pairs: 34, RepN: 1, W: []float64{1}}, legacy + ")"},
		{"legacy RepN 1.02", aleatoric{Pairs: 34, RepN: 1.02, W: []float64{1}}, legacy + ")"},
		{"legacy RepN 2.5", aleatoric{Pairs: 34, RepN: 2.5, W: []float64{1}}, legacy + "; targets are means of 2.5 replicates)"},
		{"pooled RepN 1.02", aleatoric{Pairs: 34, RepN: 1.02, DF: 30, S0: 0.25, PriorDF: 4}, pooled + ")"},
		{"pooled RepN 2.5", aleatoric{Pairs: 34, RepN: 2.5, DF: 30, S0: 0.25, PriorDF: 4}, pooled + "; targets are means of 2.5 replicates)"},
	}
	for _, tt := range tests {
		m := &DEUP{alea: &tt.alea, sd: 1}
		if got := m.AleatoricNote(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
