package uq

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The scores 3 1 4 1 5 9 2 6 5 sorted: 1 1 2 3 4 5 5 6 9 (n = 9).
var handScores = []float64{3, 1, 4, 1, 5, 9, 2, 6, 5}

func TestConformalQuantileByHand(t *testing.T) {
	tests := []struct {
		alpha float64
		k     int // ⌈(n+1)(1−alpha)⌉, by hand
		want  float64
	}{
		{0.1, 9, 9},  // ⌈10 × 0.9⌉ = 9: the largest
		{0.2, 8, 6},  // ⌈10 × 0.8⌉ = 8
		{0.3, 7, 5},  // ⌈10 × 0.7⌉ = 7 (10 × 0.7 is 7.000000000000001 in float64)
		{0.25, 8, 6}, // ⌈7.5⌉ = 8
		{0.5, 5, 4},  // ⌈5⌉ = 5
		{0.9, 1, 1},  // ⌈1⌉ = 1: the smallest
		{0.05, 10, math.Inf(1)},
		{0.01, 10, math.Inf(1)},
	}
	for _, tc := range tests {
		if k := ConformalRank(len(handScores), tc.alpha); k != tc.k {
			t.Errorf("ConformalRank(9, %v) = %d, want %d", tc.alpha, k, tc.k)
		}
		if got := ConformalQuantile(handScores, tc.alpha); got != tc.want {
			t.Errorf("ConformalQuantile(alpha %v) = %v, want %v", tc.alpha, got, tc.want)
		}
	}
	if handScores[0] != 3 {
		t.Error("ConformalQuantile modified its input")
	}
	for _, a := range []float64{0, 1, -0.1, math.NaN()} {
		if got := ConformalQuantile(handScores, a); !math.IsNaN(got) {
			t.Errorf("alpha %v: %v, want NaN", a, got)
		}
	}
}

func TestMinCalibration(t *testing.T) {
	// The smallest n with ⌈(n+1)(1−alpha)⌉ <= n, i.e. n >= 1/alpha − 1.
	for _, tc := range []struct {
		alpha float64
		want  int
	}{{0.1, 9}, {0.05, 19}, {0.2, 4}, {0.5, 1}, {0.3, 3}, {0.01, 99}, {0.9, 1}} {
		if got := MinCalibration(tc.alpha); got != tc.want {
			t.Errorf("MinCalibration(%v) = %d, want %d", tc.alpha, got, tc.want)
		}
		n := MinCalibration(tc.alpha)
		if ConformalRank(n, tc.alpha) > n || (n > 0 && ConformalRank(n-1, tc.alpha) <= n-1) {
			t.Errorf("alpha %v: %d is not the smallest n", tc.alpha, n)
		}
	}
}

func TestIntervalScoreByHand(t *testing.T) {
	// Gneiting & Raftery (2007) eq. 43, alpha = 0.1 (2/alpha = 20), [0, 2]:
	// y = 1 inside: 2; y = 3 above: 2 + 20 × 1 = 22; y = −0.5 below:
	// 2 + 20 × 0.5 = 12. Mean 12.
	y := []float64{1, 3, -0.5}
	lo := []float64{0, 0, 0}
	hi := []float64{2, 2, 2}
	if got := IntervalScore(y, lo, hi, 0.1); math.Abs(got-12) > 1e-12 {
		t.Errorf("IntervalScore = %v, want 12", got)
	}
	if got := IntervalCoverage(y, lo, hi); math.Abs(got-100.0/3) > 1e-12 {
		t.Errorf("IntervalCoverage = %v, want 33.33", got)
	}
	if got := MeanWidth(lo, hi); got != 2 {
		t.Errorf("MeanWidth = %v, want 2", got)
	}
	// An infinite interval covers, with infinite width and score.
	inf := []float64{math.Inf(1)}
	if c, w, s := IntervalCoverage([]float64{5}, []float64{math.Inf(-1)}, inf), MeanWidth([]float64{math.Inf(-1)}, inf), IntervalScore([]float64{5}, []float64{math.Inf(-1)}, inf, 0.1); c != 100 || !math.IsInf(w, 1) || !math.IsInf(s, 1) {
		t.Errorf("infinite interval: coverage %v width %v score %v", c, w, s)
	}
}

