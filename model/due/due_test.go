package due

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deup-screening/deup/nn"
	"github.com/deup-screening/deup/uq"
	"gonum.org/v1/gonum/mat"
)

// sigmaMax is the largest singular value of the in×out matrix w (gonum SVD).
func sigmaMax(w []float32, scale float64, in, out int) float64 {
	d := make([]float64, len(w))
	for i, v := range w {
		d[i] = scale * float64(v)
	}
	var svd mat.SVD
	if !svd.Factorize(mat.NewDense(in, out, d), mat.SVDNone) {
		panic("svd failed")
	}
	return svd.Values(nil)[0]
}

func smallConfig() Config {
	return Config{TowerHidden: 16, TowerOut: 12, CombHidden: 8, Embedding: 3, Inducing: 10, BatchSize: 16, MaxEpochs: 60, Patience: 15}
}

// randomSparse returns n binary "fingerprints" of dimension dim with about
// density*dim bits set.
func randomSparse(rng *rand.Rand, n, dim int, density float64) *nn.CSR {
	s := &nn.CSR{Dim: dim, RowPtr: []int{0}}
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

// TestNetworkGradientFiniteDifference: the training graph's gradient of
// every weight and bias (through the sparse first layer, the spectral
// normalization of every layer, the pair sum, the residual block and the
// external loss) against central finite differences of the same graph's
// forward pass, for L = <R, F> with u and v fixed (evaluation mode), in
// float64.
func TestNetworkGradientFiniteDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cfg := smallConfig().withDefaults()
	cfg.Coeff = 0.5 // small bound so every layer's normalization is active
	X := randomSparse(rng, 6, 20, 0.3)
	n := newNetwork(cfg, 20, 1)
	n.refresh()
	for _, l := range n.l {
		if l.sn.Scale() == 1 {
			t.Fatalf("layer %s: bound not active (sigma %g)", l.name, l.sn.Sigma())
		}
	}
	drugs := []int{0, 2, 3, 5}
	pa, pb := []int{0, 1, 2, 3, 0}, []int{1, 1, 3, 0, 2}
	const b = 6 // one padding row
	R := make([]float64, b*cfg.Embedding)
	for i := range R[:len(pa)*cfg.Embedding] {
		R[i] = rng.NormFloat64()
	}
	var value float64
	inner := func(x []float64, rows, cols int, dx []float64) (float64, error) {
		value = 0
		for i := range x[:len(pa)*cols] {
			value += R[i] * x[i]
			dx[i] = R[i]
		}
		return value, nil
	}
	sg, err := n.buildGraph(nn.Float64, 5, b, inner)
	if err != nil {
		t.Fatal(err)
	}
	defer sg.close()
	sg.fill(X, drugs, pa, pb, nil)
	loss := func() float64 {
		if err := sg.g.Run(); err != nil {
			t.Fatal(err)
		}
		return value
	}
	loss()
	grads := make([][]float64, len(sg.grads))
	for i, g := range sg.grads {
		grads[i] = append([]float64(nil), g.Value().Data().([]float64)...)
	}
	const h = 1e-6
	for k, wt := range sg.wts {
		p := wt.Data().([]float64)
		for c := 0; c < 12; c++ {
			i := rng.IntN(len(p))
			v0 := p[i]
			p[i] = v0 + h
			fp := loss()
			p[i] = v0 - h
			fm := loss()
			p[i] = v0
			fd := (fp - fm) / (2 * h)
			if math.Abs(fd-grads[k][i]) > 1e-5*math.Max(1, math.Abs(fd)) {
				t.Errorf("layer %s %s[%d]: graph %g, finite difference %g", n.l[k/2].name, [2]string{"w", "b"}[k%2], i, grads[k][i], fd)
			}
		}
	}
	// The gradient tensors are reused (written in place) from run to
	// run: a later run gives the first run's gradients again.
	loss()
	for k, g := range sg.grads {
		for i, v := range g.Value().Data().([]float64) {
			if v != grads[k][i] {
				t.Fatalf("run %d: gradient %d[%d] = %v, first run %v", 2+2*12*len(sg.wts), k, i, v, grads[k][i])
			}
		}
	}
}

