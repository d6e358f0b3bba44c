package gp

import (
	"github.com/deup-screening/deup/nn/optim"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randDense(rng *rand.Rand, r, c int, scale float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range m.RawMatrix().Data {
		m.RawMatrix().Data[i] = scale * rng.NormFloat64()
	}
	return m
}

// randomSVGP returns an SVGP with M random inducing points in d dimensions
// and a random (non-prior) q.
func randomSVGP(rng *rand.Rand, fam Family, M, d int, ard bool) *SVGP {
	k := NewKernel(fam, 1.4, 0.9)
	if ard {
		ls := make([]float64, d)
		for i := range ls {
			ls[i] = 0.6 + 0.4*float64(i)
		}
		k = NewARDKernel(fam, 1.4, ls)
	}
	s := NewSVGP(k, math.Log(0.2), randDense(rng, M, d, 1))
	s.Mean = 0.3
	for i := range s.QMean {
		s.QMean[i] = rng.NormFloat64()
	}
	for i := 0; i < M; i++ {
		for j := 0; j < i; j++ {
			s.QSqrt.SetTri(i, j, 0.2*rng.NormFloat64())
		}
		s.QSqrt.SetTri(i, i, 0.5+0.5*rng.Float64())
	}
	return s
}

func TestSVGPELBOGradientsFiniteDifference(t *testing.T) {
	for _, fam := range families {
		for _, ard := range []bool{false, true} {
			name := fam.String()
			if ard {
				name += "/ard"
			}
			t.Run(name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(11, uint64(fam)))
				const M, d, B, n = 5, 3, 7, 20
				s := randomSVGP(rng, fam, M, d, ard)
				X := randDense(rng, B, d, 1)
				y := make([]float64, B)
				for i := range y {
					y[i] = math.Sin(X.At(i, 0)) + 0.3*rng.NormFloat64()
				}
				grad := make([]float64, s.NumParams())
				dX := mat.NewDense(B, d, nil)
				e0, err := s.ELBO(X, y, n, grad, dX)
				if err != nil {
					t.Fatal(err)
				}
				if e1, _ := s.ELBO(X, y, n, nil, nil); e1 != e0 {
					t.Errorf("ELBO with and without gradients differ: %v vs %v", e0, e1)
				}
				p0 := s.Params(nil)
				checkGrad(t, func(p []float64) float64 {
					c := randomSVGP(rand.New(rand.NewPCG(0, 0)), fam, M, d, ard)
					c.SetParams(p)
					v, err := c.ELBO(X, y, n, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					return v
				}, p0, grad, 1e-5)
				checkGrad(t, func(x []float64) float64 {
					v, err := s.ELBO(mat.NewDense(B, d, x), y, n, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					return v
				}, append([]float64(nil), X.RawMatrix().Data...), dX.RawMatrix().Data, 1e-5)
			})
		}
	}
}

func TestSVGPParamsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	s := randomSVGP(rng, Matern32, 4, 2, true)
	p := s.Params(nil)
	if len(p) != s.NumParams() {
		t.Fatalf("len(Params) = %d, NumParams = %d", len(p), s.NumParams())
	}
	l := s.Layout()
	if want := 3 + 1 + 1 + 4 + 10 + 8; l.End != want {
		t.Errorf("layout end %d, want %d", l.End, want)
	}
	u := randomSVGP(rng, Matern32, 4, 2, true)
	u.SetParams(p)
	q := u.Params(nil)
	for i := range p {
		if p[i] != q[i] {
			t.Fatalf("param %d: %v != %v", i, p[i], q[i])
		}
	}
}