func TestCoverageByGroup(t *testing.T) {
	// Ten examples, sigma 10..1 (reversed), so rank order is the reverse
	// of input order; groups of 2 by rank. Covered: inputs 0, 1, 2, 5.
	sigma := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	y := make([]float64, 10)
	lo, hi := make([]float64, 10), make([]float64, 10)
	for i := range y {
		lo[i], hi[i] = -1, 1
		y[i] = 5
	}
	for _, i := range []int{0, 1, 2, 5} {
		y[i] = 0
	}
	// Groups by rank: {9,8} {7,6} {5,4} {3,2} {1,0} -> covered 0, 0, 1, 1, 2 of 2.
	want := []float64{0, 0, 50, 50, 100}
	got := CoverageByGroup(y, lo, hi, sigma, 5)
	for g := range want {
		if got[g] != want[g] {
			t.Fatalf("CoverageByGroup = %v, want %v", got, want)
		}
	}
	m := ScoreIntervals(y, lo, hi, sigma, 0.1)
	if m.WorstQuintileCoverage != 0 || m.Coverage != 40 || m.N != 10 {
		t.Errorf("ScoreIntervals = %+v", m)
	}
	// Fewer examples than groups: an empty group is NaN, and so is the worst.
	m = ScoreIntervals(y[:3], lo[:3], hi[:3], sigma[:3], 0.1)
	if !math.IsNaN(m.WorstQuintileCoverage) {
		t.Errorf("3 examples: worst %v, want NaN", m.WorstQuintileCoverage)
	}
}

// simulate draws n exchangeable examples with a known heteroscedastic
// distribution: mu ~ N(0, 1), sigma ~ exp(U(−1, 1)), y = mu + sigma t_5
// (Student t, 5 degrees of freedom: heavier tails than the Gaussian the
// sigma suggests, so Gaussian intervals would be wrong).
func simulate(rng *rand.Rand, n int) (y, mu, sigma []float64) {
	y, mu, sigma = make([]float64, n), make([]float64, n), make([]float64, n)
	t5 := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 5, Src: rng}
	for i := range y {
		mu[i] = rng.NormFloat64()
		sigma[i] = math.Exp(2*rng.Float64() - 1)
		y[i] = mu[i] + sigma[i]*t5.Rand()
	}
	return y, mu, sigma
}

// TestConformalCoverageSimulated checks the split-conformal guarantee on
// exchangeable draws: with n calibration examples and continuous scores,
// the probability that a new example is covered is exactly k/(n+1),
// k = ⌈(n+1)(1−alpha)⌉, which lies in [1−alpha, 1−alpha+1/(n+1)]
// (Vovk et al. 2005; Lei et al. 2018, Theorem 2.2). Averaged over 4000
// independent calibration sets, each scored on one fresh example, the
// observed coverage must be within 4 standard errors of k/(n+1).
func TestConformalCoverageSimulated(t *testing.T) {
	const trials = 4000
	for _, tc := range []struct {
		n     int
		alpha float64
	}{{50, 0.1}, {19, 0.1}, {200, 0.05}} {
		for _, normalized := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(16, uint64(tc.n)))
			k := ConformalRank(tc.n, tc.alpha)
			p := float64(k) / float64(tc.n+1)
			if p < 1-tc.alpha || p > 1-tc.alpha+1/float64(tc.n+1) {
				t.Fatalf("k/(n+1) = %v outside the guarantee", p)
			}
			covered := 0
			for range trials {
				y, mu, sigma := simulate(rng, tc.n+1)
				c, err := FitConformal(y[:tc.n], mu[:tc.n], sigma[:tc.n], normalized)
				if err != nil {
					t.Fatal(err)
				}
				lo, hi, err := c.Interval(mu[tc.n], sigma[tc.n], 1-tc.alpha)
				if err != nil {
					t.Fatal(err)
				}
				if lo <= y[tc.n] && y[tc.n] <= hi {
					covered++
				}
			}
			got := float64(covered) / trials
			se := math.Sqrt(p * (1 - p) / trials)
			if math.Abs(got-p) > 4*se {
				t.Errorf("n %d alpha %v normalized %v: coverage %.4f, want %.4f ± %.4f", tc.n, tc.alpha, normalized, got, p, 4*se)
			}
		}
	}
}

