package gp

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/deup-screening/deup/internal/moments"
)

// ErrNotPositiveDefinite is returned (wrapped) when a covariance matrix stays
// non positive definite even after the largest jitter was added.
var ErrNotPositiveDefinite = errors.New("gp: covariance matrix not positive definite")

// Jitter schedule of factorize: first no jitter, then maxJitterTries values
// growing tenfold from jitterStart times the mean diagonal.
const (
	jitterStart    = 1e-10
	maxJitterTries = 8 // up to 1e-3 times the mean diagonal
)

// factorize computes the Cholesky factor of K + noise*I, adding the
// smallest jitter of the schedule that makes it positive definite. K is
// modified in place (the noise and jitter are added to its diagonal). It
// returns the jitter used (0 when none was needed).
func factorize(chol *mat.Cholesky, K *mat.SymDense, noise float64) (float64, error) {
	n := K.SymmetricDim()
	var mean float64
	for i := 0; i < n; i++ {
		K.SetSym(i, i, K.At(i, i)+noise)
		mean += K.At(i, i)
	}
	if n == 0 {
		return 0, fmt.Errorf("gp: empty covariance matrix")
	}
	mean /= float64(n)
	if !(mean > 0) || math.IsInf(mean, 0) {
		return 0, fmt.Errorf("%w: mean diagonal %v", ErrNotPositiveDefinite, mean)
	}
	if chol.Factorize(K) {
		return 0, nil
	}
	added := 0.0
	jitter := jitterStart * mean
	for try := 0; try < maxJitterTries; try++ {
		for i := 0; i < n; i++ {
			K.SetSym(i, i, K.At(i, i)+jitter-added)
		}
		added = jitter
		if chol.Factorize(K) {
			return jitter, nil
		}
		jitter *= 10
	}
	return added, fmt.Errorf("%w: jitter up to %.3g did not help", ErrNotPositiveDefinite, added)
}

// LogMarginalLikelihood returns log p(y | X) of a zero-mean GP with kernel k
// and Gaussian noise variance exp(logNoise) (R&W 2006, eq. 2.30):
//
//	-1/2 y^T (K + s2n I)^-1 y - 1/2 log|K + s2n I| - n/2 log(2 pi)
//
// If grad is not nil (length k.NumParams()+1) it receives the gradient with
// respect to [kernel params..., logNoise] (R&W eq. 5.9):
// 1/2 tr((alpha alpha^T - K^-1) dK/dtheta). Jitter added for numerical
// positive definiteness is part of K but not a parameter.
func LogMarginalLikelihood(k Kernel, logNoise float64, X mat.Matrix, y []float64, grad []float64) (float64, error) {
	n, _ := X.Dims()
	if len(y) != n {
		return 0, fmt.Errorf("gp: %d targets for %d inputs", len(y), n)
	}
	if grad != nil && len(grad) != k.NumParams()+1 {
		return 0, fmt.Errorf("gp: gradient has length %d, want %d", len(grad), k.NumParams()+1)
	}
	var chol mat.Cholesky
	_, err := factorize(&chol, k.SymMatrix(X), math.Exp(logNoise))
	if err != nil {
		return 0, err
	}
	var alpha mat.VecDense
	if err := chol.SolveVecTo(&alpha, mat.NewVecDense(n, append([]float64(nil), y...))); err != nil {
		return 0, fmt.Errorf("gp: solve: %w", err)
	}
	lml := -0.5*mat.Dot(mat.NewVecDense(n, y), &alpha) - 0.5*chol.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi)
	if grad == nil {
		return lml, nil
	}
	var kinv mat.SymDense
	if err := chol.InverseTo(&kinv); err != nil {
		return 0, fmt.Errorf("gp: inverse: %w", err)
	}
	for i := range grad {
		grad[i] = 0
	}
	np := k.NumParams()
	dk := make([]float64, np)
	_, d := X.Dims()
	inv := k.invLengthscales(d)
	xr := scaleRows(rows(X), inv)
	a := alpha.RawVector().Data
	var trW float64
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			w := a[i]*a[j] - kinv.At(i, j)
			if i == j {
				trW += w
			} else {
				w *= 2
			}
			k.pairGrad(dk, nil, xr[i], xr[j], inv)
			for p := range dk {
				grad[p] += 0.5 * w * dk[p]
			}
		}
	}
	grad[np] = 0.5 * trW * math.Exp(logNoise)
	return lml, nil
}

