package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/deup-screening/deup/uq"
)

// refX, refY: the small 2-D problem whose reference values were computed
// with numpy 1.24.2 / scipy 1.10.1 (scipy.spatial.distance.cdist,
// scipy.linalg.cho_factor/cho_solve), signal variance 1.3, ARD lengthscales
// (0.6, 1.7), noise variance 0.05.
var (
	refX  = mat.NewDense(5, 2, []float64{0.1, 0.2, 0.4, -0.3, 1.0, 0.5, -0.7, 0.9, 0.3, 0.3})
	refY  = []float64{0.5, -1.2, 0.3, 2.0, 0.1}
	refXs = [][]float64{{0.2, 0.1}, {2.0, -1.0}}
)

var refCases = []struct {
	fam  Family
	lml  float64
	mean [2]float64
	vari [2]float64
}{
	{RBF, -8.077786782532058, [2]float64{-0.007808155592510633, 0.15810285111782135}, [2]float64{0.022004969104189698, 1.2525074193934087}},
	{Matern12, -7.495075171902922, [2]float64{0.10038345825090951, 0.010108729321805631}, [2]float64{0.26794293640149136, 1.2706545210058657}},
	{Matern32, -7.564340245680741, [2]float64{0.06053616970741963, 0.035511416758200916}, [2]float64{0.049165939738909925, 1.265792200159342}},
	{Matern52, -7.696081564458305, [2]float64{0.02997664774024031, 0.055109085306023466}, [2]float64{0.030702580651914557, 1.2636988323908587}},
}

func TestPosteriorAgainstScipy(t *testing.T) {
	for _, c := range refCases {
		t.Run(c.fam.String(), func(t *testing.T) {
			k := NewARDKernel(c.fam, 1.3, []float64{0.6, 1.7})
			g, err := New(k, math.Log(0.05), refX, refY, false)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.LogMarginalLikelihood(); math.Abs(got-c.lml) > 1e-10 {
				t.Errorf("lml = %.15g, scipy %.15g", got, c.lml)
			}
			lml, err := LogMarginalLikelihood(k, math.Log(0.05), refX, refY, nil)
			if err != nil || math.Abs(lml-c.lml) > 1e-10 {
				t.Errorf("LogMarginalLikelihood = %.15g, %v; scipy %.15g", lml, err, c.lml)
			}
			for i, x := range refXs {
				m, v := g.Predict(x)
				if math.Abs(m-c.mean[i]) > 1e-10 || math.Abs(v-c.vari[i]) > 1e-10 {
					t.Errorf("x=%v: mean, var = %.15g, %.15g; scipy %.15g, %.15g", x, m, v, c.mean[i], c.vari[i])
				}
			}
		})
	}
}

// TestPosteriorClosedForm checks R&W 2006 eq. 2.25-2.26 on a problem solved
// by hand: RBF, s2 = 1, l = 1, noise 0.1, X = {0, 1}, y = {1, -1}. With
// c = exp(-1/2), K + s2n I = [[1.1, c], [c, 1.1]], (K + s2n I)^-1 y =
// [1, -1] / (1.1 - c). At x* = 0.5, k* = exp(-1/8) [1, 1]: the mean is 0 by
// symmetry and the variance 1 - 2 exp(-1/4) / (1.1 + c). At x* = 0,
// k* = [1, c]: mean (1 - c)/(1.1 - c), variance
// 1 - (1.1 - 2c^2 + 1.1 c^2) / (1.21 - c^2).
func TestPosteriorClosedForm(t *testing.T) {
	c := math.Exp(-0.5)
	X := mat.NewDense(2, 1, []float64{0, 1})
	g, err := New(NewKernel(RBF, 1, 1), math.Log(0.1), X, []float64{1, -1}, false)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		x          float64
		mean, vari float64
	}{
		{"midpoint", 0.5, 0, 1 - 2*math.Exp(-0.25)/(1.1+c)},
		{"at x1", 0, (1 - c) / (1.1 - c), 1 - (1.1-2*c*c+1.1*c*c)/(1.21-c*c)},
		{"far", 50, 0, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, v := g.Predict([]float64{tc.x})
			if math.Abs(m-tc.mean) > 1e-12 || math.Abs(v-tc.vari) > 1e-12 {
				t.Errorf("mean, var = %.15g, %.15g; want %.15g, %.15g", m, v, tc.mean, tc.vari)
			}
		})
	}
	// log p(y) = -1/2 y^T K^-1 y - 1/2 log det K - log 2 pi, with
	// y^T K^-1 y = 2/(1.1 - c) and det K = 1.21 - c^2.
	want := -1/(1.1-c) - 0.5*math.Log(1.21-c*c) - math.Log(2*math.Pi)
	if got := g.LogMarginalLikelihood(); math.Abs(got-want) > 1e-12 {
		t.Errorf("lml = %.15g, want %.15g", got, want)
	}
}

