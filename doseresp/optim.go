package doseresp

import (
	"errors"
	"math"
)

// The settings drc's drm passes to R's optim(method = "BFGS"): drmc()
// defaults maxIt = 500 and relTol = 1e-7; optim's ndeps = 1e-3 and
// abstol = −Inf.
const (
	optimMaxIt  = 500
	optimRelTol = 1e-7
	optimNDeps  = 1e-3
)

var (
	errStart    = errors.New("initial value not finite")
	errGradient = errors.New("non-finite finite-difference value")
)

// optimBFGS minimises fn from x0 as R's optim(x0, fn, method = "BFGS",
// hessian = TRUE, control = list(parscale = |x0|, reltol, maxit)) does
// without an analytic gradient: on p = x/parscale, with central differences
// of step ndeps in p for the gradient, Nash's variable-metric method (Nash
// 1990, Compact Numerical Methods, Algorithm 21; R's vmmin), and the
// finite-difference Hessian at the end, which fails where the gradient is
// not finite around the optimum. It returns the optimum in x.
func optimBFGS(fn func([]float64) float64, x0 []float64) ([]float64, error) {
	n := len(x0)
	scale := make([]float64, n)
	for i, v := range x0 {
		scale[i] = math.Abs(v)
		if scale[i] < 1e-4 {
			scale[i] = 1
		}
	}
	buf := make([]float64, n)
	f := func(p []float64) float64 {
		for i := range p {
			buf[i] = p[i] * scale[i]
		}
		return fn(buf)
	}
	q := make([]float64, n)
	grad := func(p, g []float64) error {
		copy(q, p)
		for i := range p {
			q[i] = p[i] + optimNDeps
			v1 := f(q)
			q[i] = p[i] - optimNDeps
			v2 := f(q)
			g[i] = (v1 - v2) / (2 * optimNDeps)
			if !finite(g[i]) {
				return errGradient
			}
			q[i] = p[i]
		}
		return nil
	}
	p := make([]float64, n)
	for i := range p {
		p[i] = x0[i] / scale[i]
	}
	if err := vmmin(f, grad, p); err != nil {
		return nil, err
	}
	// optimhess: gradients at p ± ndeps/parscale along each axis.
	g := make([]float64, n)
	h := append([]float64(nil), p...)
	for i := range h {
		eps := optimNDeps / scale[i]
		h[i] = p[i] + eps
		if err := grad(h, g); err != nil {
			return nil, err
		}
		h[i] = p[i] - eps
		if err := grad(h, g); err != nil {
			return nil, err
		}
		h[i] = p[i]
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = p[i] * scale[i]
	}
	return x, nil
}

// vmmin is the variable-metric minimiser with the BFGS update of the inverse
// Hessian B, backtracking (factor 0.2, Armijo constant 1e-4) from a unit
// step, B reset to the identity when a step fails or the curvature condition
// does not hold, and the stop when an accepted step changes f by no more than
// reltol·(|f| + reltol) or no coordinate moves. b is updated in place.
func vmmin(f func([]float64) float64, grad func(p, g []float64) error, b []float64) error {
	const (
		stepredn = 0.2
		acctol   = 0.0001
		reltest  = 10.0
	)
	n := len(b)
	fmin := f(b)
	if !finite(fmin) {
		return errStart
	}
	g := make([]float64, n)
	if err := grad(b, g); err != nil {
		return err
	}
	B := make([][]float64, n)
	for i := range B {
		B[i] = make([]float64, n)
	}
	X := make([]float64, n)
	c := make([]float64, n)
	t := make([]float64, n)
	iter, gradcount := 1, 1
	ilast := gradcount
	fv := fmin
	for {
		if ilast == gradcount {
			for i := range B {
				for j := range B[i] {
					B[i][j] = 0
				}
				B[i][i] = 1
			}
		}
		copy(X, b)
		copy(c, g)
		gradproj := 0.0
		for i := 0; i < n; i++ {
			s := 0.0
			for j := 0; j <= i; j++ {
				s -= B[i][j] * g[j]
			}
			for j := i + 1; j < n; j++ {
				s -= B[j][i] * g[j]
			}
			t[i] = s
			gradproj += s * g[i]
		}
		count := 0
		if gradproj < 0 && !math.IsInf(gradproj, -1) {
			steplength := 1.0
			accpoint := false
			for {
				count = 0
				for i := 0; i < n; i++ {
					b[i] = X[i] + steplength*t[i]
					if reltest+X[i] == reltest+b[i] {
						count++
					}
				}
				if count < n {
					fv = f(b)
					accpoint = finite(fv) && fv <= fmin+gradproj*steplength*acctol
					if !accpoint {
						steplength *= stepredn
					}
				}
				if count == n || accpoint {
					break
				}
				if steplength == 0 { // a direction with an infinite component
					count = n
					break
				}
			}
			enough := fv > math.Inf(-1) && math.Abs(fv-fmin) > optimRelTol*(math.Abs(fmin)+optimRelTol)
			if !enough {
				count = n
				fmin = fv
			}
			if count < n {
				fmin = fv
				if err := grad(b, g); err != nil {
					return err
				}
				gradcount++
				iter++
				D1 := 0.0
				for i := 0; i < n; i++ {
					t[i] *= steplength
					c[i] = g[i] - c[i]
					D1 += t[i] * c[i]
				}
				if D1 > 0 {
					D2 := 0.0
					for i := 0; i < n; i++ {
						s := 0.0
						for j := 0; j <= i; j++ {
							s += B[i][j] * c[j]
						}
						for j := i + 1; j < n; j++ {
							s += B[j][i] * c[j]
						}
						X[i] = s
						D2 += s * c[i]
					}
					D2 = 1 + D2/D1
					for i := 0; i < n; i++ {
						for j := 0; j <= i; j++ {
							B[i][j] += (D2*t[i]*t[j] - X[i]*t[j] - t[i]*X[j]) / D1
						}
					}
				} else {
					ilast = gradcount
				}
			} else if ilast < gradcount {
				count = 0
				ilast = gradcount
			}
		} else {
			count = 0
			if ilast == gradcount {
				count = n
			} else {
				ilast = gradcount
			}
		}
		if iter >= optimMaxIt {
			break
		}
		if gradcount-ilast > 2*n {
			ilast = gradcount
		}
		if count == n && ilast == gradcount {
			break
		}
	}
	return nil
}
