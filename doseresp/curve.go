package doseresp

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// CurveModel names the four-parameter curve family of a fit (drc's LL.4 or
// L.4).
type CurveModel uint8

const (
	// LL4 is drc's LL.4 log-logistic on the dose:
	// f(x) = c + (d-c) / (1 + exp(b*(ln x - ln e))), x the dose (x = 0 gives d when b > 0, c when b < 0).
	LL4 CurveModel = iota + 1
	// L4 is drc's L.4 logistic on its covariate x:
	// f(x) = c + (d-c) / (1 + exp(b*(x - e))). SynergyFinder fits it on x = ln(dose)
	// (dose 0 replaced by 1e-10), so its ED50 on the dose scale is exp(e).
	L4
)

func (m CurveModel) String() string {
	switch m {
	case LL4:
		return "LL.4"
	case L4:
		return "L.4"
	}
	return "none"
}

// ZeroDose is the dose SynergyFinder substitutes for 0 before taking ln(dose)
// for an L.4 fit.
const ZeroDose = 1e-10

// ErrFit reports a curve that could not be fitted (too few distinct doses
// for the self-starting values, or a fit that did not reach finite values).
var ErrFit = errors.New("doseresp: fit failed")

// Curve is a fitted four-parameter curve with drc's names: B slope, C lower
// (response at the dose where exp(b*(...)) is large), D upper, E the ED50 on
// the covariate the model was fitted on (the dose for LL4, ln dose for L4).
// RSS is the residual sum of squares at the fit and N the number of points.
type Curve struct {
	Model      CurveModel
	B, C, D, E float64
	RSS        float64
	N          int
}

// At returns the curve at covariate x: the dose for LL4, the fitted covariate
// (ln dose as SynergyFinder fits it) for L4.
func (c Curve) At(x float64) float64 {
	return c.C + (c.D-c.C)*c.share(x)
}

// AtDose returns the response at a dose: At(dose) for LL4, At(ln dose) for L4.
func (c Curve) AtDose(dose float64) float64 {
	if c.Model == L4 {
		if dose <= 0 {
			dose = ZeroDose
		}
		return c.At(math.Log(dose))
	}
	return c.At(dose)
}

// IC50 is the dose of half effect between C and D: E for LL4, exp(E) for L4
// (TidyComb's CalculateIC50).
func (c Curve) IC50() float64 {
	if c.Model == L4 {
		return math.Exp(c.E)
	}
	return c.E
}

// share is 1/(1+exp(t)), t = b*(ln x - ln e) for LL4 or b*(x - e) for L4.
func (c Curve) share(x float64) float64 {
	if c.Model == LL4 {
		if x <= 0 {
			switch {
			case c.B > 0:
				return 1
			case c.B < 0:
				return 0
			}
			return 0.5
		}
		return logistic(c.B * (math.Log(x) - math.Log(c.E)))
	}
	return logistic(c.B * (x - c.E))
}

// logistic returns 1/(1+exp(t)) without overflow.
func logistic(t float64) float64 {
	if t > 0 {
		u := math.Exp(-t)
		return u / (1 + u)
	}
	return 1 / (1 + math.Exp(t))
}

// Fixed holds the asymptotes a fit keeps fixed, drc's `fixed = c(NA, Emin,
// Emax, NA)`: a NaN is estimated. The zero value fixes both at 0: use Free.
type Fixed struct{ C, D float64 }

// Free returns a Fixed that estimates both asymptotes (all four parameters).
func Free() Fixed { return Fixed{C: math.NaN(), D: math.NaN()} }

// Fit fits model m to (x, y) by least squares as drc's drm does with its
// defaults, x the model's covariate (the dose for LL4, ln dose as
// SynergyFinder gives it for L4), with the asymptotes in fix held fixed:
//
//   - LL4 only: dose and response scaled by 10^floor(log10(median)) (1 where
//     that is not a positive number);
//   - starting values from drc's self-starter: c and d 0.1 % of the response
//     range beyond it (findcd), b and e from the least-squares line of
//     ln((d−y)/(y−c)) on ln x (x > 0) or on x (findbe1);
//   - optim(method = "BFGS") with parscale = |start| (1 below 1e-4),
//     central-difference gradients (ndeps 1e-3), reltol 1e-7, 500
//     iterations: Nash's variable-metric method (see vmmin), and the
//     finite-difference Hessian optim computes after it.
//
// Fit returns ErrFit where drc's fit fails: a start that is not finite (fewer
// than two distinct doses > 0 for LL4: that is what sends a 2-dose block to
// L.4), a non-finite objective at the start, or a non-finite difference in a
// gradient or the Hessian (e ≤ 0 in LL4, for example).
func Fit(m CurveModel, x, y []float64, fix Fixed) (Curve, error) {
	if len(x) != len(y) {
		panic("doseresp: Fit: len(x) != len(y)")
	}
	ds, rs := 1.0, 1.0
	if m == LL4 {
		ds, rs = scaleOf(x), scaleOf(y)
	}
	xs := make([]float64, len(x))
	ys := make([]float64, len(y))
	for i := range x {
		xs[i], ys[i] = x[i]/ds, y[i]/rs
	}
	fixS := Fixed{C: fix.C / rs, D: fix.D / rs}
	start, err := selfStart(m, xs, ys)
	if err != nil {
		return Curve{}, err
	}
	p := newProblem(m, xs, ys, fixS)
	par, err := optimBFGS(p.rss, p.pack(start))
	if err != nil {
		return Curve{}, fmt.Errorf("%w: %s: %v", ErrFit, m, err)
	}
	c := p.unpack(par)
	c.C, c.D, c.E = c.C*rs, c.D*rs, c.E*ds
	c.RSS, c.N = p.rss(par)*rs*rs, len(x)
	if !finite(c.B, c.C, c.D, c.E, c.RSS) {
		return Curve{}, fmt.Errorf("%w: %s did not reach finite parameters", ErrFit, m)
	}
	return c, nil
}