func TestStandardizeMatchesManualScaling(t *testing.T) {
	// Standardized GP on y equals an unstandardized GP on (y - m)/s,
	// mapped back: mean*s + m, var*s^2, lml - n log s.
	k := NewARDKernel(Matern52, 1.3, []float64{0.6, 1.7})
	y := []float64{10.5, 3.2, 8.1, 20.0, 9.9}
	g, err := New(k, math.Log(0.05), refX, y, true)
	if err != nil {
		t.Fatal(err)
	}
	m, s := uq.MeanScale(y)
	ys := make([]float64, len(y))
	for i := range y {
		ys[i] = (y[i] - m) / s
	}
	h, err := New(k, math.Log(0.05), refX, ys, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range refXs {
		gm, gv := g.Predict(x)
		hm, hv := h.Predict(x)
		if math.Abs(gm-(hm*s+m)) > 1e-10 || math.Abs(gv-hv*s*s) > 1e-10 {
			t.Errorf("x=%v: standardized %g, %g; manual %g, %g", x, gm, gv, hm*s+m, hv*s*s)
		}
	}
	if d := g.LogMarginalLikelihood() - (h.LogMarginalLikelihood() - 5*math.Log(s)); math.Abs(d) > 1e-10 {
		t.Errorf("lml differs by %g", d)
	}
	if math.Abs(g.Noise()-0.05*s*s) > 1e-12 {
		t.Errorf("Noise = %g, want %g", g.Noise(), 0.05*s*s)
	}
}

func TestLMLGradientFiniteDifference(t *testing.T) {
	for _, fam := range []Family{RBF, Matern12, Matern32, Matern52} {
		for _, ard := range []bool{false, true} {
			name := fam.String()
			if ard {
				name += "/ard"
			}
			t.Run(name, func(t *testing.T) {
				k := NewKernel(fam, 1.3, 0.8)
				if ard {
					k = NewARDKernel(fam, 1.3, []float64{0.6, 1.7})
				}
				logNoise := math.Log(0.05)
				grad := make([]float64, k.NumParams()+1)
				if _, err := LogMarginalLikelihood(k, logNoise, refX, refY, grad); err != nil {
					t.Fatal(err)
				}
				p := append(k.Params(nil), logNoise)
				f := func(p []float64) float64 {
					kk := k.Clone()
					kk.SetParams(p[:len(p)-1])
					v, err := LogMarginalLikelihood(kk, p[len(p)-1], refX, refY, nil)
					if err != nil {
						t.Fatal(err)
					}
					return v
				}
				checkGrad(t, f, p, grad, 1e-6)
			})
		}
	}
}

func TestPredictGradFiniteDifference(t *testing.T) {
	for _, fam := range []Family{RBF, Matern12, Matern32, Matern52} {
		t.Run(fam.String(), func(t *testing.T) {
			g, err := New(NewARDKernel(fam, 1.3, []float64{0.6, 1.7}), math.Log(0.05), refX, []float64{10.5, 3.2, 8.1, 20.0, 9.9}, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range [][]float64{{0.2, 0.1}, {-0.3, 0.4}, {1.5, 1.5}} {
				dm, dv := make([]float64, 2), make([]float64, 2)
				g.PredictGrad(x, dm, dv)
				checkGrad(t, func(x []float64) float64 { m, _ := g.Predict(x); return m }, x, dm, 1e-6)
				checkGrad(t, func(x []float64) float64 { _, v := g.Predict(x); return v }, x, dv, 1e-6)
			}
		})
	}
}

// TestJitterOnDuplicates: noise-free data with a repeated input makes
// K singular; New must add jitter and still interpolate.
func TestJitterOnDuplicates(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 0.5, 0.5, 1})
	y := []float64{1, 2, 2, 0}
	g, err := New(NewKernel(RBF, 1, 0.5), math.Inf(-1), X, y, false)
	if err != nil {
		t.Fatal(err)
	}
	if !(g.Jitter > 0) || g.Jitter > 1e-3 {
		t.Fatalf("jitter = %g, want in (0, 1e-3]", g.Jitter)
	}
	m, v := g.Predict([]float64{0.5})
	if math.Abs(m-2) > 1e-3 || v > 1e-3 || v < 0 {
		t.Errorf("at duplicated input: mean %g var %g, want ~2, ~0", m, v)
	}
	// Without duplicates and with noise, no jitter is needed.
	g2, err := New(NewKernel(RBF, 1, 0.5), math.Log(0.01), X, y, false)
	if err != nil {
		t.Fatal(err)
	}
	if g2.Jitter != 0 {
		t.Errorf("jitter with noise = %g, want 0", g2.Jitter)
	}
	// A matrix that no jitter can fix reports ErrNotPositiveDefinite.
	bad := Kernel{Family: RBF, LogVariance: math.Inf(-1), LogLengthscales: []float64{0}}
	if _, err := New(bad, math.Inf(-1), X, y, false); !errors.Is(err, ErrNotPositiveDefinite) {
		t.Errorf("zero-variance kernel: err = %v, want ErrNotPositiveDefinite", err)
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	k := NewKernel(RBF, 1, 1)
	cases := []struct {
		name string
		X    *mat.Dense
		y    []float64
	}{
		{"length mismatch", mat.NewDense(2, 1, []float64{0, 1}), []float64{1}},
		{"nan input", mat.NewDense(2, 1, []float64{0, math.NaN()}), []float64{1, 2}},
		{"inf target", mat.NewDense(2, 1, []float64{0, 1}), []float64{1, math.Inf(1)}},
		{"lengthscales", mat.NewDense(2, 3, []float64{0, 1, 2, 3, 4, 5}), []float64{1, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kk := k
			if c.name == "lengthscales" {
				kk = NewARDKernel(RBF, 1, []float64{1, 1})
			}
			if _, err := New(kk, 0, c.X, c.y, false); err == nil {
				t.Error("no error")
			}
			if _, err := Fit(c.X, c.y, FitConfig{}); err == nil && c.name != "lengthscales" {
				t.Error("Fit: no error")
			}
		})
	}
}

// sampleGP draws n inputs uniformly in [0, width) and a function from the GP
// prior with kernel k at them, plus Gaussian noise of variance noise.
func sampleGP(t testing.TB, k Kernel, noise float64, n, d int, width float64, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, rng.Float64()*width)
		}
	}
	K := k.SymMatrix(X)
	var chol mat.Cholesky
	if _, err := factorize(&chol, K, noise); err != nil {
		t.Fatal(err)
	}
	var L mat.TriDense
	chol.LTo(&L)
	z := make([]float64, n)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	var y mat.VecDense
	y.MulVec(&L, mat.NewVecDense(n, z))
	return X, y.RawVector().Data
}

