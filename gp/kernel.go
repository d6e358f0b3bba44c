package gp

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Family is the shape of a stationary covariance function of the scaled
// distance r = sqrt(sum_i ((x_i - y_i) / l_i)^2).
type Family int

// The kernel families. The zero value is RBF.
const (
	RBF      Family = iota // s2 * exp(-r^2/2)
	Matern12               // s2 * exp(-r)
	Matern32               // s2 * (1 + sqrt3 r) exp(-sqrt3 r)
	Matern52               // s2 * (1 + sqrt5 r + 5 r^2/3) exp(-sqrt5 r)
)

var familyNames = [...]string{"rbf", "matern12", "matern32", "matern52"}

// String returns the family's name as accepted by ParseFamily.
func (f Family) String() string {
	if f < 0 || int(f) >= len(familyNames) {
		return fmt.Sprintf("Family(%d)", int(f))
	}
	return familyNames[f]
}

// ParseFamily accepts "rbf", "matern12", "matern32", "matern52" (also with
// "matern-1/2" style spellings), case-insensitively.
func ParseFamily(s string) (Family, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	t = strings.NewReplacer("-", "", "_", "", "/", "", ".", "").Replace(t)
	switch t {
	case "rbf", "se", "sqexp", "squaredexponential", "gaussian":
		return RBF, nil
	case "matern12", "exponential", "exp":
		return Matern12, nil
	case "matern32":
		return Matern32, nil
	case "matern52":
		return Matern52, nil
	}
	return 0, fmt.Errorf("gp: unknown kernel family %q (want rbf, matern12, matern32 or matern52)", s)
}

// Kernel is a stationary covariance function with its hyperparameters held
// in log space: k(x, y) = exp(LogVariance) * g(r), with
// r^2 = sum_i (x_i - y_i)^2 / exp(2 LogLengthscales[i]).
//
// LogLengthscales has length 1 (isotropic: one lengthscale for every input
// dimension) or length d (ARD, one per dimension). The hyperparameter vector
// used by Params, SetParams and the gradients is
// [LogVariance, LogLengthscales...].
type Kernel struct {
	Family          Family
	LogVariance     float64
	LogLengthscales []float64
}

// NewKernel returns an isotropic kernel with signal variance variance and
// lengthscale lengthscale (both > 0, given in natural units).
func NewKernel(f Family, variance, lengthscale float64) Kernel {
	return Kernel{Family: f, LogVariance: math.Log(variance), LogLengthscales: []float64{math.Log(lengthscale)}}
}

// NewARDKernel returns a kernel with one lengthscale per input dimension.
func NewARDKernel(f Family, variance float64, lengthscales []float64) Kernel {
	ll := make([]float64, len(lengthscales))
	for i, l := range lengthscales {
		ll[i] = math.Log(l)
	}
	return Kernel{Family: f, LogVariance: math.Log(variance), LogLengthscales: ll}
}

// Clone returns a deep copy of k.
func (k Kernel) Clone() Kernel {
	k.LogLengthscales = append([]float64(nil), k.LogLengthscales...)
	return k
}

// NumParams is 1 + len(LogLengthscales).
func (k Kernel) NumParams() int { return 1 + len(k.LogLengthscales) }

// Params appends the hyperparameter vector [LogVariance, LogLengthscales...]
// to dst and returns it.
func (k Kernel) Params(dst []float64) []float64 {
	dst = append(dst, k.LogVariance)
	return append(dst, k.LogLengthscales...)
}

// SetParams sets the hyperparameters from p, laid out as by Params. It panics
// if len(p) != k.NumParams().
func (k *Kernel) SetParams(p []float64) {
	if len(p) != k.NumParams() {
		panic("gp: Kernel.SetParams: wrong number of parameters")
	}
	k.LogVariance = p[0]
	copy(k.LogLengthscales, p[1:])
}

// Variance returns exp(LogVariance), the prior variance k(x, x).
func (k Kernel) Variance() float64 { return math.Exp(k.LogVariance) }

// check panics when the kernel does not fit inputs of dimension d.
func (k Kernel) check(d int) {
	n := len(k.LogLengthscales)
	if n != 1 && n != d {
		panic(fmt.Sprintf("gp: kernel has %d lengthscales for inputs of dimension %d", n, d))
	}
}

// invl2 returns 1/l_i^2 for dimension i.
func (k Kernel) invl2(i int) float64 {
	if len(k.LogLengthscales) == 1 {
		i = 0
	}
	return math.Exp(-2 * k.LogLengthscales[i])
}

// r2 returns the squared scaled distance between x and y.
func (k Kernel) r2(x, y []float64) float64 {
	var s float64
	if len(k.LogLengthscales) == 1 {
		for i := range x {
			d := x[i] - y[i]
			s += d * d
		}
		return s * math.Exp(-2*k.LogLengthscales[0])
	}
	for i := range x {
		d := x[i] - y[i]
		s += d * d * math.Exp(-2*k.LogLengthscales[i])
	}
	return s
}

// shape returns g(r) and h = dk/d(r^2) at squared scaled distance r2, with
// the signal variance s2 included in both. For Matern-1/2 h is unbounded as
// r -> 0; at r = 0 it returns h = 0, which is the subgradient used for
// coincident points (every factor h multiplies vanishes there).
func (k Kernel) shape(r2 float64) (val, h float64) {
	s2 := math.Exp(k.LogVariance)
	switch k.Family {
	case RBF:
		e := s2 * math.Exp(-0.5*r2)
		return e, -0.5 * e
	case Matern12:
		r := math.Sqrt(r2)
		e := s2 * math.Exp(-r)
		if r == 0 {
			return e, 0
		}
		return e, -e / (2 * r)
	case Matern32:
		r := math.Sqrt(3 * r2)
		e := s2 * math.Exp(-r)
		return (1 + r) * e, -1.5 * e
	case Matern52:
		r := math.Sqrt(5 * r2)
		e := s2 * math.Exp(-r)
		return (1 + r + r*r/3) * e, -(5.0 / 6.0) * (1 + r) * e
	}
	panic("gp: unknown kernel family")
}

