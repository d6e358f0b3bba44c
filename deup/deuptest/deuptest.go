// Package deuptest holds toy problems with known answers that every use of
// the deup core must pass, in the spirit of gonum's lapack/testlapack: a
// package that uses deup builds its Config and calls the Check functions
// from its own tests.
//
// Fig1 is the paper's Figure 1: a function fitted on [0, 0.5] ∪ [1.5, 2],
// where a GP's posterior standard deviation fails to enclose the truth in
// [0.5, 1.5] and DEUP's predicted error must not. The truth is
// 0.5 x + 2 exp(-((x - 1)/0.15)^2): linear where the data are (the bump is
// below 2e-5 there), with a bump of height 2 in the gap, so a model fitted on
// the data is confidently wrong in the gap: the misspecification DEUP exists
// to catch.
package deuptest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deup-screening/deup/deup"
)

// Problem is a 1-D regression toy with a known truth.
type Problem struct {
	Name           string
	Truth          func(x float64) float64
	TrainX         [][]float64
	TrainY         []float64
	ValidX         [][]float64 // out-of-sample points for Algorithm 1
	ValidY         []float64
	GapLo, GapHi   float64 // the region without training data
	GridLo, GridHi float64 // the test grid
}

// Fig1Truth is the truth of Fig1.
func Fig1Truth(x float64) float64 { return 0.5*x + 2*math.Exp(-math.Pow((x-1)/0.15, 2)) }

// Fig1 returns the paper's Figure 1 problem: 8 evenly spaced training points
// on each of [0, 0.5] and [1.5, 2], noiseless, and 25 validation points drawn
// uniformly on [0, 2] from seed.
func Fig1(seed uint64) Problem {
	p := Problem{Name: "fig1", Truth: Fig1Truth, GapLo: 0.5, GapHi: 1.5, GridLo: 0, GridHi: 2}
	for i := 0; i < 8; i++ {
		for _, x := range []float64{0.5 * float64(i) / 7, 1.5 + 0.5*float64(i)/7} {
			p.TrainX = append(p.TrainX, []float64{x})
			p.TrainY = append(p.TrainY, Fig1Truth(x))
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0xf161))
	for i := 0; i < 25; i++ {
		x := 2 * rng.Float64()
		p.ValidX = append(p.ValidX, []float64{x})
		p.ValidY = append(p.ValidY, Fig1Truth(x))
	}
	return p
}

