package gp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// svgpJitter is the relative jitter of the inducing covariance:
// Kzz = k(Z, Z) + svgpJitter * s2 * I. It is part of the model (its
// gradient with respect to log s2 is included).
const svgpJitter = 1e-6

// SVGP is a sparse variational Gaussian process with M inducing inputs Z and
// a whitened variational distribution (Hensman et al. 2015; GPyTorch's
// VariationalStrategy): a constant prior mean c (Mean), u = f(Z) =
// c + Lz v with Kzz = Lz Lz^T, q(v) = N(QMean, S) with S = QSqrt QSqrt^T,
// prior p(v) = N(0, I), and a Gaussian likelihood with noise variance
// exp(LogNoise).
//
// For an input x with a = Lz^-1 k(Z, x), the marginal is
//
//	q(f(x)) = N(c + a^T m, k(x, x) - a^T a + a^T S a).
//
// The fields may be set directly; QSqrt must be lower triangular M×M, Z M×d,
// QMean of length M. An SVGP is not safe for concurrent use while its
// parameters change; ELBO and Predict only read it.
type SVGP struct {
	Kernel   Kernel
	LogNoise float64
	Mean     float64 // constant prior mean c
	Z        *mat.Dense
	QMean    []float64
	QSqrt    *mat.TriDense
}

// NewSVGP returns an SVGP with inducing inputs Z (copied) and q(v) equal to
// the prior: QMean = 0, QSqrt = I.
func NewSVGP(k Kernel, logNoise float64, Z mat.Matrix) *SVGP {
	m, d := Z.Dims()
	k.check(d)
	L := mat.NewTriDense(m, mat.Lower, nil)
	for i := 0; i < m; i++ {
		L.SetTri(i, i, 1)
	}
	return &SVGP{Kernel: k.Clone(), LogNoise: logNoise, Z: mat.DenseCopyOf(Z), QMean: make([]float64, m), QSqrt: L}
}

// SVGPLayout holds the offsets of each block in the flat parameter vector of
// an SVGP (see SVGP.Params): the kernel's hyperparameters, then the log
// noise, the constant mean, the variational mean (M), the lower triangle of QSqrt row by row
// (M(M+1)/2), and Z row by row (M·d).
type SVGPLayout struct {
	Kernel, Noise, Mean, QMean, QSqrt, Z, End int
}

// Layout returns the offsets of the parameter blocks.
func (s *SVGP) Layout() SVGPLayout {
	m, d := s.Z.Dims()
	var l SVGPLayout
	l.Kernel = 0
	l.Noise = s.Kernel.NumParams()
	l.Mean = l.Noise + 1
	l.QMean = l.Mean + 1
	l.QSqrt = l.QMean + m
	l.Z = l.QSqrt + m*(m+1)/2
	l.End = l.Z + m*d
	return l
}

// NumParams is the length of the flat parameter vector.
func (s *SVGP) NumParams() int { return s.Layout().End }

// Params appends the flat parameter vector (layout: SVGPLayout) to dst.
func (s *SVGP) Params(dst []float64) []float64 {
	dst = s.Kernel.Params(dst)
	dst = append(dst, s.LogNoise, s.Mean)
	dst = append(dst, s.QMean...)
	m, _ := s.Z.Dims()
	for i := 0; i < m; i++ {
		for j := 0; j <= i; j++ {
			dst = append(dst, s.QSqrt.At(i, j))
		}
	}
	return append(dst, s.Z.RawMatrix().Data...)
}

// SetParams sets every parameter from p (layout: SVGPLayout). It panics if
// len(p) != NumParams().
func (s *SVGP) SetParams(p []float64) {
	l := s.Layout()
	if len(p) != l.End {
		panic("gp: SVGP.SetParams: wrong number of parameters")
	}
	s.Kernel.SetParams(p[:l.Noise])
	s.LogNoise = p[l.Noise]
	s.Mean = p[l.Mean]
	copy(s.QMean, p[l.QMean:l.QSqrt])
	m, _ := s.Z.Dims()
	o := l.QSqrt
	for i := 0; i < m; i++ {
		for j := 0; j <= i; j++ {
			s.QSqrt.SetTri(i, j, p[o])
			o++
		}
	}
	copy(s.Z.RawMatrix().Data, p[l.Z:l.End])
}

// Noise returns the likelihood's noise variance exp(LogNoise).
func (s *SVGP) Noise() float64 { return math.Exp(s.LogNoise) }