// TestSVGPMatchesExactGP: with the inducing inputs at the training inputs
// and q at its optimum, the SVGP's posterior equals the exact GP's and the
// ELBO equals the log marginal likelihood (Titsias 2009: the bound is tight
// when Z = X), up to the 1e-6 relative jitter of Kzz.
func TestSVGPMatchesExactGP(t *testing.T) {
	for _, fam := range families {
		t.Run(fam.String(), func(t *testing.T) {
			k := NewARDKernel(fam, 1.3, []float64{0.6, 1.7})
			logNoise := math.Log(0.05)
			g, err := New(k, logNoise, refX, refY, false)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSVGP(k, logNoise, refX)
			if err := s.SetOptimalQ(refX, refY); err != nil {
				t.Fatal(err)
			}
			elbo, err := s.ELBO(refX, refY, 5, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(elbo - g.LogMarginalLikelihood()); d > 1e-4 {
				t.Errorf("ELBO %.10g, exact lml %.10g", elbo, g.LogMarginalLikelihood())
			}
			Xs := mat.NewDense(len(refXs), 2, nil)
			for i, x := range refXs {
				Xs.SetRow(i, x)
			}
			mean, vari := make([]float64, 2), make([]float64, 2)
			if err := s.Predict(Xs, mean, vari); err != nil {
				t.Fatal(err)
			}
			for i, x := range refXs {
				m, v := g.Predict(x)
				if math.Abs(mean[i]-m) > 1e-5 || math.Abs(vari[i]-v) > 1e-5 {
					t.Errorf("x=%v: svgp %.10g, %.10g; exact %.10g, %.10g", x, mean[i], vari[i], m, v)
				}
			}
			// At the optimum the gradient with respect to q vanishes.
			grad := make([]float64, s.NumParams())
			if _, err := s.ELBO(refX, refY, 5, grad, nil); err != nil {
				t.Fatal(err)
			}
			l := s.Layout()
			for i := l.QMean; i < l.Z; i++ {
				if math.Abs(grad[i]) > 1e-6 {
					t.Errorf("dELBO/dq[%d] = %g at the optimal q", i-l.QMean, grad[i])
				}
			}
		})
	}
}

// TestSVGPBound: with fewer inducing points than data, the ELBO at the
// optimal q is below the exact log marginal likelihood, and any other q is
// lower still.
func TestSVGPBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	k := NewKernel(Matern52, 1, 0.7)
	X, y := sampleGP(t, k, 0.05, 40, 1, 4, 5)
	g, err := New(k, math.Log(0.05), X, y, false)
	if err != nil {
		t.Fatal(err)
	}
	Z, err := KMeans(X, 6, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSVGP(k, math.Log(0.05), Z)
	if err := s.SetOptimalQ(X, y); err != nil {
		t.Fatal(err)
	}
	opt, _ := s.ELBO(X, y, 40, nil, nil)
	if opt > g.LogMarginalLikelihood() {
		t.Errorf("ELBO %g above lml %g", opt, g.LogMarginalLikelihood())
	}
	for i := range s.QMean {
		s.QMean[i] += 0.1 * rng.NormFloat64()
	}
	if other, _ := s.ELBO(X, y, 40, nil, nil); other >= opt {
		t.Errorf("perturbed q ELBO %g >= optimal %g", other, opt)
	}
}

func TestSVGPKLPrior(t *testing.T) {
	s := NewSVGP(NewKernel(RBF, 1, 1), 0, mat.NewDense(3, 1, []float64{0, 1, 2}))
	if kl := s.KL(); kl != 0 {
		t.Errorf("KL(prior || prior) = %g", kl)
	}
	// KL(N(m, diag(s^2)) || N(0, I)) = 1/2 sum(s^2 + m^2 - 1 - log s^2), by hand.
	s.QMean[1] = 2
	s.QSqrt.SetTri(2, 2, 0.5)
	want := 0.5 * (4 + 0.25 - 1 - math.Log(0.25))
	if kl := s.KL(); math.Abs(kl-want) > 1e-14 {
		t.Errorf("KL = %g, want %g", kl, want)
	}
}

// TestSVGPTrainsWithAdam: minibatch Adam on the ELBO (all parameters) on
// data from a GP reaches a predictive RMSE on the latent function close to
// the exact GP's with the true hyperparameters.
func TestSVGPTrainsWithAdam(t *testing.T) {
	truth := NewKernel(RBF, 1, 0.5)
	X, y := sampleGP(t, truth, 0.01, 300, 1, 5, 8)
	Z, err := KMeans(X, 15, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSVGP(NewKernel(RBF, 1, 1), math.Log(0.1), Z)
	opt := optim.NewAdam[float64](0.02, 0)
	rng := rand.New(rand.NewPCG(3, 3))
	const B = 64
	p := s.Params(nil)
	grad := make([]float64, len(p))
	Xb := mat.NewDense(B, 1, nil)
	yb := make([]float64, B)
	first, last := 0.0, 0.0
	for step := 0; step < 1500; step++ {
		for i := 0; i < B; i++ {
			j := rng.IntN(300)
			Xb.Set(i, 0, X.At(j, 0))
			yb[i] = y[j]
		}
		e, err := s.ELBO(Xb, yb, 300, grad, nil)
		if err != nil {
			t.Fatal(err)
		}
		if step == 0 {
			first = e
		}
		for i := range grad {
			grad[i] = -grad[i]
		}
		opt.Step(p, grad)
		s.SetParams(p)
	}
	last, _ = s.ELBO(X, y, 300, nil, nil)
	ex, err := New(truth, math.Log(0.01), X, y, false)
	if err != nil {
		t.Fatal(err)
	}
	if last <= first {
		t.Errorf("ELBO did not improve: %g -> %g", first, last)
	}
	if gap := ex.LogMarginalLikelihood() - last; gap > 30 {
		t.Errorf("ELBO %g is %g below the exact lml with true hyperparameters", last, gap)
	}
	mean := make([]float64, 300)
	if err := s.Predict(X, mean, nil); err != nil {
		t.Fatal(err)
	}
	var se float64
	for i := range mean {
		m, _ := ex.Predict(X.RawRowView(i))
		se += (mean[i] - m) * (mean[i] - m)
	}
	t.Logf("ELBO %.4g -> %.4g (exact lml %.4g), noise %.4g, mean RMSE vs exact %.4g", first, last, ex.LogMarginalLikelihood(), s.Noise(), math.Sqrt(se/300))
	if rmse := math.Sqrt(se / 300); rmse > 0.05 {
		t.Errorf("RMSE between SVGP and exact posterior means %g (> 0.05)", rmse)
	}
	if nz := s.Noise(); nz < 0.005 || nz > 0.02 {
		t.Errorf("learned noise %g, truth 0.01", nz)
	}
}

// TestSVGPConstantMean: an SVGP with constant mean c and Z = X at the
// optimal q equals the exact GP on y - c, shifted by c.
func TestSVGPConstantMean(t *testing.T) {
	const c = 0.7
	k := NewKernel(Matern32, 1.1, 0.8)
	yc := make([]float64, len(refY))
	for i, v := range refY {
		yc[i] = v - c
	}
	g, err := New(k, math.Log(0.05), refX, yc, false)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSVGP(k, math.Log(0.05), refX)
	s.Mean = c
	if err := s.SetOptimalQ(refX, refY); err != nil {
		t.Fatal(err)
	}
	Xs := mat.NewDense(2, 2, []float64{0.2, 0.1, 3, 3})
	mean := make([]float64, 2)
	if err := s.Predict(Xs, mean, nil); err != nil {
		t.Fatal(err)
	}
	for i := range mean {
		m, _ := g.Predict(Xs.RawRowView(i))
		if math.Abs(mean[i]-(m+c)) > 1e-5 {
			t.Errorf("row %d: svgp mean %g, exact %g + %g", i, mean[i], m, c)
		}
	}
}