// GP is an exact Gaussian-process regressor conditioned on training data.
// Targets may be standardized: the GP then models (y - YMean) / YScale, and
// LogNoise and Kernel.LogVariance are on that standardized scale; Predict
// and Noise report the original scale. A GP is safe for concurrent
// prediction once built; it is not modified by prediction.
type GP struct {
	Kernel   Kernel
	LogNoise float64 // log noise variance, standardized scale
	Jitter   float64 // extra diagonal added for positive definiteness (standardized scale)
	YMean    float64 // 0 unless standardized
	YScale   float64 // 1 unless standardized

	x     [][]float64 // training inputs (owned copy)
	chol  mat.Cholesky
	lower *mat.TriDense
	alpha []float64 // (K + s2n I)^-1 (y - YMean)/YScale
	lml   float64
}

// New conditions a GP with the given hyperparameters on X (n×d) and y. With
// standardize, the targets are centred and scaled by their sample standard
// deviation (scale 1 when n < 2 or all targets are equal) before
// conditioning; logNoise and k are then on the standardized scale. X and y
// are copied.
func New(k Kernel, logNoise float64, X mat.Matrix, y []float64, standardize bool) (*GP, error) {
	n, d := X.Dims()
	if n == 0 {
		return nil, fmt.Errorf("gp: no training points")
	}
	if len(y) != n {
		return nil, fmt.Errorf("gp: %d targets for %d inputs", len(y), n)
	}
	if nl := len(k.LogLengthscales); nl != 1 && nl != d {
		return nil, fmt.Errorf("gp: kernel has %d lengthscales for inputs of dimension %d", nl, d)
	}
	if err := checkFinite(X, y); err != nil {
		return nil, err
	}
	g := &GP{Kernel: k.Clone(), LogNoise: logNoise, YScale: 1}
	if standardize {
		g.YMean, g.YScale = moments.MeanScale(y)
	}
	ys := make([]float64, n)
	for i, v := range y {
		ys[i] = (v - g.YMean) / g.YScale
	}
	xc := mat.DenseCopyOf(X)
	g.x = rows(xc)
	jit, err := factorize(&g.chol, k.SymMatrix(xc), math.Exp(logNoise))
	if err != nil {
		return nil, err
	}
	g.Jitter = jit
	g.lower = new(mat.TriDense)
	g.chol.LTo(g.lower)
	var alpha mat.VecDense
	if err := g.chol.SolveVecTo(&alpha, mat.NewVecDense(n, append([]float64(nil), ys...))); err != nil {
		return nil, fmt.Errorf("gp: solve: %w", err)
	}
	g.alpha = alpha.RawVector().Data
	g.lml = -0.5*floatsDot(ys, g.alpha) - 0.5*g.chol.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi) - float64(n)*math.Log(g.YScale)
	return g, nil
}

// checkFinite reports the first NaN or infinite input or target.
func checkFinite(X mat.Matrix, y []float64) error {
	n, d := X.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if v := X.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("gp: input row %d column %d is %v", i, j, v)
			}
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return fmt.Errorf("gp: target %d is %v", i, y[i])
		}
	}
	return nil
}

// trsv overwrites x with L^-1 x (blas.NoTrans) or L^-T x (blas.Trans) for
// the lower-triangular L.
func trsv(tA blas.Transpose, L *mat.TriDense, x []float64) {
	blas64.Trsv(tA, L.RawTriangular(), blas64.Vector{N: len(x), Data: x, Inc: 1})
}

