package model

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"
)

func TestEnsembleIdenticalMembersZeroSigma(t *testing.T) {
	tp := makeToy(13, 10, 32, 6, 0.3)
	cfg := smallConfig()
	cfg.float64 = false
	for _, nll := range []bool{false, true} {
		e := NewEnsemble(cfg, 3, nll)
		e.feat, e.mean, e.sd, e.trained = tp.d.Features.Config, 1, 2, true
		for k := 0; k < 3; k++ {
			n := NewNetwork(e.cfg, 32, nll, 42) // same seed: identical members
			e.nets = append(e.nets, n)
			e.fwds = append(e.fwds, NewForwarder(n))
		}
		pred, err := e.Predict(tp.d.Features, tp.d.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range pred {
			if p.SigmaEpistemic != 0 {
				t.Fatalf("nll=%v pair %d: epistemic σ %v with identical members", nll, i, p.SigmaEpistemic)
			}
			if !nll && p.SigmaTotal != 0 {
				t.Fatalf("pair %d: σ %v with identical MSE members", i, p.SigmaTotal)
			}
		}
	}
}

// TestDropoutMaskRateAndScale: a fraction p of units is zeroed and the
// rest scaled by exactly 1/(1−p), so the mean activation is preserved.
func TestDropoutMaskRateAndScale(t *testing.T) {
	for _, p := range []float64{0.1, 0.5} {
		d := newDropout(p, 1)
		x := make([]float32, 200000)
		for i := range x {
			x[i] = 1
		}
		d.apply(x)
		zeros, sum := 0, 0.0
		for _, v := range x {
			switch {
			case v == 0:
				zeros++
			case v != float32(1/(1-p)):
				t.Fatalf("p=%v: kept unit scaled to %v, want %v", p, v, 1/(1-p))
			}
			sum += float64(v)
		}
		rate := float64(zeros) / float64(len(x))
		// Binomial sd of the rate: sqrt(p(1-p)/n) ≤ 0.0012; allow 5 sd.
		if math.Abs(rate-p) > 0.006 {
			t.Errorf("p=%v: drop rate %.4f", p, rate)
		}
		if mean := sum / float64(len(x)); math.Abs(mean-1) > 0.015 {
			t.Errorf("p=%v: mean activation %.4f, want 1", p, mean)
		}
	}
}

// TestBaselinesTrainAndRoundTrip trains each baseline on the toy screen:
// finite μ and σ, test RMSE well below the score sd, predictions
// independent of drug order and batch composition, Save/Load exact.
func TestBaselinesTrainAndRoundTrip(t *testing.T) {
	tp := makeToy(14, 40, 96, 10, 0.3)
	cfg := toyConfig(5)
	cfg.MaxEpochs = 60
	for _, m := range []Method{NewEnsemble(cfg, 3, false), NewEnsemble(cfg, 2, true), NewMCDropout(cfg, 0.1, 5)} {
		t.Run(m.Name(), func(t *testing.T) {
			var members = map[int]bool{}
			if err := m.Fit(context.Background(), tp.d, tp.split, func(p Progress) { members[p.Member] = true }); err != nil {
				t.Fatal(err)
			}
			test := make([]PairRef, len(tp.split.Test))
			for k, i := range tp.split.Test {
				test[k] = tp.d.Pairs[i]
			}
			pred, err := m.Predict(tp.d.Features, test)
			if err != nil {
				t.Fatal(err)
			}
			var se, ym, yv, ssig float64
			for _, i := range tp.split.Test {
				ym += tp.d.Y[i]
			}
			ym /= float64(len(test))
			for k, i := range tp.split.Test {
				p := pred[k]
				if math.IsNaN(p.Mu) || math.IsNaN(p.SigmaTotal) || p.SigmaTotal < 0 {
					t.Fatalf("pair %d: %+v", k, p)
				}
				se += (p.Mu - tp.truth[i]) * (p.Mu - tp.truth[i])
				yv += (tp.d.Y[i] - ym) * (tp.d.Y[i] - ym)
				ssig += p.SigmaTotal
			}
			rmse, sd := math.Sqrt(se/float64(len(test))), math.Sqrt(yv/float64(len(test)))
			t.Logf("test RMSE vs truth %.3f (score sd %.3f), mean σ %.3f, members seen %d", rmse, sd, ssig/float64(len(test)), len(members))
			if rmse > 0.6*sd || !(ssig > 0) {
				t.Errorf("RMSE %.3f vs sd %.3f, mean σ %v", rmse, sd, ssig)
			}
			// Order and batch independence.
			rev := make([]PairRef, len(test))
			for k, p := range test {
				rev[len(test)-1-k] = PairRef{A: p.B, B: p.A}
			}
			pr, _ := m.Predict(tp.d.Features, rev)
			one, _ := m.Predict(tp.d.Features, test[3:4])
			if pr[len(test)-1] != pred[0] || one[0] != pred[3] {
				t.Errorf("prediction depends on drug order or batch: %+v %+v %+v", pred[0], pr[len(test)-1], one[0])
			}
			var buf bytes.Buffer
			if err := m.Save(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := Load(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if back.Name() != m.Name() {
				t.Fatalf("loaded %s", back.Name())
			}
			again, err := back.Predict(tp.d.Features, test)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(again, pred) {
				t.Error("loaded model predicts differently")
			}
		})
	}
}

// TestEnsembleMembersJoined: the members of an ensemble trained apart
// (EnsembleMember, here at the same time on two goroutines) and joined
// (JoinEnsemble) predict exactly as the ensemble trained by Fit, MSE and
// NLL; progress events carry the member's index in the whole ensemble.
func TestEnsembleMembersJoined(t *testing.T) {
	tp := makeToy(15, 40, 96, 10, 0.3)
	cfg := toyConfig(6)
	cfg.MaxEpochs = 12
	test := make([]PairRef, len(tp.split.Test))
	for k, i := range tp.split.Test {
		test[k] = tp.d.Pairs[i]
	}
	for _, nll := range []bool{false, true} {
		whole := NewEnsemble(cfg, 3, nll)
		if err := whole.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
			t.Fatal(err)
		}
		want, err := whole.Predict(tp.d.Features, test)
		if err != nil {
			t.Fatal(err)
		}
		parts := make([]*DeepEnsemble, 3)
		errs := make([]error, 3)
		seen := make([][]int, 3)
		done := make(chan int)
		for k := range parts {
			parts[k] = EnsembleMember(cfg, 3, nll, k)
			go func() {
				errs[k] = parts[k].Fit(context.Background(), tp.d, tp.split, func(p Progress) {
					if p.Members != 3 {
						t.Errorf("member %d: progress with %d members, want 3", k, p.Members)
					}
					seen[k] = append(seen[k], p.Member)
				})
				done <- k
			}()
		}
		for range parts {
			<-done
		}
		for k, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
			if len(seen[k]) == 0 || slices.ContainsFunc(seen[k], func(m int) bool { return m != k }) {
				t.Errorf("member %d: progress member indices %v", k, seen[k])
			}
		}
		if _, err := JoinEnsemble(parts[0], NewEnsemble(cfg, 1, nll)); err == nil {
			t.Error("joined an untrained part")
		}
		joined, err := JoinEnsemble(parts...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := joined.Predict(tp.d.Features, test)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("nll=%v: joined members predict differently from the whole ensemble:\n%+v\n%+v", nll, got[:2], want[:2])
		}
	}
}
