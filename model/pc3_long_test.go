package model_test

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
)

// TestPC3Convergence trains DEUP with the paper's settings on the real
// PC-3 screen (fingerprints, 40/30/30, seed 1) to convergence. It takes
// minutes, so it runs only with DEUP_LONG=1; TestPC3Short always runs a
// few epochs of the same pipeline.
func TestPC3Convergence(t *testing.T) {
	if os.Getenv("DEUP_LONG") == "" {
		t.Skip("set DEUP_LONG=1 to train on PC-3 to convergence")
	}
	r := trainPC3(t, model.Config{Seed: 1})
	t.Logf("PC-3: %d epochs (best %d), %.3f s/epoch; best val RMSE %.2f, test RMSE %.2f, score sd %.1f, corr(σ_total, |res|) %.3f",
		r.epochs, r.best, r.secPerEpoch, r.valRMSE, r.testRMSE, r.sd, r.corr)
	if r.testRMSE >= r.sd {
		t.Errorf("test RMSE %.2f not below the score sd %.1f", r.testRMSE, r.sd)
	}
	if r.corr < 0.1 {
		t.Errorf("corr(σ_total, |residual|) = %.3f, want > 0.1", r.corr)
	}
}

func TestPC3Short(t *testing.T) {
	r := trainPC3(t, model.Config{Seed: 1, MaxEpochs: 2, TowerHidden: 256, TowerOut: 128})
	if r.epochs != 2 || math.IsNaN(r.testRMSE) || math.IsNaN(r.corr) {
		t.Fatalf("%+v", r)
	}
}

type pc3Result struct {
	epochs, best                             int
	secPerEpoch, valRMSE, testRMSE, sd, corr float64
}

func trainPC3(t *testing.T, cfg model.Config) pc3Result {
	sc, d := loadPC3(t)
	split := drugcomb.SplitRandom(len(sc.Pairs), [3]float64{0.4, 0.3, 0.3}, 1)
	m := deupnet.New(deupnet.Config{Config: cfg})
	var last model.Progress
	bestVal := math.Inf(1)
	err := m.Fit(context.Background(), d, split, func(p model.Progress) {
		if !p.Done {
			last = p
			bestVal = math.Min(bestVal, p.ValRMSE)
			if os.Getenv("DEUP_LONG") != "" && p.Epoch%10 == 0 {
				t.Logf("epoch %d train %.3f out %.3f val RMSE %.2f best %d %v", p.Epoch, p.TrainLoss, p.OutLoss, p.ValRMSE, p.BestEpoch, p.Elapsed)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	pairs := make([]model.PairRef, len(split.Test))
	for k, i := range split.Test {
		pairs[k] = d.Pairs[i]
	}
	pred, err := m.Predict(d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	var se, mean, v float64
	res, sig := make([]float64, len(pairs)), make([]float64, len(pairs))
	for k, i := range split.Test {
		r := pred[k].Mu - d.Y[i]
		se += r * r
		res[k], sig[k] = math.Abs(r), pred[k].SigmaTotal
		mean += d.Y[i]
	}
	mean /= float64(len(pairs))
	for _, i := range split.Test {
		v += (d.Y[i] - mean) * (d.Y[i] - mean)
	}
	return pc3Result{epochs: last.Epoch, best: last.BestEpoch, secPerEpoch: last.Elapsed.Seconds() / float64(last.Epoch),
		valRMSE: bestVal, testRMSE: math.Sqrt(se / float64(len(pairs))), sd: math.Sqrt(v / float64(len(pairs))), corr: corr(sig, res)}
}

func corr(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}
