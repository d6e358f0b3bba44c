package due

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sigmaMax is the largest singular value of the in×out matrix w (gonum SVD).
func sigmaMax(w []float64, in, out int) float64 {
	var svd mat.SVD
	if !svd.Factorize(mat.NewDense(in, out, w), mat.SVDNone) {
		panic("svd failed")
	}
	return svd.Values(nil)[0]
}

func scaled(l *layer) []float64 {
	w := make([]float64, len(l.w))
	for i, v := range l.w {
		w[i] = l.scale * v
	}
	return w
}

// TestSpectralNormBound: a layer whose weights have a large spectrum is
// normalized to largest singular value coeff (DUE's soft bound), and one
// already below coeff is left alone.
func TestSpectralNormBound(t *testing.T) {
	cases := []struct {
		name       string
		in, out    int
		gain       float64
		coeff      float64
		wantScaled bool
	}{
		{"large weights, coeff 0.95", 40, 30, 5, 0.95, true},
		{"wide layer", 10, 60, 3, 0.95, true},
		{"coeff 3", 40, 30, 5, 3, true},
		{"already small", 40, 30, 0.05, 0.95, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			l := newLayer(c.in, c.out, c.coeff, rng)
			for i := range l.w {
				l.w[i] *= c.gain
			}
			truth := sigmaMax(l.w, c.in, c.out)
			// One power iteration per training step, as in training.
			for step := 0; step < 50; step++ {
				l.powerIterate(1)
			}
			// Power iteration converges like (sigma2/sigma1)^(2k); the
			// estimate u^T W v never exceeds the true value.
			if math.Abs(l.sigma-truth) > 1e-4*truth || l.sigma > truth*(1+1e-12) {
				t.Errorf("power-iteration sigma %g, SVD %g", l.sigma, truth)
			}
			got := sigmaMax(scaled(l), c.in, c.out)
			if c.wantScaled {
				if math.Abs(got-c.coeff) > 1e-4*c.coeff {
					t.Errorf("sigma_max(W_sn) = %g, want coeff %g", got, c.coeff)
				}
			} else if l.scale != 1 || got > c.coeff {
				t.Errorf("scale %g, sigma_max %g: a layer below the bound must be unchanged", l.scale, got)
			}
		})
	}
}

// TestSpectralNormGradient: finishSN's chain rule through sigma = u^T W v
// (u, v fixed) against finite differences of L(W) = <C, W_sn(W)>.
func TestSpectralNormGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	l := newLayer(6, 4, 0.95, rng)
	for i := range l.w {
		l.w[i] *= 4
	}
	l.powerIterate(20)
	C := make([]float64, len(l.w))
	for i := range C {
		C[i] = rng.NormFloat64()
	}
	loss := func() float64 {
		l.updateSigma()
		var s float64
		for i, w := range l.w {
			s += C[i] * l.scale * w
		}
		return s
	}
	loss()
	if l.scale == 1 {
		t.Fatal("test needs an active bound")
	}
	l.zeroGrad()
	copy(l.gw, C) // gradient with respect to W_sn
	l.finishSN()
	const h = 1e-6
	for i := range l.w {
		w0 := l.w[i]
		l.w[i] = w0 + h
		fp := loss()
		l.w[i] = w0 - h
		fm := loss()
		l.w[i] = w0
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-l.gw[i]) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("dL/dW[%d]: analytic %g, finite difference %g", i, l.gw[i], fd)
		}
	}
}

func smallConfig() Config {
	return Config{TowerHidden: 16, TowerOut: 12, CombHidden: 8, Embedding: 3, Inducing: 10, BatchSize: 16, MaxEpochs: 60, Patience: 15}
}

// randomSparse returns n binary "fingerprints" of dimension dim with about
// density*dim bits set.
func randomSparse(rng *rand.Rand, n, dim int, density float64) *Sparse {
	s := &Sparse{Dim: dim, RowPtr: []int{0}}
	for i := 0; i < n; i++ {
		for j := 0; j < dim; j++ {
			if rng.Float64() < density {
				s.Col = append(s.Col, int32(j))
				s.Val = append(s.Val, 1)
			}
		}
		s.RowPtr = append(s.RowPtr, len(s.Col))
	}
	return s
}

