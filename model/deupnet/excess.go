package deupnet

import (
	"math"

	"github.com/deup-screening/deup/model"
	"gonum.org/v1/gonum/optimize"
)

// The excess link: e(x) = a(x) + u(x) with u(x) > 0 (issue 29).
//
// The paper's u = e − a (§3, eq. "deup-er-estimate") is an excess risk:
// the expected squared error of μ at x can never be below the noise
// variance of its target, e(x) ≥ a(x). DEUP's σ path estimates e and the
// replicates estimate a separately, so the two estimates cross wherever
// the σ path is low or a(x) high, and max(e − a, 0) is 0 there although
// every out-of-sample residual is a sample of a + u with u ≥ 0.
//
// The link builds the constraint into the error model instead of
// clipping after the fact. With s(x) the σ path's squared output (its
// estimate of the total error, unconstrained) and a(x) the target's noise
// variance,
//
//	u(x) = τ · softplus((c·s(x) − a(x)) / τ),   e(x) = a(x) + u(x),
//
// a smooth positive part of the excess c·s − a: where the σ path is well
// above the noise, u ≈ c·s − a and e ≈ c·s (the σ path, rescaled by c);
// where it is at or below, u decays smoothly towards 0 over a width τ
// instead of being cut at 0. The hard positive part max(c·s − a, 0), the
// split before this link with c = 1, is the limit τ → 0. c > 0 and τ > 0
// are the maximum-likelihood fit of the out-of-sample residuals of D_out
// (the validation pairs, r_i = (y_i − μ_i)², targets means of N_i
// measurements): r_i ~ N(0, e_i) with e_i = a_i/N_i + u_i, i.e. the
// minimum of Σ log e_i + r_i/e_i over (log c, log τ) by Nelder–Mead from
// (c, τ) = (1, mean a_i/N_i). Nothing is set by hand: where the residuals
// of the pairs with c·s ≤ a exceed their noise, the fit widens τ and u
// stays well above 0 there; where they do not, τ shrinks and u is small
// (but the split says so, rather than a clamp).
//
// The noise a(x) itself is the replicates' estimate, known only up to
// their sampling error (a screen with 16 replicated pairs has about 16
// degrees of freedom), and the out-of-sample residuals bound it: e ≥ a,
// so residuals smaller than a say a is too large. a(x) therefore enters
// as λ·a(x) with one scale λ > 0 fitted jointly, its likelihood the sum
// of the residuals' and the replicates' (the replicate variances s_i² of
// the replicated pairs, scaled χ² with d_i degrees of freedom around
// λ·a(x_i): −2 log L = D log λ + Q/λ, D = Σ d_i, Q = Σ d_i s_i²/a(x_i),
// minimal at λ = Q/D ≈ 1). With many replicates λ stays near 1; with few,
// and residuals below them (MCF7's 16 replicated pairs have sd 60.7, its
// targets 46.6), λ moves a(x) down to what the residuals allow. The three
// parameters are fitted by Nelder–Mead on (log c, log τ, log λ) from
// (1, mean a, Q/D).
//
// σ_aleatoric² = λ·a(x)/RepN and σ_epistemic² = u(x) then need no min():
// σ_total² = e(x) ≥ σ_aleatoric² by construction.

// excessU is u = τ softplus((c s − a)/τ).
func excessU(c, tau, s, a float64) float64 { return tau * model.Softplus((c*s-a)/tau) }

// replicates is the replicate likelihood of the noise scale λ: the
// replicated pairs' D = Σ d_i degrees of freedom and Q = Σ d_i s_i²/ã_i,
// ã_i the pooled estimate a(x_i). Under noise variance λ ã_i the s_i² are
// scaled χ², −2 log-likelihood D log λ + Q/λ + const (minimal at λ = Q/D,
// about 1 as ã pools these same s_i²).
type replicates struct{ D, Q float64 }

// excessFit is the fitted link.
type excessFit struct{ C, Tau, Lambda float64 }

// fitExcessLink fits (c, τ, λ) of the excess link by maximum likelihood
// on squared residuals r, σ-path totals s and pooled noise variances a
// (standardized units, one per D_out pair), jointly with the replicates'
// likelihood of λ. It returns the zero excessFit, no link, when there are
// fewer than 3 pairs, no positive noise or no finite fit.
func fitExcessLink(r, s, a []float64, rep replicates) excessFit {
	n := len(r)
	meanA := 0.0
	for _, v := range a {
		meanA += v
	}
	if n < 3 || !(meanA > 0) {
		return excessFit{}
	}
	meanA /= float64(n)
	nll := func(x []float64) float64 {
		c, tau, lam := math.Exp(x[0]), math.Exp(x[1]), math.Exp(x[2])
		if !(c > 0) || !(tau > 0) || !(lam > 0) || math.IsInf(c, 0) || math.IsInf(tau, 0) || math.IsInf(lam, 0) {
			return math.Inf(1)
		}
		l := 0.0
		for i := range r {
			al := lam * a[i]
			e := al + excessU(c, tau, s[i], al)
			if !(e > 0) {
				return math.Inf(1)
			}
			l += math.Log(e) + r[i]/e
		}
		if rep.D > 0 {
			l += rep.D*math.Log(lam) + rep.Q/lam
		}
		return l / float64(n)
	}
	x0 := []float64{0, math.Log(meanA), 0}
	if rep.D > 0 && rep.Q > 0 {
		x0[2] = math.Log(rep.Q / rep.D)
	}
	res, err := optimize.Minimize(optimize.Problem{Func: nll}, x0,
		&optimize.Settings{FuncEvaluations: 3000, Converger: &optimize.FunctionConverge{Absolute: 1e-10, Iterations: 100}},
		&optimize.NelderMead{SimplexSize: 0.5})
	x := x0
	if res != nil && !math.IsNaN(res.F) && !math.IsInf(res.F, 0) && res.F <= nll(x0) {
		x = res.X
	} else if err != nil && math.IsInf(nll(x0), 0) {
		return excessFit{}
	}
	f := excessFit{C: math.Exp(x[0]), Tau: math.Exp(x[1]), Lambda: math.Exp(x[2])}
	for _, v := range []float64{f.C, f.Tau, f.Lambda} {
		if !(v > 0) || math.IsInf(v, 0) {
			return excessFit{}
		}
	}
	return f
}