// TestConditionalCoverageSimulated is the premise of normalized intervals:
// when the error scales with sigma, constant-width (plain) intervals
// over-cover small-sigma examples and under-cover large-sigma ones, while
// sigma-normalized intervals cover every sigma quintile near 1 − alpha.
// One calibration set of 2000, 20000 test examples (standard error of a
// quintile's coverage about 0.5 point).
func TestConditionalCoverageSimulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	yc, mc, sc := simulate(rng, 2000)
	y, mu, sigma := simulate(rng, 20000)
	for _, normalized := range []bool{false, true} {
		c, err := FitConformal(yc, mc, sc, normalized)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := make([]float64, len(y)), make([]float64, len(y))
		for i := range y {
			if lo[i], hi[i], err = c.Interval(mu[i], sigma[i], 0.9); err != nil {
				t.Fatal(err)
			}
		}
		m := ScoreIntervals(y, lo, hi, sigma, 0.1)
		if math.Abs(m.Coverage-90) > 1.5 {
			t.Errorf("normalized %v: coverage %.2f, want 90 ± 1.5", normalized, m.Coverage)
		}
		if normalized && math.Abs(m.WorstQuintileCoverage-90) > 2 {
			t.Errorf("normalized: worst quintile %.2f, want 90 ± 2 (%v)", m.WorstQuintileCoverage, m.QuintileCoverage)
		}
		if !normalized && m.WorstQuintileCoverage > 80 {
			t.Errorf("plain: worst quintile %.2f, want well under 90 (%v)", m.WorstQuintileCoverage, m.QuintileCoverage)
		}
	}
}

func TestCrossConformal(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	y, mu, sigma := simulate(rng, 401)
	for _, normalized := range []bool{false, true} {
		lo, hi, err := CrossConformal(y, mu, sigma, 0.1, normalized, 7)
		if err != nil {
			t.Fatal(err)
		}
		lo2, hi2, _ := CrossConformal(y, mu, sigma, 0.1, normalized, 7)
		for i := range y {
			if lo[i] != lo2[i] || hi[i] != hi2[i] {
				t.Fatal("same seed, different intervals")
			}
			if !(lo[i] < mu[i] && mu[i] < hi[i]) {
				t.Fatalf("example %d: [%v, %v] does not contain mu %v", i, lo[i], hi[i], mu[i])
			}
		}
		// Each half's intervals come from the other half's scores: rebuild
		// them by hand from the same permutation.
		perm := rand.New(rand.NewPCG(7, CrossConformalStream)).Perm(len(y))
		a, b := perm[:200], perm[200:]
		s := func(idx []int) []float64 {
			out := make([]float64, len(idx))
			for k, i := range idx {
				out[k] = math.Abs(y[i] - mu[i])
				if normalized {
					out[k] /= sigma[i]
				}
			}
			return out
		}
		qa, qb := ConformalQuantile(s(b), 0.1), ConformalQuantile(s(a), 0.1) // a calibrated on b
		i, j := a[0], b[0]
		wa, wb := qa, qb
		if normalized {
			wa, wb = qa*sigma[i], qb*sigma[j]
		}
		if math.Abs(hi[i]-mu[i]-wa) > 1e-12 || math.Abs(hi[j]-mu[j]-wb) > 1e-12 {
			t.Errorf("normalized %v: half-widths %v %v, want %v %v", normalized, hi[i]-mu[i], hi[j]-mu[j], wa, wb)
		}
		cov := IntervalCoverage(y, lo, hi)
		if cov < 85 || cov > 95 {
			t.Errorf("normalized %v: coverage %.1f", normalized, cov)
		}
	}
	if _, _, err := CrossConformal(y[:17], mu[:17], sigma[:17], 0.1, true, 1); !errors.Is(err, ErrTooFewPairs) {
		t.Errorf("17 examples at alpha 0.1 (halves 8 and 9, need 9): %v, want ErrTooFewPairs", err)
	}
	if _, _, err := CrossConformal(y[:18], mu[:18], sigma[:18], 0.1, true, 1); err != nil {
		t.Errorf("18 examples at alpha 0.1: %v", err)
	}
	if _, _, err := CrossConformal(y, mu, sigma, 1, true, 1); !errors.Is(err, ErrCoverage) {
		t.Errorf("alpha 1: %v, want ErrCoverage", err)
	}
	bad := append([]float64(nil), sigma...)
	bad[3] = 0
	if _, _, err := CrossConformal(y, mu, bad, 0.1, true, 1); err == nil || !strings.Contains(err.Error(), "example 3") {
		t.Errorf("sigma 0: %v, want an error naming example 3", err)
	}
	if _, _, err := CrossConformal(y, mu, nil, 0.1, false, 1); err != nil {
		t.Errorf("plain without sigma: %v", err)
	}
}