// TestNetworkGradientFiniteDifference: backward (including the spectral
// normalization of every layer) against finite differences of
// L = <R, F(W)>, with u and v fixed.
func TestNetworkGradientFiniteDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cfg := smallConfig().withDefaults()
	cfg.Coeff = 0.5 // small bound so every layer's normalization is active
	X := randomSparse(rng, 6, 20, 0.3)
	n := newNetwork(cfg, 20, 1)
	drugs := []int{0, 2, 3, 5}
	pa, pb := []int{0, 1, 2, 3, 0}, []int{1, 1, 3, 0, 2}
	p := n.forward(X, drugs, pa, pb, true, 5)
	for i, l := range n.layers() {
		if l.scale == 1 {
			t.Fatalf("layer %d: bound not active (sigma %g)", i, l.sigma)
		}
	}
	R := make([]float64, len(p.f))
	for i := range R {
		R[i] = rng.NormFloat64()
	}
	n.backward(X, p, R)
	loss := func() float64 {
		for _, l := range n.layers() {
			l.updateSigma()
		}
		q := n.run(X, drugs, pa, pb)
		var s float64
		for i, f := range q.f {
			s += R[i] * f
		}
		return s
	}
	const h = 1e-6
	for li, l := range n.layers() {
		for _, pr := range []struct {
			name string
			p, g []float64
		}{{"w", l.w, l.gw}, {"b", l.b, l.gb}} {
			for k := 0; k < 12; k++ {
				i := rng.IntN(len(pr.p))
				v0 := pr.p[i]
				pr.p[i] = v0 + h
				fp := loss()
				pr.p[i] = v0 - h
				fm := loss()
				pr.p[i] = v0
				fd := (fp - fm) / (2 * h)
				if math.Abs(fd-pr.g[i]) > 1e-5*math.Max(1, math.Abs(fd)) {
					t.Errorf("layer %d %s[%d]: analytic %g, finite difference %g", li, pr.name, i, pr.g[i], fd)
				}
			}
		}
	}
}

// synthetic builds a screen-like problem: 40 drugs with random sparse
// fingerprints, target = smooth function of the pair's summed fingerprint
// plus noise of sd 0.1.
func synthetic(seed uint64) (*Sparse, Pairs) {
	rng := rand.New(rand.NewPCG(seed, 9))
	const nd, dim = 40, 32
	X := randomSparse(rng, nd, dim, 0.2)
	wv := make([]float64, dim)
	for j := range wv {
		wv[j] = rng.NormFloat64()
	}
	score := make([]float64, nd)
	for i := 0; i < nd; i++ {
		for k := X.RowPtr[i]; k < X.RowPtr[i+1]; k++ {
			score[i] += wv[X.Col[k]]
		}
	}
	var p Pairs
	for a := 0; a < nd; a++ {
		for b := a + 1; b < nd; b++ {
			if rng.Float64() < 0.5 {
				s := score[a] + score[b]
				p.A = append(p.A, a)
				p.B = append(p.B, b)
				p.Y = append(p.Y, math.Sin(s/2)*2+0.1*rng.NormFloat64())
			}
		}
	}
	return X, p
}

func split(p Pairs, seed uint64) (train, val, test Pairs) {
	rng := rand.New(rand.NewPCG(seed, 10))
	perm := rng.Perm(p.Len())
	a, b := p.Len()*4/10, p.Len()*7/10
	return p.subset(perm[:a]), p.subset(perm[a:b]), p.subset(perm[b:])
}

// TestTrainLearnsSynthetic: DUE beats predicting the training mean on
// held-out pairs, its σ is finite and positive, and the same seed gives the
// same predictions.
func TestTrainLearnsSynthetic(t *testing.T) {
	X, all := synthetic(1)
	train, val, test := split(all, 2)
	cfg := smallConfig()
	var progressCalls int
	m, err := Train(context.Background(), cfg, X, train, val, func(Progress) { progressCalls++ })
	if err != nil {
		t.Fatal(err)
	}
	mean, vari, noise, err := m.Predict(X, test)
	if err != nil {
		t.Fatal(err)
	}
	ym, _ := meanStd(train.Y)
	var se, se0 float64
	for i := range mean {
		se += (mean[i] - test.Y[i]) * (mean[i] - test.Y[i])
		se0 += (ym - test.Y[i]) * (ym - test.Y[i])
		if s := vari[i] + noise; !(s > 0) || math.IsInf(s, 0) {
			t.Fatalf("pair %d: predictive variance %g", i, s)
		}
	}
	rmse, rmse0 := math.Sqrt(se/float64(len(mean))), math.Sqrt(se0/float64(len(mean)))
	t.Logf("test RMSE %.3f (mean predictor %.3f), noise sd %.3f, epochs %d (best %d)", rmse, rmse0, math.Sqrt(noise), m.Epochs(), m.BestEpoch())
	if rmse > 0.8*rmse0 {
		t.Errorf("test RMSE %g not clearly below the mean predictor's %g", rmse, rmse0)
	}
	if progressCalls != m.Epochs()+1 {
		t.Errorf("%d progress calls for %d epochs", progressCalls, m.Epochs())
	}
	m2, err := Train(context.Background(), cfg, X, train, val, nil)
	if err != nil {
		t.Fatal(err)
	}
	mean2, _, _, _ := m2.Predict(X, test)
	for i := range mean {
		if mean[i] != mean2[i] {
			t.Fatalf("same seed, different predictions at %d: %v vs %v", i, mean[i], mean2[i])
		}
	}
	// After training, every layer's normalized weight respects the bound
	// up to the lag of one power iteration per step.
	for i, l := range m.net.layers() {
		in, out := l.in, l.out
		if got := sigmaMax(scaled(l), in, out); got > cfg.withDefaults().Coeff*1.05 {
			t.Errorf("layer %d: sigma_max(W_sn) = %g above coeff", i, got)
		}
	}
}