// inducing factorizes Kzz = k(Z, Z) + jitter I and returns its lower
// Cholesky factor and the jitter used.
func (s *SVGP) inducing() (*mat.TriDense, float64, error) {
	jit := svgpJitter * s.Kernel.Variance()
	K := s.Kernel.SymMatrix(s.Z)
	var chol mat.Cholesky
	extra, err := factorize(&chol, K, jit)
	if err != nil {
		return nil, 0, fmt.Errorf("gp: svgp: inducing covariance: %w", err)
	}
	L := new(mat.TriDense)
	chol.LTo(L)
	return L, jit + extra, nil
}

// project returns A = Lz^-1 k(Z, X) (M×B).
func (s *SVGP) project(Lz *mat.TriDense, X mat.Matrix) *mat.Dense {
	A := s.Kernel.Matrix(s.Z, X)
	blas64.Trsm(blas.Left, blas.NoTrans, 1, Lz.RawTriangular(), A.RawMatrix())
	return A
}

func (s *SVGP) checkShapes(X mat.Matrix) error {
	m, d := s.Z.Dims()
	if _, xd := X.Dims(); xd != d {
		return fmt.Errorf("gp: svgp: inputs have %d columns, inducing points %d", xd, d)
	}
	if len(s.QMean) != m {
		return fmt.Errorf("gp: svgp: QMean has length %d, want %d", len(s.QMean), m)
	}
	if r, c := s.QSqrt.Dims(); r != m || c != m {
		return fmt.Errorf("gp: svgp: QSqrt is %d×%d, want %d×%d", r, c, m, m)
	}
	return nil
}

// Predict writes the mean and the latent variance of q(f(x)) at each row of
// X into mean and variance (either may be nil; else of length rows of X).
// Add Noise() for the predictive variance of an observation. The variance is
// clamped at 0 against round-off.
func (s *SVGP) Predict(X mat.Matrix, mean, variance []float64) error {
	if err := s.checkShapes(X); err != nil {
		return err
	}
	b, _ := X.Dims()
	if (mean != nil && len(mean) != b) || (variance != nil && len(variance) != b) {
		return fmt.Errorf("gp: svgp: output length mismatch for %d inputs", b)
	}
	Lz, _, err := s.inducing()
	if err != nil {
		return err
	}
	A := s.project(Lz, X)
	mu, v := s.marginals(A)
	if mean != nil {
		copy(mean, mu)
	}
	if variance != nil {
		for i := range v {
			variance[i] = math.Max(v[i], 0)
		}
	}
	return nil
}

// marginals returns the mean and (unclamped) variance of q(f) for the
// columns of A, and the matrix Bm = QSqrt^T A used by the gradients.
func (s *SVGP) marginals(A *mat.Dense) (mu, v []float64) {
	mu, v, _ = s.marginalsB(A)
	return mu, v
}

func (s *SVGP) marginalsB(A *mat.Dense) (mu, v []float64, Bm *mat.Dense) {
	m, b := A.Dims()
	mu = make([]float64, b)
	v = make([]float64, b)
	Bm = mat.DenseCopyOf(A)
	blas64.Trmm(blas.Left, blas.Trans, 1, s.QSqrt.RawTriangular(), Bm.RawMatrix())
	kxx := s.Kernel.Variance()
	for i := 0; i < b; i++ {
		v[i] = kxx
		mu[i] = s.Mean
	}
	for j := 0; j < m; j++ {
		arow, brow := A.RawRowView(j), Bm.RawRowView(j)
		mj := s.QMean[j]
		for i := 0; i < b; i++ {
			mu[i] += arow[i] * mj
			v[i] += brow[i]*brow[i] - arow[i]*arow[i]
		}
	}
	return mu, v, Bm
}

// KL returns KL(q(v) || N(0, I)) = 1/2 (tr S + m^T m - M - log|S|).
func (s *SVGP) KL() float64 {
	m := len(s.QMean)
	var kl float64
	for i := 0; i < m; i++ {
		kl += s.QMean[i] * s.QMean[i]
		for j := 0; j <= i; j++ {
			l := s.QSqrt.At(i, j)
			kl += l * l
		}
		kl -= 2 * math.Log(math.Abs(s.QSqrt.At(i, i)))
	}
	return 0.5 * (kl - float64(m))
}