func TestFitScale(t *testing.T) {
	// y ~ N(mu, (2 sigma)^2): the maximum-likelihood scale is 2 up to
	// sampling error (sd of the estimate about 2/sqrt(2n) = 0.02).
	rng := rand.New(rand.NewPCG(16, 4))
	n := 5000
	y, mu, sigma := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range y {
		mu[i], sigma[i] = rng.NormFloat64(), math.Exp(rng.Float64())
		y[i] = mu[i] + 2*sigma[i]*rng.NormFloat64()
	}
	c, err := FitScale(y, mu, sigma)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.Scale-2) > 0.08 {
		t.Errorf("scale %v, want 2 ± 0.08", c.Scale)
	}
	lo, hi, err := c.Interval(1, 1, 0.9)
	if want := 1.6448536269514722 * c.Scale; err != nil || math.Abs(hi-1-want) > 1e-12 || math.Abs(1-lo-want) > 1e-12 {
		t.Errorf("interval [%v, %v] %v, want 1 ± %v", lo, hi, err, want)
	}
	// By hand: z = 1, −3 -> s = sqrt((1 + 9)/2) = sqrt(5).
	c, err = FitScale([]float64{1, -3}, []float64{0, 0}, []float64{1, 1})
	if err != nil || math.Abs(c.Scale-math.Sqrt(5)) > 1e-15 {
		t.Errorf("scale %v %v, want sqrt(5)", c.Scale, err)
	}
	if _, err := FitScale([]float64{1, 2}, []float64{1, 2}, []float64{1, 1}); err == nil {
		t.Error("scale 0: no error")
	}
}

// TestIsotonicRecalibration: predictions N(mu, sigma^2) for data that are
// N(mu + 0.5 sigma, (2 sigma)^2), biased and overconfident. The Gaussian
// 90 % interval covers far less than 90 %; after isotonic recalibration on
// 2000 pairs, fresh pairs' 90 % intervals cover 90 % ± 1.5 and their
// recalibrated PIT values are uniform (miscalibration area small).
func TestIsotonicRecalibration(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 5))
	draw := func(n int) (y, mu, sigma []float64) {
		y, mu, sigma = make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range y {
			mu[i], sigma[i] = rng.NormFloat64(), math.Exp(rng.Float64()-0.5)
			y[i] = mu[i] + 0.5*sigma[i] + 2*sigma[i]*rng.NormFloat64()
		}
		return y, mu, sigma
	}
	yc, mc, sc := draw(2000)
	c, err := FitIsotonic(yc, mc, sc)
	if err != nil {
		t.Fatal(err)
	}
	y, mu, sigma := draw(20000)
	lo, hi := make([]float64, len(y)), make([]float64, len(y))
	glo, ghi := make([]float64, len(y)), make([]float64, len(y))
	var ks float64
	pit := make([]float64, len(y))
	for i := range y {
		if lo[i], hi[i], err = c.Interval(mu[i], sigma[i], 0.9); err != nil {
			t.Fatal(err)
		}
		glo[i], ghi[i] = mu[i]-1.6448536269514722*sigma[i], mu[i]+1.6448536269514722*sigma[i]
		if pit[i], err = c.CDF(y[i], mu[i], sigma[i]); err != nil {
			t.Fatal(err)
		}
	}
	before, after := IntervalCoverage(y, glo, ghi), IntervalCoverage(y, lo, hi)
	if before > 65 {
		t.Errorf("uncalibrated coverage %.1f: the test data are not miscalibrated enough", before)
	}
	if math.Abs(after-90) > 1.5 {
		t.Errorf("recalibrated coverage %.2f, want 90 ± 1.5 (before: %.1f)", after, before)
	}
	// The recalibrated PITs: the largest gap between their empirical CDF
	// and the uniform (Kolmogorov–Smirnov statistic) is small.
	sorted := append([]float64(nil), pit...)
	sortFloats(sorted)
	for i, p := range sorted {
		ks = max(ks, math.Abs(float64(i+1)/float64(len(sorted))-p), math.Abs(float64(i)/float64(len(sorted))-p))
	}
	if ks > 0.03 {
		t.Errorf("recalibrated PIT KS distance %.4f, want < 0.03", ks)
	}
	// The map itself equals a pool-adjacent-violators isotonic fit of the
	// empirical frequencies on the PITs (written here independently).
	raw := make([]float64, len(yc))
	for i := range yc {
		raw[i] = distuv.UnitNormal.CDF((yc[i] - mc[i]) / sc[i])
	}
	sortFloats(raw)
	freq := make([]float64, len(raw))
	for i := range raw {
		n := 0
		for _, q := range raw {
			if q <= raw[i] {
				n++
			}
		}
		freq[i] = float64(n) / float64(len(raw))
	}
	fit := pav(freq)
	for i := range raw {
		if got := c.recalibrate(raw[i]); math.Abs(got-fit[i]) > 1e-12 {
			t.Fatalf("R(%v) = %v, PAV fit %v", raw[i], got, fit[i])
		}
	}
}

