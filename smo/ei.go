package smo

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/optimize"
)

// ExpectedImprovement is EI for maximization of a Gaussian N(mu, sigma^2)
// over the incumbent best:
//
//	EI = (mu - best) Phi(z) + sigma phi(z),  z = (mu - best) / sigma
//
// and max(mu - best, 0) when sigma <= 0.
func ExpectedImprovement(mu, sigma, best float64) float64 {
	d := mu - best
	if !(sigma > 0) {
		return math.Max(d, 0)
	}
	z := d / sigma
	cdf := 0.5 * math.Erfc(-z/math.Sqrt2)
	pdf := math.Exp(-0.5*z*z) / math.Sqrt(2*math.Pi)
	return d*cdf + sigma*pdf
}

// Maximizer sets how acquisition functions are maximized on a box: Raw
// uniform random candidates, then Nelder-Mead (gonum/optimize) from the
// Starts best of them, each with at most Evals function evaluations; the
// objective is evaluated at the clamp of the simplex's points to the box.
// Zero values: Raw 512, Starts 10, Evals 100*d (BoTorch's optimize_acqf
// defaults are raw_samples 512, num_restarts 10, with L-BFGS-B); Starts < 0
// means no local search (the best random candidate wins).
type Maximizer struct {
	Raw, Starts, Evals int
}

// Maximize returns an argmax in [lo, hi] of f and its value. Extra points in
// seeds (for example the incumbent) join the random candidates.
func (m Maximizer) Maximize(f func([]float64) float64, lo, hi []float64, seeds [][]float64, rng *rand.Rand) ([]float64, float64) {
	d := len(lo)
	raw, starts, evals := m.Raw, m.Starts, m.Evals
	if raw <= 0 {
		raw = 512
	}
	if starts == 0 {
		starts = 10
	}
	if evals <= 0 {
		evals = 100 * d
	}
	type cand struct {
		x []float64
		v float64
	}
	cands := make([]cand, 0, raw+len(seeds))
	for i := 0; i < raw; i++ {
		x := make([]float64, d)
		for j := range x {
			x[j] = lo[j] + rng.Float64()*(hi[j]-lo[j])
		}
		cands = append(cands, cand{x, f(x)})
	}
	for _, s := range seeds {
		x := clampTo(nil, s, lo, hi)
		cands = append(cands, cand{x, f(x)})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].v > cands[j].v })
	best := cands[0]
	width := 0.0
	for j := range lo {
		width += (hi[j] - lo[j]) / float64(d)
	}
	buf := make([]float64, d)
	obj := func(x []float64) float64 {
		v := f(clampTo(buf, x, lo, hi))
		if math.IsNaN(v) {
			return math.Inf(1)
		}
		return -v
	}
	for s := 0; s < starts && s < len(cands); s++ {
		res, err := optimize.Minimize(optimize.Problem{Func: obj}, cands[s].x,
			&optimize.Settings{FuncEvaluations: evals, Converger: &optimize.FunctionConverge{Absolute: 1e-12, Iterations: 50}},
			&optimize.NelderMead{SimplexSize: 0.05 * width})
		if res == nil || err != nil && res.X == nil {
			continue // a failed local search leaves the random candidate
		}
		x := clampTo(nil, res.X, lo, hi)
		if v := f(x); v > best.v {
			best = cand{x, v}
		}
	}
	return best.x, best.v
}

func clampTo(dst, x, lo, hi []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(x))
	}
	for i, v := range x {
		dst[i] = math.Min(math.Max(v, lo[i]), hi[i])
	}
	return dst
}