// ELBO returns the evidence lower bound estimated on the minibatch (X, y)
// drawn from a training set of n points:
//
//	(n/B) sum_i E_q[log N(y_i | f_i, s2n)] - KL(q(v) || N(0, I))
//
// with E_q[log N(y | f, s2n)] = -1/2 log(2 pi s2n) - ((y - mu)^2 + var)/(2 s2n).
// If grad is not nil (length NumParams()) it receives the gradient of the
// estimate with respect to the flat parameters (SVGPLayout). If dX is not
// nil (B×d) it receives the gradient with respect to the inputs X, for
// back-propagation into a feature extractor. Matern-1/2 gradients at
// coincident points use the zero subgradient.
func (s *SVGP) ELBO(X mat.Matrix, y []float64, n int, grad []float64, dX *mat.Dense) (float64, error) {
	if err := s.checkShapes(X); err != nil {
		return 0, err
	}
	b, d := X.Dims()
	if len(y) != b || b == 0 {
		return 0, fmt.Errorf("gp: svgp: %d targets for %d inputs", len(y), b)
	}
	if n < b {
		return 0, fmt.Errorf("gp: svgp: training-set size %d smaller than the batch %d", n, b)
	}
	if grad != nil && len(grad) != s.NumParams() {
		return 0, fmt.Errorf("gp: svgp: gradient has length %d, want %d", len(grad), s.NumParams())
	}
	if dX != nil {
		if r, c := dX.Dims(); r != b || c != d {
			return 0, fmt.Errorf("gp: svgp: dX is %d×%d, want %d×%d", r, c, b, d)
		}
	}
	Lz, _, err := s.inducing()
	if err != nil {
		return 0, err
	}
	A := s.project(Lz, X)
	mu, v, Bm := s.marginalsB(A)
	s2n := math.Exp(s.LogNoise)
	c := float64(n) / float64(b)
	var ell float64
	for i := 0; i < b; i++ {
		r := y[i] - mu[i]
		ell += -0.5*math.Log(2*math.Pi*s2n) - (r*r+v[i])/(2*s2n)
	}
	elbo := c*ell - s.KL()
	if grad == nil && dX == nil {
		return elbo, nil
	}

	m, _ := s.Z.Dims()
	lay := s.Layout()
	if grad != nil {
		for i := range grad {
			grad[i] = 0
		}
	}
	dmu := make([]float64, b)
	ds := -c / (2 * s2n)
	var dnoise float64
	for i := 0; i < b; i++ {
		r := y[i] - mu[i]
		dmu[i] = c * r / s2n
		dnoise += c * (-0.5 + (r*r+v[i])/(2*s2n))
	}
	// Gbar = dELBO/dA: column i is dmu_i m + 2 ds (QSqrt Bm_i - a_i).
	Gb := mat.DenseCopyOf(Bm)
	blas64.Trmm(blas.Left, blas.NoTrans, 1, s.QSqrt.RawTriangular(), Gb.RawMatrix())
	for j := 0; j < m; j++ {
		grow, arow := Gb.RawRowView(j), A.RawRowView(j)
		mj := s.QMean[j]
		for i := 0; i < b; i++ {
			grow[i] = dmu[i]*mj + 2*ds*(grow[i]-arow[i])
		}
	}
	if grad != nil {
		grad[lay.Noise] = dnoise
		for _, g := range dmu {
			grad[lay.Mean] += g
		}
		// d/dm = A dmu - m.
		for j := 0; j < m; j++ {
			grad[lay.QMean+j] = floatsDot(A.RawRowView(j), dmu) - s.QMean[j]
		}
		// d/dL = 2 ds A A^T L - (L - diag(1/L_ii)), lower triangle.
		var AAt mat.Dense
		AAt.Mul(A, A.T())
		var G mat.Dense
		G.Mul(&AAt, s.QSqrt)
		o := lay.QSqrt
		for i := 0; i < m; i++ {
			for j := 0; j <= i; j++ {
				l := s.QSqrt.At(i, j)
				g := 2*ds*G.At(i, j) - l
				if i == j {
					g += 1 / l
				}
				grad[o] = g
				o++
			}
		}
		// k(x, x) = s2 for every x.
		var sumV float64
		for i := 0; i < b; i++ {
			sumV += ds
		}
		grad[0] += sumV * s.Kernel.Variance()
	}

	// Kbar_zx = Lz^-T Gbar.
	Kzx := Gb // reuse: overwritten in place
	blas64.Trsm(blas.Left, blas.Trans, 1, Lz.RawTriangular(), Kzx.RawMatrix())
	// Lbar_z = -lower(Kbar_zx A^T); C = Lz^T Lbar_z; Phi(C); Kbar_zz = Lz^-T Phi Lz^-1.
	var P mat.Dense
	P.Mul(Kzx, A.T())
	Lbar := mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		for j := 0; j <= i; j++ {
			Lbar.Set(i, j, -P.At(i, j))
		}
	}
	blas64.Trmm(blas.Left, blas.Trans, 1, Lz.RawTriangular(), Lbar.RawMatrix())
	Phi := Lbar
	for i := 0; i < m; i++ {
		row := Phi.RawRowView(i)
		row[i] *= 0.5
		for j := i + 1; j < m; j++ {
			row[j] = 0
		}
	}
	blas64.Trsm(blas.Left, blas.Trans, 1, Lz.RawTriangular(), Phi.RawMatrix())
	blas64.Trsm(blas.Right, blas.NoTrans, 1, Lz.RawTriangular(), Phi.RawMatrix())
	Kzz := Phi // Kbar_zz, not yet symmetrized

	np := s.Kernel.NumParams()
	dk := make([]float64, np)
	gx := make([]float64, d)
	inv := s.Kernel.invLengthscales(d)
	zr := scaleRows(rows(s.Z), inv)
	xr := scaleRows(rows(X), inv)
	var dkp []float64
	if grad != nil {
		dkp = dk
	}
	var dZ []float64
	if grad != nil {
		dZ = grad[lay.Z:lay.End]
	}
	if dX != nil {
		dX.Zero()
	}
	for j := 0; j < m; j++ {
		krow := Kzx.RawRowView(j)
		for i := 0; i < b; i++ {
			w := krow[i]
			if w == 0 {
				continue
			}
			s.Kernel.pairGrad(dkp, gx, zr[j], xr[i], inv)
			if grad != nil {
				for p := range dk {
					grad[p] += w * dk[p]
				}
			}
			if dZ != nil {
				for t := range gx {
					dZ[j*d+t] += w * gx[t]
				}
			}
			if dX != nil {
				xrow := dX.RawRowView(i)
				for t := range gx {
					xrow[t] -= w * gx[t]
				}
			}
		}
	}
	if grad != nil {
		var trK float64
		for j := 0; j < m; j++ {
			trK += Kzz.At(j, j)
			for l := 0; l <= j; l++ {
				w := 0.5 * (Kzz.At(j, l) + Kzz.At(l, j))
				if l != j {
					w *= 2
				}
				s.Kernel.pairGrad(dk, gx, zr[j], zr[l], inv)
				for p := range dk {
					grad[p] += w * dk[p]
				}
				if l == j {
					continue
				}
				// w already counts both (j,l) and (l,j); dk(z_j,z_l)/dz_j
				// = -dk/dz_l.
				for t := range gx {
					dZ[j*d+t] += w * gx[t]
					dZ[l*d+t] -= w * gx[t]
				}
			}
		}
		// The jitter svgpJitter*s2 scales with s2 (the adaptive extra, if
		// any, is treated as a constant).
		grad[0] += trK * svgpJitter * s.Kernel.Variance()
	}
	return elbo, nil
}