// pav is the pool-adjacent-violators algorithm: the non-decreasing
// sequence closest to v in least squares.
func pav(v []float64) []float64 {
	type block struct {
		sum float64
		n   int
	}
	var bs []block
	for _, x := range v {
		bs = append(bs, block{x, 1})
		for len(bs) > 1 && bs[len(bs)-2].sum/float64(bs[len(bs)-2].n) > bs[len(bs)-1].sum/float64(bs[len(bs)-1].n) {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			bs = append(bs[:len(bs)-2], block{a.sum + b.sum, a.n + b.n})
		}
	}
	var out []float64
	for _, b := range bs {
		for range b.n {
			out = append(out, b.sum/float64(b.n))
		}
	}
	return out
}

func sortFloats(x []float64) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

func TestIsotonicByHand(t *testing.T) {
	// Four PITs 0.2, 0.4, 0.4, 0.8: knots (0,0) (0.2,0.25) (0.4,0.75)
	// (0.8,1) (1,1).
	c := Calibrator{Method: MethodIsotonic, N: 4, Scores: []float64{0.2, 0.4, 0.4, 0.8}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ p, r float64 }{{0, 0}, {0.1, 0.125}, {0.2, 0.25}, {0.3, 0.5}, {0.4, 0.75}, {0.6, 0.875}, {0.8, 1}, {0.9, 1}, {1, 1}} {
		if got := c.recalibrate(tc.p); math.Abs(got-tc.r) > 1e-12 {
			t.Errorf("R(%v) = %v, want %v", tc.p, got, tc.r)
		}
	}
	for _, tc := range []struct{ q, p float64 }{{0.125, 0.1}, {0.25, 0.2}, {0.5, 0.3}, {0.875, 0.6}, {0.99, 0.784}} {
		if got := c.inverse(tc.q); math.Abs(got-tc.p) > 1e-12 {
			t.Errorf("R^-1(%v) = %v, want %v", tc.q, got, tc.p)
		}
	}
}