// scaleOf is drm's scaling constant 10^floor(log10(median(v))), or 1 where
// that is not a number or below 1e-15.
func scaleOf(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 1
	}
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	k := math.Pow(10, math.Floor(math.Log10(med)))
	if math.IsNaN(k) || k < 1e-15 || math.IsInf(k, 0) {
		return 1
	}
	return k
}

// FitDoseResponse is SynergyFinder's FitDoseResponse (synergyfinder 2.0.x):
// a constant response gets 1e-10 added to its last value; LL.4 on the dose is
// tried first and L.4 on ln(dose) (dose 0 → 1e-10) when LL.4 fails.
func FitDoseResponse(dose, resp []float64, fix Fixed) (Curve, error) {
	y := resp
	if len(y) > 1 && constant(y) {
		y = append([]float64(nil), resp...)
		y[len(y)-1] += 1e-10
	}
	if c, err := Fit(LL4, dose, y, fix); err == nil {
		return c, nil
	}
	lx := make([]float64, len(dose))
	for i, d := range dose {
		if d <= 0 {
			d = ZeroDose
		}
		lx[i] = math.Log(d)
	}
	return Fit(L4, lx, y, fix)
}

// selfStart is drc's findcd + findbe: c and d 0.1 % of the range beyond the
// data, b and e from the least-squares line of ln((d-y)/(y-c)) on the
// covariate.
func selfStart(m CurveModel, x, y []float64) (Curve, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range y {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if !finite(lo, hi) {
		return Curve{}, fmt.Errorf("%w: non-finite response", ErrFit)
	}
	r := 0.001 * (hi - lo)
	c, d := lo-r, hi+r
	var n, sx, sz, sxx, sxz float64
	first, distinct := math.NaN(), false
	for i, xi := range x {
		if m == LL4 {
			if xi <= 0 {
				continue
			}
			xi = math.Log(xi)
		}
		z := math.Log((d - y[i]) / (y[i] - c))
		if !finite(xi, z) {
			continue
		}
		if math.IsNaN(first) {
			first = xi
		} else if xi != first {
			distinct = true
		}
		n++
		sx += xi
		sz += z
		sxx += xi * xi
		sxz += xi * z
	}
	den := n*sxx - sx*sx
	if !distinct || den == 0 {
		return Curve{}, fmt.Errorf("%w: %s needs at least two distinct doses > 0", ErrFit, m)
	}
	b := (n*sxz - sx*sz) / den
	a := (sz - b*sx) / n
	if b == 0 {
		return Curve{}, fmt.Errorf("%w: flat start", ErrFit)
	}
	e := -a / b
	if m == LL4 {
		e = math.Exp(e)
	}
	return Curve{Model: m, B: b, C: c, D: d, E: e}, nil
}

// problem is the least-squares objective over the free parameters
// (b, [c], [d], e), drc's parameterisation (e itself, not its log).
type problem struct {
	m     CurveModel
	x, y  []float64
	fix   Fixed
	freeC bool
	freeD bool
}

func newProblem(m CurveModel, x, y []float64, fix Fixed) *problem {
	return &problem{m: m, x: x, y: y, fix: fix, freeC: math.IsNaN(fix.C), freeD: math.IsNaN(fix.D)}
}

// pack maps a curve to the parameter vector (b, [c], [d], e).
func (p *problem) pack(c Curve) []float64 {
	v := []float64{c.B}
	if p.freeC {
		v = append(v, c.C)
	}
	if p.freeD {
		v = append(v, c.D)
	}
	return append(v, c.E)
}

func (p *problem) params(v []float64) (b, c, d, e float64) {
	b, c, d = v[0], p.fix.C, p.fix.D
	k := 1
	if p.freeC {
		c = v[k]
		k++
	}
	if p.freeD {
		d = v[k]
		k++
	}
	return b, c, d, v[k]
}

func (p *problem) unpack(v []float64) Curve {
	b, c, d, e := p.params(v)
	return Curve{Model: p.m, B: b, C: c, D: d, E: e}
}

// rss is the residual sum of squares, evaluated as drc's model functions do
// (so a negative e in LL.4 gives NaN, as log(dose/e) does in R).
func (p *problem) rss(v []float64) float64 {
	b, c, d, e := p.params(v)
	// R's sum accumulates in extended precision; Neumaier's compensated
	// sum comes closer to it than a plain float64 loop, which matters
	// where optim stops on a relative change of 1e-7.
	var sum, comp float64
	for i, x := range p.x {
		var t float64
		if p.m == LL4 {
			t = b * math.Log(x/e)
		} else {
			t = b * (x - e)
		}
		r := c + (d-c)/(1+math.Exp(t)) - p.y[i]
		r *= r
		s := sum + r
		if math.Abs(sum) >= math.Abs(r) {
			comp += (sum - s) + r
		} else {
			comp += (r - s) + sum
		}
		sum = s
	}
	return sum + comp
}

func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// constant reports whether all values are equal (R's var(x) == 0).
func constant(x []float64) bool {
	for _, v := range x {
		if v != x[0] {
			return false
		}
	}
	return true
}