// SetOptimalQ sets q(v) to the optimum of the ELBO for fixed kernel, noise,
// mean and Z on the full data (X, y) (Titsias 2009, in whitened form):
//
//	S = (I + A A^T / s2n)^-1,   m = S A (y - c) / s2n,   A = Lz^-1 k(Z, X).
func (s *SVGP) SetOptimalQ(X mat.Matrix, y []float64) error {
	if err := s.checkShapes(X); err != nil {
		return err
	}
	b, _ := X.Dims()
	if len(y) != b {
		return fmt.Errorf("gp: svgp: %d targets for %d inputs", len(y), b)
	}
	Lz, _, err := s.inducing()
	if err != nil {
		return err
	}
	A := s.project(Lz, X)
	m, _ := A.Dims()
	s2n := math.Exp(s.LogNoise)
	prec := mat.NewSymDense(m, nil)
	prec.SymOuterK(1/s2n, A)
	for i := 0; i < m; i++ {
		prec.SetSym(i, i, prec.At(i, i)+1)
	}
	var chol mat.Cholesky
	if !chol.Factorize(prec) {
		return fmt.Errorf("gp: svgp: optimal q: %w", ErrNotPositiveDefinite)
	}
	var Ay mat.VecDense
	yc := make([]float64, b)
	for i, v := range y {
		yc[i] = v - s.Mean
	}
	Ay.MulVec(A, mat.NewVecDense(b, yc))
	Ay.ScaleVec(1/s2n, &Ay)
	var mean mat.VecDense
	if err := chol.SolveVecTo(&mean, &Ay); err != nil {
		return fmt.Errorf("gp: svgp: optimal q: %w", err)
	}
	copy(s.QMean, mean.RawVector().Data)
	var S mat.SymDense
	if err := chol.InverseTo(&S); err != nil {
		return fmt.Errorf("gp: svgp: optimal q: %w", err)
	}
	var cs mat.Cholesky
	if !cs.Factorize(&S) {
		return fmt.Errorf("gp: svgp: optimal q covariance: %w", ErrNotPositiveDefinite)
	}
	cs.LTo(s.QSqrt)
	return nil
}