func TestCalibratorErrors(t *testing.T) {
	conf, err := FitConformal(handScores, make([]float64, 9), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		c        Calibrator
		coverage float64
		want     error
	}{
		{"no calibration", Calibrator{}, 0.9, ErrNoCalibration},
		{"coverage 0", conf, 0, ErrCoverage},
		{"coverage 1", conf, 1, ErrCoverage},
		{"coverage 90 (percent)", conf, 90, ErrCoverage},
		{"coverage NaN", conf, math.NaN(), ErrCoverage},
		{"too few pairs: 9 for 0.95", conf, 0.95, ErrTooFewPairs},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := tc.c.Interval(0, 1, tc.coverage)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
	// 9 pairs at 0.9: k = 9, the largest score; plain intervals ignore sigma.
	lo, hi, err := conf.Interval(10, 0, 0.9)
	if err != nil || lo != 1 || hi != 19 {
		t.Errorf("interval [%v, %v] %v, want [1, 19]", lo, hi, err)
	}
	norm, _ := FitConformal(handScores, make([]float64, 9), []float64{1, 1, 1, 1, 1, 1, 1, 1, 2}, true)
	// Scores 3 1 4 1 5 9 2 6 2.5 sorted: 1 1 2 2.5 3 4 5 6 9; coverage 0.8 -> k = 8: 6.
	if lo, hi, err := norm.Interval(0, 0.5, 0.8); err != nil || lo != -3 || hi != 3 {
		t.Errorf("normalized interval [%v, %v] %v, want [-3, 3]", lo, hi, err)
	}
	if _, _, err := norm.Interval(0, 0, 0.8); err == nil {
		t.Error("normalized with sigma 0: no error")
	}
	if _, _, err := norm.Interval(math.Inf(1), 1, 0.8); err == nil {
		t.Error("infinite mu: no error")
	}
	if _, err := conf.CDF(0, 0, 1); err == nil {
		t.Error("conformal CDF: no error")
	}
}

func TestCalibratorJSON(t *testing.T) {
	c, err := FitConformal([]float64{1, 2, 3}, []float64{0, 0, 0}, []float64{1, 2, 4}, true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"method":"conformal-normalized","n":3,"scores":[0.75,1,1]}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	var back Calibrator
	if err := json.Unmarshal(b, &back); err != nil || back.N != 3 || back.Scores[0] != 0.75 || back.Method != c.Method {
		t.Errorf("round trip %+v %v", back, err)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"method":"conformal","n":2,"scores":[2,1]}`, "not sorted"},
		{`{"method":"conformal","n":3,"scores":[1,2]}`, "n 3 with 2 scores"},
		{`{"method":"conformal","n":1,"scores":[-1]}`, "score 0"},
		{`{"method":"isotonic","n":1,"scores":[1.5]}`, "score 0"},
		{`{"method":"scale","n":5,"scale":0}`, "scale"},
		{`{"method":"quantile","n":1}`, "unknown calibration method"},
		{`{"method":3}`, "uq: calibration"},
	} {
		var c Calibrator
		if err := json.Unmarshal([]byte(tc.in), &c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.want)
		}
	}
	var none Calibrator
	if err := json.Unmarshal([]byte(`{}`), &none); err != nil {
		t.Fatal(err)
	}
	if _, _, err := none.Interval(0, 1, 0.9); !errors.Is(err, ErrNoCalibration) {
		t.Errorf("empty JSON: %v, want ErrNoCalibration", err)
	}
}

// FuzzCalibratorJSON: any input either fails to decode with an error or
// decodes into a Calibrator that validates (or holds no calibration), whose
// Interval never panics, and that survives a JSON round trip unchanged.
func FuzzCalibratorJSON(f *testing.F) {
	f.Add(`{"method":"conformal-normalized","n":3,"scores":[0.75,1,1]}`, 0.5, 1.0, 0.6)
	f.Add(`{"method":"isotonic","n":4,"scores":[0.2,0.4,0.4,0.8]}`, 0.0, 2.0, 0.5)
	f.Add(`{"method":"scale","n":10,"scale":1.3}`, 1.0, 1.0, 0.9)
	f.Add(`{"method":"conformal","n":1,"scores":[0]}`, 0.0, 1.0, 0.3)
	f.Add(`{}`, 0.0, 1.0, 0.9)
	f.Fuzz(func(t *testing.T, in string, mu, sigma, coverage float64) {
		var c Calibrator
		if err := json.Unmarshal([]byte(in), &c); err != nil {
			return
		}
		if err := c.Validate(); err != nil && !errors.Is(err, ErrNoCalibration) {
			t.Fatalf("decoded %+v does not validate: %v", c, err)
		}
		lo, hi, err := c.Interval(mu, sigma, coverage)
		if err == nil && (math.IsNaN(lo) || math.IsNaN(hi) || lo > hi) {
			t.Fatalf("%+v: interval [%v, %v] for mu %v sigma %v coverage %v", c, lo, hi, mu, sigma, coverage)
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Calibrator
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("round trip of %s: %v", b, err)
		}
		b2, _ := json.Marshal(back)
		if string(b) != string(b2) {
			t.Fatalf("round trip %s -> %s", b, b2)
		}
	})
}
