package deupnet

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// TestNoveltyUnseenDrugs is the fast version of issue 29's experiment: a
// toy screen split as `deup bench --split-by drugs` splits (a quarter of the
// drugs held out; their pairs are test pairs only; train and validation a
// random split of the others, so D_out has no unseen drug). σ_epistemic
// must be larger on test pairs with two unseen drugs than on the
// validation pairs of two training drugs, by at least 2× with the novelty
// fold (the default) — the toy's μ errs far more on unseen drugs, which
// β learns — and the saved model must predict the same.
func TestNoveltyUnseenDrugs(t *testing.T) {
	tp := makeToy(21, 48, 96, 10, 0.2)
	rng := rand.New(rand.NewPCG(5, 5))
	var sp drugcomb.Split
	for i, p := range tp.d.Pairs {
		switch {
		case p.A%4 == 0 || p.B%4 == 0:
			sp.Test = append(sp.Test, i)
		case rng.Float64() < 0.35:
			sp.Val = append(sp.Val, i)
		default:
			sp.Train = append(sp.Train, i)
		}
	}
	// meanEpi is the mean σ_epistemic and the RMS error |y − μ| over the
	// pairs of idx with held unseen drugs.
	meanEpi := func(m *DEUP, idx []int, held int) (float64, float64) {
		var pairs []model.PairRef
		var ys []float64
		for _, i := range idx {
			p := tp.d.Pairs[i]
			n := 0
			if p.A%4 == 0 {
				n++
			}
			if p.B%4 == 0 {
				n++
			}
			if n == held {
				pairs = append(pairs, p)
				ys = append(ys, tp.d.Y[i])
			}
		}
		pred, err := m.Predict(tp.d.Features, pairs)
		if err != nil {
			t.Fatal(err)
		}
		s, se := 0.0, 0.0
		for k, p := range pred {
			// The split of the excess link (excess.go): σ_epistemic > 0
			// on every pair, σ_total² = σ_aleatoric² + σ_epistemic².
			if m.alea != nil && m.alea.linked() && !(p.SigmaEpistemic > 0) {
				t.Errorf("pair %v: σ_epistemic %v, want > 0", pairs[k], p.SigmaEpistemic)
			}
			if d := p.SigmaTotal*p.SigmaTotal - p.SigmaAleatoric*p.SigmaAleatoric - p.SigmaEpistemic*p.SigmaEpistemic; math.Abs(d) > 1e-9*p.SigmaTotal*p.SigmaTotal {
				t.Errorf("pair %v: σ_total² − σ_aleatoric² − σ_epistemic² = %v", pairs[k], d)
			}
			s += p.SigmaEpistemic
			se += (ys[k] - p.Mu) * (ys[k] - p.Mu)
		}
		return s / float64(len(pred)), math.Sqrt(se / float64(len(pred)))
	}
	for _, c := range []struct {
		holdout  float64
		minRatio float64
	}{{-1, 0}, {0, 2}} {
		cfg := toyConfig(1)
		cfg.NoveltyHoldout = c.holdout
		m := New(cfg)
		if err := m.Fit(context.Background(), tp.d, sp, nil); err != nil {
			t.Fatal(err)
		}
		if m.alea == nil || !m.alea.linked() {
			t.Fatalf("holdout %v: no excess link fitted (aleatoric %+v)", c.holdout, m.alea)
		}
		e0, r0 := meanEpi(m, sp.Val, 0)
		e2, r2 := meanEpi(m, sp.Test, 2)
		var beta [2]float64
		if m.nov != nil {
			beta = [2]float64{m.nov.Beta, m.nov.Beta2}
			t.Logf("novelty fold: D_out′ pairs by unseen count %v, mean r/r̄₀ %.3g", m.nov.Pairs, m.nov.Ratio)
		}
		t.Logf("holdout %v: β %.3g; mean σ_epistemic: validation pairs (0 unseen) %.3f, test pairs with 2 unseen %.3f (ratio %.2f); RMS error %.3f, %.3f (ratio %.2f)", c.holdout, beta, e0, e2, e2/e0, r0, r2, r2/r0)
		if c.minRatio > 0 && !(e2 >= c.minRatio*e0) {
			t.Errorf("holdout %v: σ_epistemic on 2-unseen pairs %.3f, on 0-unseen %.3f: want ≥ %g×", c.holdout, e2, e0, c.minRatio)
		}
		if c.holdout < 0 && m.nov != nil {
			t.Errorf("holdout off: novelty scale fitted")
		}
		if c.holdout >= 0 {
			var buf bytes.Buffer
			if err := m.Save(&buf); err != nil {
				t.Fatal(err)
			}
			got, err := Load(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if e, _ := meanEpi(got, sp.Test, 2); math.Abs(e-e2) > 1e-9*e2 {
				t.Errorf("loaded model: mean σ_epistemic %v, saved %v", e, e2)
			}
		}
	}
}

// TestLegacyAleatoricFile: a model file written before the pooled
// estimator holds the ridge regressor a(x) = max(0, wᵀh + c) and no
// novelty scale; it loads and predicts with them. With w = 0 and c = 0.25
// (standardized units), RepN 1: σ_aleatoric = min(√0.25·sd, σ_total).
func TestLegacyAleatoricFile(t *testing.T) {
	tp := makeToy(3, 16, 32, 6, 0.3)
	cfg := Config{Config: model.Config{TowerHidden: 7, TowerOut: 5, CombHidden: 4, SigmaHidden: 3, BatchSize: 6, MaxEpochs: 3, Patience: 2}}
	cfg.MaxEpochs, cfg.NoveltyHoldout = 3, -1
	m := New(cfg)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	m.alea = &aleatoric{W: make([]float64, m.cfg.CombHidden), C: 0.25, Pairs: 40, RepN: 1}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"w":[0,`)) || bytes.Contains(buf.Bytes(), []byte(`"novelty"`)) {
		t.Fatal("the file does not look like a legacy one")
	}
	got, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	pairs := tp.d.Pairs[:5]
	pred, err := got.Predict(tp.d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range pred {
		want := min(0.5*m.sd, p.SigmaTotal)
		if math.Abs(p.SigmaAleatoric-want) > 1e-12*want {
			t.Errorf("pair %d: σ_aleatoric %v, want %v", k, p.SigmaAleatoric, want)
		}
	}
	if n := got.AleatoricNote(); !strings.Contains(n, "ridge regressor on 40 replicated pairs") {
		t.Errorf("note %q", n)
	}
}
