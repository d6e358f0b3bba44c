package surrogate

import (
	"errors"
	"fmt"
	"math"

	"github.com/deup-screening/deup/deup"
	"gonum.org/v1/gonum/mat"
)

// BayesRidge is Bayesian linear regression with evidence-maximized prior
// and noise precisions (Bishop 2006, §3.5.2): with centred inputs and
// targets, prior w ~ N(0, 1/alpha I) and noise N(0, 1/beta),
//
//	S = (alpha I + beta X^T X)^-1,   m = beta S X^T y
//	gamma = sum_i lambda_i / (alpha + lambda_i)   (lambda: eigenvalues of beta X^T X)
//	alpha <- gamma / m^T m,   beta <- (n - gamma) / |y - X m|^2
//
// iterated to a fixed point. The model's mean is m^T x + intercept, its
// Variance x^T S x (the posterior variance of the mean function: the
// epistemic part) and Noise 1/beta (homoscedastic aleatoric variance).
// It is a deup.Learner and its fitted model a deup.VarianceModel, so it can
// serve as DEUP's main predictor and source of the v feature at once.
// The zero value is ready to use.
type BayesRidge struct {
	MaxIter int // evidence iterations; 0 means 100
}

// RidgeModel is a fitted BayesRidge.
type RidgeModel struct {
	xMean []float64
	yMean float64
	w     []float64
	cov   *mat.SymDense // S
	noise float64       // 1/beta
	Alpha float64       // prior precision at the fixed point
}

// Fit implements deup.Learner.
func (b BayesRidge) Fit(x [][]float64, y []float64) (deup.Predictor, error) {
	m, err := b.FitRidge(x, y)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// FitVariance implements deup.VarianceLearner.
func (b BayesRidge) FitVariance(x [][]float64, y []float64) (deup.VarianceModel, error) {
	return b.FitRidge(x, y)
}

// FitRidge fits and returns the concrete model.
func (b BayesRidge) FitRidge(x [][]float64, y []float64) (*RidgeModel, error) {
	n := len(x)
	if n < 2 || n != len(y) {
		return nil, fmt.Errorf("active: bayes-ridge needs at least 2 rows and as many targets, have %d and %d", n, len(y))
	}
	d := len(x[0])
	xm := make([]float64, d)
	var ym float64
	for i, r := range x {
		if len(r) != d {
			return nil, fmt.Errorf("active: bayes-ridge: row %d has %d columns, want %d", i, len(r), d)
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("active: bayes-ridge: target %d is %v", i, y[i])
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("active: bayes-ridge: row %d column %d is %v", i, j, v)
			}
			xm[j] += v
		}
		ym += y[i]
	}
	for j := range xm {
		xm[j] /= float64(n)
	}
	ym /= float64(n)
	X := mat.NewDense(n, d, nil)
	yc := mat.NewVecDense(n, nil)
	for i, r := range x {
		for j, v := range r {
			X.Set(i, j, v-xm[j])
		}
		yc.SetVec(i, y[i]-ym)
	}
	var xtx mat.SymDense
	xtx.SymOuterK(1, X.T())
	var xty mat.VecDense
	xty.MulVec(X.T(), yc)
	var eig mat.EigenSym
	if !eig.Factorize(&xtx, false) {
		return nil, errors.New("active: bayes-ridge: eigendecomposition failed")
	}
	lam := eig.Values(nil)
	yy := mat.Dot(yc, yc)
	if yy == 0 {
		yy = 1e-12
	}
	alpha, beta := 1.0, float64(n)/yy
	maxIter := b.MaxIter
	if maxIter <= 0 {
		maxIter = 100
	}
	var w mat.VecDense
	// factor is the Cholesky factor of the posterior precision
	// beta·XᵀX + alpha·I.
	factor := func(alpha, beta float64) (*mat.Cholesky, error) {
		a := mat.NewSymDense(d, nil)
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				a.SetSym(i, j, beta*xtx.At(i, j))
			}
			a.SetSym(i, i, a.At(i, i)+alpha)
		}
		var ch mat.Cholesky
		if !ch.Factorize(a) {
			return nil, errors.New("active: bayes-ridge: posterior precision not positive definite")
		}
		return &ch, nil
	}
	solve := func(alpha, beta float64) error {
		ch, err := factor(alpha, beta)
		if err != nil {
			return err
		}
		rhs := mat.NewVecDense(d, nil)
		rhs.ScaleVec(beta, &xty)
		return ch.SolveVecTo(&w, rhs)
	}
	for it := 0; it < maxIter; it++ {
		if err := solve(alpha, beta); err != nil {
			return nil, err
		}
		var gamma float64
		for _, l := range lam {
			if l < 0 {
				l = 0
			}
			gamma += beta * l / (alpha + beta*l)
		}
		var r mat.VecDense
		r.MulVec(X, &w)
		r.SubVec(yc, &r)
		rss := mat.Dot(&r, &r)
		ww := mat.Dot(&w, &w)
		na := gamma / math.Max(ww, 1e-300)
		nb := (float64(n) - gamma) / math.Max(rss, 1e-12*yy)
		na = math.Min(math.Max(na, 1e-10), 1e10)
		nb = math.Min(math.Max(nb, 1e-10/yy*float64(n)), 1e10*float64(n)/yy)
		done := math.Abs(na-alpha) <= 1e-6*alpha && math.Abs(nb-beta) <= 1e-6*beta
		alpha, beta = na, nb
		if done {
			break
		}
	}
	if err := solve(alpha, beta); err != nil {
		return nil, err
	}
	ch, err := factor(alpha, beta)
	if err != nil {
		return nil, err
	}
	cov := mat.NewSymDense(d, nil)
	if err := ch.InverseTo(cov); err != nil {
		return nil, fmt.Errorf("active: bayes-ridge: %w", err)
	}
	return &RidgeModel{xMean: xm, yMean: ym, w: append([]float64(nil), w.RawVector().Data...), cov: cov, noise: 1 / beta, Alpha: alpha}, nil
}

// Predict is the posterior mean at x.
func (m *RidgeModel) Predict(x []float64) float64 {
	s := m.yMean
	for j, v := range x {
		s += m.w[j] * (v - m.xMean[j])
	}
	return s
}

// Variance is x^T S x, the posterior variance of the mean function at x.
func (m *RidgeModel) Variance(x []float64) float64 {
	d := len(m.w)
	c := make([]float64, d)
	for j := range c {
		c[j] = x[j] - m.xMean[j]
	}
	var s float64
	raw := m.cov.RawSymmetric()
	for i := 0; i < d; i++ {
		row := raw.Data[i*raw.Stride:]
		var t float64
		t += row[i] * c[i]
		for j := i + 1; j < d; j++ {
			t += 2 * row[j] * c[j]
		}
		s += c[i] * t
	}
	return math.Max(s, 0)
}

// Noise is the fitted noise variance 1/beta.
func (m *RidgeModel) Noise() float64 { return m.noise }