func floatsDot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// N returns the number of training points.
func (g *GP) N() int { return len(g.x) }

// Dim returns the input dimension.
func (g *GP) Dim() int { return len(g.x[0]) }

// LogMarginalLikelihood returns log p(y | X, hyperparameters) of the
// original (unstandardized) targets: the standardized value minus
// n log YScale.
func (g *GP) LogMarginalLikelihood() float64 { return g.lml }

// Noise returns the noise variance on the original target scale.
func (g *GP) Noise() float64 { return math.Exp(g.LogNoise) * g.YScale * g.YScale }

// Predict returns the posterior mean and variance of the latent function at
// x (R&W 2006, eq. 2.25-2.26), on the original target scale. Add Noise() for
// the predictive variance of a new observation. It panics if len(x) is not
// the input dimension.
func (g *GP) Predict(x []float64) (mean, variance float64) {
	return g.PredictGrad(x, nil, nil)
}

// PredictGrad is Predict that also writes the gradients of the mean and the
// variance with respect to x into dmean and dvar (each nil or of length
// len(x)). The variance is clamped at 0 against round-off; where it is, dvar
// is the unclamped expression's gradient.
func (g *GP) PredictGrad(x, dmean, dvar []float64) (mean, variance float64) {
	if len(x) != g.Dim() {
		panic("gp: GP.Predict: wrong input dimension")
	}
	n := len(g.x)
	ks := make([]float64, n)
	var gk [][]float64
	if dmean != nil || dvar != nil {
		gk = make([][]float64, n)
		buf := make([]float64, n*len(x))
		for i := range g.x {
			gk[i] = buf[i*len(x) : (i+1)*len(x)]
			ks[i] = g.Kernel.GradX(gk[i], x, g.x[i])
		}
	} else {
		for i := range g.x {
			ks[i] = g.Kernel.Eval(x, g.x[i])
		}
	}
	mean = floatsDot(ks, g.alpha)
	// v = L^-1 k*, so k*^T K^-1 k* = v^T v.
	vd := append([]float64(nil), ks...)
	trsv(blas.NoTrans, g.lower, vd)
	variance = g.Kernel.Variance() - floatsDot(vd, vd)
	if dmean != nil {
		for j := range dmean {
			dmean[j] = 0
		}
		for i := range gk {
			for j, gv := range gk[i] {
				dmean[j] += g.alpha[i] * gv
			}
		}
		for j := range dmean {
			dmean[j] *= g.YScale
		}
	}
	if dvar != nil {
		// d var / dx = -2 sum_i (K^-1 k*)_i dk(x, x_i)/dx.
		bd := append([]float64(nil), vd...)
		trsv(blas.Trans, g.lower, bd)
		for j := range dvar {
			dvar[j] = 0
		}
		for i := range gk {
			for j, gv := range gk[i] {
				dvar[j] -= 2 * bd[i] * gv
			}
		}
		s2 := g.YScale * g.YScale
		for j := range dvar {
			dvar[j] *= s2
		}
	}
	if variance < 0 {
		variance = 0
	}
	return mean*g.YScale + g.YMean, variance * g.YScale * g.YScale
}

// PredictBatch writes the posterior mean and latent variance at each row of
// X into mean and variance (each of length rows of X; either may be nil).
func (g *GP) PredictBatch(X mat.Matrix, mean, variance []float64) {
	n, d := X.Dims()
	if d != g.Dim() {
		panic("gp: GP.PredictBatch: wrong input dimension")
	}
	if (mean != nil && len(mean) != n) || (variance != nil && len(variance) != n) {
		panic("gp: GP.PredictBatch: output length mismatch")
	}
	xr := rows(X)
	for i := range xr {
		m, v := g.Predict(xr[i])
		if mean != nil {
			mean[i] = m
		}
		if variance != nil {
			variance[i] = v
		}
	}
}