// GapGrid returns n evenly spaced points strictly inside the gap (shrunk by
// 0.1 on each side, where the truth departs from the data's trend).
func (p Problem) GapGrid(n int) []float64 {
	lo, hi := p.GapLo+0.1, p.GapHi-0.1
	g := make([]float64, n)
	for i := range g {
		g[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return g
}

// Coverage is the fraction of points x where |truth(x) - mean| <= z sigma for
// (mean, sigma) = predict(x).
func Coverage(truth func(float64) float64, predict func(x float64) (mean, sigma float64), xs []float64, z float64) float64 {
	in := 0
	for _, x := range xs {
		m, s := predict(x)
		if math.Abs(truth(x)-m) <= z*s {
			in++
		}
	}
	return float64(in) / float64(len(xs))
}

// MinCoverage is the coverage of the 2-sigma band in the gap that DEUP's
// estimate must reach in CheckFixed.
const MinCoverage = 0.8

// CheckFixed runs Algorithm 1 (deup.FitFixed) with cfg on Fig1 and fails t
// unless the band h(x) ± 2 sqrt(u(x)) encloses the truth on at least
// MinCoverage of the gap, and DEUP's mean predicted error in the gap exceeds
// 10 times its mean on the training inputs (it knows where it is ignorant).
// It returns the fitted model for further checks.
func CheckFixed(t testing.TB, cfg deup.Config) *deup.Fitted {
	t.Helper()
	p := Fig1(1)
	m, err := deup.FitFixed(cfg, p.TrainX, p.TrainY, p.ValidX, p.ValidY)
	if err != nil {
		t.Fatalf("deuptest: FitFixed on %s: %v", p.Name, err)
	}
	gap := p.GapGrid(41)
	cov := Coverage(p.Truth, func(x float64) (float64, float64) { return m.Sigma([]float64{x}) }, gap, 2)
	t.Logf("deuptest: %s: DEUP 2-sigma coverage of the gap %.2f", p.Name, cov)
	if cov < MinCoverage {
		t.Errorf("deuptest: %s: DEUP's 2-sigma band covers the truth on %.2f of the gap, want >= %.2f", p.Name, cov, MinCoverage)
	}
	var eGap, eTrain float64
	for _, x := range gap {
		eGap += m.Predict([]float64{x}).Epistemic / float64(len(gap))
	}
	for _, x := range p.TrainX {
		eTrain += m.Predict(x).Epistemic / float64(len(p.TrainX))
	}
	if !(eGap > 10*eTrain) {
		t.Errorf("deuptest: %s: mean predicted error in the gap %.3g not > 10x that on training inputs %.3g", p.Name, eGap, eTrain)
	}
	return m
}

// CheckLoop runs Algorithm 3 with cfg on Fig1's training set and a policy
// that acquires the grid point of largest predicted epistemic uncertainty
// (pure exploration), for steps steps after a 2-fold pre-fill. It fails t
// unless every acquisition adds one out-of-sample example whose loss is that
// of the model that chose it, and the final main predictor's largest squared
// error on the gap falls below a quarter of the initial one.
func CheckLoop(t testing.TB, cfg deup.Config, steps int) {
	t.Helper()
	p := Fig1(2)
	loop, err := deup.NewLoop(cfg, p.TrainX, p.TrainY)
	if err != nil {
		t.Fatalf("deuptest: NewLoop: %v", err)
	}
	if err := loop.Prefill(deup.PrefillOptions{InSample: true}, rand.New(rand.NewPCG(2, 2))); err != nil {
		t.Fatalf("deuptest: Prefill: %v", err)
	}
	grid := make([]float64, 101)
	for i := range grid {
		grid[i] = p.GridLo + (p.GridHi-p.GridLo)*float64(i)/100
	}
	maxGapErr := func(m *deup.Fitted) float64 {
		worst := 0.0
		for _, x := range p.GapGrid(41) {
			d := p.Truth(x) - m.Main.Predict([]float64{x})
			worst = math.Max(worst, d*d)
		}
		return worst
	}
	var first float64
	for s := 0; s <= steps; s++ {
		m, err := loop.Fit()
		if err != nil {
			t.Fatalf("deuptest: step %d: Fit: %v", s, err)
		}
		if s == 0 {
			first = maxGapErr(m)
		}
		if s == steps {
			if last := maxGapErr(m); !(last < first/4) {
				t.Errorf("deuptest: after %d exploring steps the largest squared error in the gap is %.3g, initial %.3g: want < 1/4", steps, last, first)
			}
			return
		}
		bx, bu := grid[0], math.Inf(-1)
		for _, x := range grid {
			if u := m.Predict([]float64{x}).Epistemic; u > bu {
				bx, bu = x, u
			}
		}
		y := p.Truth(bx)
		h := m.Main.Predict([]float64{bx})
		n := len(loop.Examples())
		if err := loop.Observe([]float64{bx}, y); err != nil {
			t.Fatalf("deuptest: step %d: Observe: %v", s, err)
		}
		de := loop.Examples()
		if len(de) != n+1 || !de[n].OutOfSample || math.Abs(de[n].Loss-(y-h)*(y-h)) > 1e-12*(1+de[n].Loss) {
			t.Fatalf("deuptest: step %d: D_e entry %+v, want out-of-sample loss %v", s, de[len(de)-1], (y-h)*(y-h))
		}
	}
}

// CheckAleatoric fits deup.FitAleatoric with learner on 200 inputs of
// [0, 1] with K = 4 replicates of noise variance 0.01 + 0.2 x (seeded), and
// fails t unless a(x) is within 20% of the true variance at x = 0.2, 0.5,
// 0.8. A learner that cannot fit a linear trend fails.
func CheckAleatoric(t testing.TB, learner deup.Learner) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 5))
	truth := func(x float64) float64 { return 0.01 + 0.2*x }
	var xs [][]float64
	var reps [][]float64
	for i := 0; i < 200; i++ {
		x := rng.Float64()
		r := make([]float64, 4)
		for k := range r {
			r[k] = math.Sin(3*x) + math.Sqrt(truth(x))*rng.NormFloat64()
		}
		xs, reps = append(xs, []float64{x}), append(reps, r)
	}
	a, err := deup.FitAleatoric(learner, xs, reps)
	if err != nil {
		t.Fatalf("deuptest: FitAleatoric: %v", err)
	}
	for _, x := range []float64{0.2, 0.5, 0.8} {
		if got, want := a.Predict([]float64{x}), truth(x); math.Abs(got-want) > 0.2*want {
			t.Errorf("deuptest: a(%v) = %.4g, true aleatoric variance %.4g", x, got, want)
		}
	}
}