// TestInferenceMatchesGraph: the hand-written inference pass (per-drug
// projections, no graph) gives the float32 training graph's features up
// to float32 rounding.
func TestInferenceMatchesGraph(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cfg := Config{TowerHidden: 64, TowerOut: 32, CombHidden: 16, Embedding: 4}.withDefaults()
	X := randomSparse(rng, 30, 64, 0.2)
	n := newNetwork(cfg, 64, 3)
	n.refresh()
	var drugs, pa, pb []int
	for d := 0; d < 30; d += 2 {
		drugs = append(drugs, d)
	}
	for i := 0; i < 40; i++ {
		pa, pb = append(pa, rng.IntN(len(drugs))), append(pb, rng.IntN(len(drugs)))
	}
	zero := func(x []float64, rows, cols int, dx []float64) (float64, error) { return 0, nil }
	sg, err := n.buildGraph(nn.Float32, len(drugs)+3, 48, zero)
	if err != nil {
		t.Fatal(err)
	}
	defer sg.close()
	sg.fill(X, drugs, pa, pb, nil)
	if err := sg.g.Run(); err != nil {
		t.Fatal(err)
	}
	got := sg.feat.Tensor().Data().([]float32)
	want := make([]float64, len(pa)*cfg.Embedding)
	n.forward(X, drugs, pa, pb, nil, &infer{}, want)
	var scale float64
	for _, v := range want {
		scale = math.Max(scale, math.Abs(v))
	}
	for i, w := range want {
		if math.Abs(float64(got[i])-w) > 1e-5*scale {
			t.Fatalf("feature %d: graph %v, inference %v", i, got[i], w)
		}
	}
}

// synthetic builds a screen-like problem: 40 drugs with random sparse
// fingerprints, target = smooth function of the pair's summed fingerprint
// plus noise of sd 0.1.
func synthetic(seed uint64) (*nn.CSR, Pairs) {
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
	ym, _ := uq.MeanScale(train.Y)
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
	for _, l := range m.net.l {
		if got := sigmaMax(l.w, l.sn.Scale(), l.in, l.out); got > cfg.withDefaults().Coeff*1.05 {
			t.Errorf("layer %s: sigma_max(W_sn) = %g above coeff", l.name, got)
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
	far := &nn.CSR{Dim: X.Dim, RowPtr: append([]int(nil), X.RowPtr...), Col: append([]int32(nil), X.Col...), Val: append([]float32(nil), X.Val...)}
	for r := 0; r < 2; r++ {
		for j := 0; j < X.Dim; j++ {
			far.Col = append(far.Col, int32(j))
			far.Val = append(far.Val, 5)
		}
		far.RowPtr = append(far.RowPtr, len(far.Col))
	}
	n := X.NumRows()
	meanVar := func(X *nn.CSR, p Pairs) float64 {
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

// TestNoSpectralNorm: with Coeff < 0 the extractor is not normalized
// (scale 1 on every layer) and DUE still trains, saves and loads.
func TestNoSpectralNorm(t *testing.T) {
	d, split := syntheticDataset(t)
	cfg := smallConfig()
	cfg.Coeff, cfg.MaxEpochs = -1, 5
	m := New(cfg)
	if err := m.Fit(context.Background(), d, split, nil); err != nil {
		t.Fatal(err)
	}
	for _, l := range m.Model().net.l {
		if l.sn.Scale() != 1 || l.sn.U != nil {
			t.Errorf("layer %s: scale %v, u %v", l.name, l.sn.Scale(), l.sn.U)
		}
	}
	pairs := testPairs(d, split.Test)
	pred, err := m.Predict(d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.Predict(d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pred {
		if math.IsNaN(pred[i].Mu) || pred[i] != again[i] {
			t.Fatalf("pair %d: %+v, loaded %+v", i, pred[i], again[i])
		}
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
