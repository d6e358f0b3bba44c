package deupnet

import (
	"context"
	"math"
	"testing"

	"github.com/deup-screening/deup/model"
)

// TestMuDropout: model.Config.Dropout trains μ with dropout after the
// combined layers (the predictions move from those without it) and
// leaves prediction deterministic (two Predict calls agree exactly);
// the fitted μ still follows the toy's noiseless truth (corr > 0.8).
func TestMuDropout(t *testing.T) {
	tp := makeToy(5, 12, 20, 5, 0.2)
	cfg := model.Config{TowerHidden: 32, TowerOut: 16, CombHidden: 64, SigmaHidden: 16, BatchSize: 32, MaxEpochs: 60, Patience: 60, LR: 3e-3, Seed: 7}
	fit := func(p float64) []model.Prediction {
		c := cfg
		c.Dropout = p
		m := New(Config{Config: c})
		if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
			t.Fatal(err)
		}
		a, err := m.Predict(tp.d.Features, tp.d.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := m.Predict(tp.d.Features, tp.d.Pairs)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("dropout %v: pair %d predicted %+v then %+v", p, i, a[i], b[i])
			}
		}
		return a
	}
	off, on := fit(0), fit(0.3)
	same := true
	mu := make([]float64, len(on))
	for i := range on {
		same = same && on[i].Mu == off[i].Mu
		mu[i] = on[i].Mu
	}
	if same {
		t.Error("Dropout 0.3 predicts exactly as no dropout")
	}
	if r := pearson(mu, tp.truth); !(r > 0.8) || math.IsNaN(r) {
		t.Errorf("corr(μ, truth) = %.3f with dropout 0.3, want > 0.8", r)
	}
}