func TestTrainRejectsBadInput(t *testing.T) {
	X, all := synthetic(1)
	train, val, _ := split(all, 2)
	bad := train.subset([]int{0, 1, 2})
	bad.A[1] = 99
	nan := train.subset([]int{0, 1, 2})
	nan.Y[2] = math.NaN()
	cases := []struct {
		name       string
		cfg        Config
		train, val Pairs
	}{
		{"drug out of range", smallConfig(), bad, val},
		{"nan target", smallConfig(), nan, val},
		{"unknown kernel", Config{Kernel: "cosine"}, train, val},
		{"one pair", smallConfig(), train.subset([]int{0}), val},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Train(context.Background(), c.cfg, X, c.train, c.val, nil); err == nil {
				t.Error("no error")
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Train(ctx, smallConfig(), X, train, val, nil); err != context.Canceled {
		t.Errorf("cancelled: err = %v", err)
	}
}

// TestEpistemicRevertsToPriorFarAway: inputs far from the training data
// (two extra "drugs" with every bit set at value 5, where training
// fingerprints are binary with ~20% of bits set) get a GP variance near
// the prior's and well above that of the training pairs. With a
// distance-preserving (spectrally normalized) extractor they cannot
// collapse onto the training features.
func TestEpistemicRevertsToPriorFarAway(t *testing.T) {
	X, all := synthetic(3)
	train, val, _ := split(all, 4)
	m, err := Train(context.Background(), smallConfig(), X, train, val, nil)
	if err != nil {
		t.Fatal(err)
	}
	far := &Sparse{Dim: X.Dim, RowPtr: append([]int(nil), X.RowPtr...), Col: append([]int32(nil), X.Col...), Val: append([]float32(nil), X.Val...)}
	for r := 0; r < 2; r++ {
		for j := 0; j < X.Dim; j++ {
			far.Col = append(far.Col, int32(j))
			far.Val = append(far.Val, 5)
		}
		far.RowPtr = append(far.RowPtr, len(far.Col))
	}
	n := X.NumRows()
	meanVar := func(X *Sparse, p Pairs) float64 {
		_, v, _, err := m.Predict(X, p)
		if err != nil {
			t.Fatal(err)
		}
		var s float64
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	vTrain := meanVar(X, train)
	vFar := meanVar(far, Pairs{A: []int{n, n, 0}, B: []int{n + 1, n, n + 1}})
	prior := m.SVGP().Kernel.Variance() * m.YScale * m.YScale
	t.Logf("GP variance: training pairs %.4g, far pairs %.4g, prior %.4g", vTrain, vFar, prior)
	if !(vFar > 2*vTrain) || vFar > prior*(1+1e-9) {
		t.Errorf("far pairs variance %g: want above 2x the training pairs' %g and at most the prior %g", vFar, vTrain, prior)
	}
}

// TestKernels: every kernel family trains to finite predictions.
func TestKernels(t *testing.T) {
	X, all := synthetic(1)
	train, val, test := split(all, 2)
	for _, k := range []string{"rbf", "matern12", "matern32", "matern52"} {
		t.Run(k, func(t *testing.T) {
			cfg := smallConfig()
			cfg.Kernel, cfg.MaxEpochs = k, 5
			m, err := Train(context.Background(), cfg, X, train, val, nil)
			if err != nil {
				t.Fatal(err)
			}
			mean, v, noise, err := m.Predict(X, test)
			if err != nil {
				t.Fatal(err)
			}
			for i := range mean {
				if math.IsNaN(mean[i]) || math.IsNaN(v[i]) || v[i] < 0 || !(noise > 0) {
					t.Fatalf("pair %d: mean %v var %v noise %v", i, mean[i], v[i], noise)
				}
			}
			if got := m.SVGP().Kernel.Family.String(); got != k {
				t.Errorf("kernel %s, want %s", got, k)
			}
		})
	}
}