// Eval returns k(x, y). It panics if len(x) != len(y) or the number of
// lengthscales does not fit.
func (k Kernel) Eval(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("gp: Kernel.Eval: length mismatch")
	}
	k.check(len(x))
	v, _ := k.shape(k.r2(x, y))
	return v
}

// GradParams returns k(x, y) and writes into dst (length k.NumParams()) the
// gradient of k(x, y) with respect to [LogVariance, LogLengthscales...].
func (k Kernel) GradParams(dst, x, y []float64) float64 {
	if len(x) != len(y) || len(dst) != k.NumParams() {
		panic("gp: Kernel.GradParams: length mismatch")
	}
	k.check(len(x))
	r2 := k.r2(x, y)
	v, h := k.shape(r2)
	dst[0] = v
	// d r^2 / d log l_i = -2 (x_i - y_i)^2 / l_i^2.
	if len(k.LogLengthscales) == 1 {
		dst[1] = -2 * r2 * h
		return v
	}
	for i := range x {
		d := x[i] - y[i]
		dst[1+i] = -2 * d * d * k.invl2(i) * h
	}
	return v
}

// GradX returns k(x, y) and writes into dst (length len(x)) the gradient of
// k(x, y) with respect to x. The gradient with respect to y is its negative.
// At x = y it is zero (for Matern-1/2, the symmetric subgradient).
func (k Kernel) GradX(dst, x, y []float64) float64 {
	if len(x) != len(y) || len(dst) != len(x) {
		panic("gp: Kernel.GradX: length mismatch")
	}
	k.check(len(x))
	v, h := k.shape(k.r2(x, y))
	for i := range x {
		dst[i] = 2 * h * (x[i] - y[i]) * k.invl2(i)
	}
	return v
}

// Matrix returns the n×m cross-covariance matrix K[i][j] = k(X_i, Y_j) for
// the rows of X (n×d) and Y (m×d).
func (k Kernel) Matrix(X, Y mat.Matrix) *mat.Dense {
	n, d := X.Dims()
	m, d2 := Y.Dims()
	if d != d2 {
		panic("gp: Kernel.Matrix: dimension mismatch")
	}
	k.check(d)
	inv := k.invLengthscales(d)
	xr, yr := scaleRows(rows(X), inv), scaleRows(rows(Y), inv)
	out := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		row := out.RawRowView(i)
		for j := 0; j < m; j++ {
			row[j], _ = k.shape(sqDist(xr[i], yr[j]))
		}
	}
	return out
}

// SymMatrix returns the n×n covariance matrix of the rows of X.
func (k Kernel) SymMatrix(X mat.Matrix) *mat.SymDense {
	n, d := X.Dims()
	k.check(d)
	xr := scaleRows(rows(X), k.invLengthscales(d))
	out := mat.NewSymDense(n, nil)
	raw := out.RawSymmetric()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for j := i; j < n; j++ {
			row[j], _ = k.shape(sqDist(xr[i], xr[j]))
		}
	}
	return out
}

// invLengthscales returns 1/l_i for each of the d input dimensions.
func (k Kernel) invLengthscales(d int) []float64 {
	inv := make([]float64, d)
	for i := range inv {
		inv[i] = math.Sqrt(k.invl2(i))
	}
	return inv
}

// scaleRows returns copies of the rows divided elementwise by the
// lengthscales (multiplied by inv).
func scaleRows(xr [][]float64, inv []float64) [][]float64 {
	if len(xr) == 0 {
		return nil
	}
	d := len(inv)
	buf := make([]float64, len(xr)*d)
	out := make([][]float64, len(xr))
	for i, r := range xr {
		o := buf[i*d : (i+1)*d : (i+1)*d]
		for j, v := range r {
			o[j] = v * inv[j]
		}
		out[i] = o
	}
	return out
}

// pairGrad evaluates k at the pre-scaled inputs a = x/l, b = y/l and writes
// the gradient with respect to the hyperparameters into dk (if not nil) and
// with respect to the unscaled x into gx (if not nil). inv holds 1/l_i.
func (k Kernel) pairGrad(dk, gx, a, b, inv []float64) float64 {
	var r2 float64
	for t := range a {
		u := a[t] - b[t]
		r2 += u * u
	}
	v, h := k.shape(r2)
	if dk != nil {
		dk[0] = v
		if len(dk) == 2 {
			dk[1] = -2 * r2 * h
		} else {
			for t := range a {
				u := a[t] - b[t]
				dk[1+t] = -2 * u * u * h
			}
		}
	}
	if gx != nil {
		for t := range a {
			gx[t] = 2 * h * (a[t] - b[t]) * inv[t]
		}
	}
	return v
}

// rows returns the rows of X as slices (views when X is a *mat.Dense).
func rows(X mat.Matrix) [][]float64 {
	n, d := X.Dims()
	out := make([][]float64, n)
	if dx, ok := X.(*mat.Dense); ok {
		for i := range out {
			out[i] = dx.RawRowView(i)[:d:d]
		}
		return out
	}
	for i := range out {
		out[i] = make([]float64, d)
		for j := range out[i] {
			out[i][j] = X.At(i, j)
		}
	}
	return out
}