// TestFitRecoversLengthscale: data drawn from a Matern-5/2 GP with known
// hyperparameters; the marginal-likelihood fit must recover the lengthscale
// within 25% and the noise within a factor of 2 (n = 150 points over ~8
// lengthscales).
func TestFitRecoversLengthscale(t *testing.T) {
	for _, tc := range []struct {
		name string
		ard  bool
	}{{"isotropic", false}, {"ard", true}} {
		t.Run(tc.name, func(t *testing.T) {
			truth := NewKernel(Matern52, 2, 1.3)
			X, y := sampleGP(t, truth, 0.01, 150, 1, 10, 7)
			g, err := Fit(X, y, FitConfig{Family: Matern52, ARD: tc.ard, Restarts: 3, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			l := math.Exp(g.Kernel.LogLengthscales[0])
			t.Logf("fitted lengthscale %.4g, signal variance %.4g, noise %.4g", l, g.Kernel.Variance(), g.Noise())
			if math.Abs(l-1.3)/1.3 > 0.25 {
				t.Errorf("lengthscale = %g, truth 1.3", l)
			}
			if nz := g.Noise(); nz < 0.005 || nz > 0.02 {
				t.Errorf("noise = %g, truth 0.01", nz)
			}
			// The optimum is a stationary point: the gradient vanishes
			// (up to the optimizer's tolerance) at the fitted values.
			grad := make([]float64, g.Kernel.NumParams()+1)
			if _, err := LogMarginalLikelihood(g.Kernel, g.LogNoise, X, y, grad); err != nil {
				t.Fatal(err)
			}
			for i, v := range grad {
				if math.Abs(v) > 1e-2 {
					t.Errorf("gradient[%d] = %g at the optimum", i, v)
				}
			}
		})
	}
}

func TestFitDeterministic(t *testing.T) {
	X, y := sampleGP(t, NewKernel(RBF, 1, 0.5), 0.05, 30, 2, 3, 3)
	cfg := FitConfig{Family: Matern32, ARD: true, Standardize: true, Restarts: 2, Seed: 9}
	a, err := Fit(X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.LogMarginalLikelihood() != b.LogMarginalLikelihood() {
		t.Errorf("same seed, different fits: %v vs %v", a.LogMarginalLikelihood(), b.LogMarginalLikelihood())
	}
	// Restarts never make the fit worse than the default start alone.
	c, err := Fit(X, y, FitConfig{Family: Matern32, ARD: true, Standardize: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.LogMarginalLikelihood() < c.LogMarginalLikelihood()-1e-9 {
		t.Errorf("with restarts lml %v < without %v", a.LogMarginalLikelihood(), c.LogMarginalLikelihood())
	}
}

// TestFitWarmStart: a warm start from a previous fit on the same data
// ends at least as high, and a mismatched warm start is an error.
func TestFitWarmStart(t *testing.T) {
	X, y := sampleGP(t, NewKernel(Matern52, 1, 0.5), 0.05, 40, 2, 3, 6)
	cfg := FitConfig{Family: Matern52, ARD: true, Standardize: true, Restarts: 2, Seed: 3}
	a, err := Fit(X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Warm, cfg.Restarts = a, 0
	b, err := Fit(X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if b.LogMarginalLikelihood() < a.LogMarginalLikelihood()-1e-6 {
		t.Errorf("warm-started lml %v below the warm start's %v", b.LogMarginalLikelihood(), a.LogMarginalLikelihood())
	}
	cfg.ARD = false
	if _, err := Fit(X, y, cfg); err == nil {
		t.Error("isotropic fit warm-started from an ARD GP: no error")
	}
}

func TestFitFixedNoise(t *testing.T) {
	X, y := sampleGP(t, NewKernel(RBF, 1, 0.5), 0.05, 20, 1, 3, 4)
	g, err := Fit(X, y, FitConfig{FixedNoise: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(g.Noise()-0.3) > 1e-12 {
		t.Errorf("noise = %g, want 0.3 (fixed)", g.Noise())
	}
}

// checkGrad compares grad with central finite differences of f at x,
// relative to max(1, |grad|).
func checkGrad(t *testing.T, f func([]float64) float64, x, grad []float64, tol float64) {
	t.Helper()
	const h = 1e-6
	for i := range x {
		xp := append([]float64(nil), x...)
		xm := append([]float64(nil), x...)
		xp[i] += h
		xm[i] -= h
		fd := (f(xp) - f(xm)) / (2 * h)
		if d := math.Abs(fd - grad[i]); d > tol*math.Max(1, math.Abs(fd)) {
			t.Errorf("d/dx[%d]: analytic %.10g, finite difference %.10g", i, grad[i], fd)
		}
	}
}
