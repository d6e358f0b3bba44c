package uq

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/deup-screening/deup/internal/streams"
)

// ConformalRank returns k = ⌈(n+1)(1−alpha)⌉, the rank (1-based, among n
// calibration scores sorted ascending) of the split-conformal quantile at
// miscoverage alpha. The product is rounded up after subtracting 1e-9, so
// that a product that is an integer in exact arithmetic (n = 9, alpha =
// 0.3: 7) is not pushed to the next integer by floating-point error
// (10 × 0.7 = 7.000000000000001). k > n means that n scores are too few
// for that alpha: n < 1/alpha − 1.
func ConformalRank(n int, alpha float64) int {
	return int(math.Ceil(float64(n+1)*(1-alpha) - 1e-9))
}

// MinCalibration returns the smallest number of calibration scores for
// which the split-conformal quantile at miscoverage alpha is finite:
// the smallest n with ConformalRank(n, alpha) <= n (about 1/alpha − 1:
// 9 for alpha = 0.1, 19 for 0.05).
func MinCalibration(alpha float64) int {
	n := max(int(math.Floor(1/alpha-1)), 0)
	for ConformalRank(n, alpha) > n {
		n++
	}
	return n
}

// ConformalQuantile returns the split-conformal quantile of the
// nonconformity scores at miscoverage alpha in (0, 1): the k-th smallest
// score, k = ConformalRank(len(scores), alpha). When k exceeds the number
// of scores (fewer than MinCalibration(alpha) of them) it returns +Inf:
// the only interval with the finite-sample guarantee is then the whole
// line. scores is not modified. NaN if any score is NaN or alpha is
// outside (0, 1).
func ConformalQuantile(scores []float64, alpha float64) float64 {
	if !(alpha > 0 && alpha < 1) || hasNaN(scores) {
		return math.NaN()
	}
	k := ConformalRank(len(scores), alpha)
	if k > len(scores) {
		return math.Inf(1)
	}
	s := slices.Clone(scores)
	sort.Float64s(s)
	return s[max(k, 1)-1]
}

// ConformalScores stores the nonconformity scores of calibration examples
// in dst (grown if needed) and returns it: |y_i − mu_i| when sigma is nil
// (plain), |y_i − mu_i| / sigma_i otherwise (normalized by sigma).
func ConformalScores(dst, y, mu, sigma []float64) []float64 {
	dst = Residuals(dst, y, mu)
	if sigma != nil {
		checkLen(y, mu, sigma)
		for i := range dst {
			dst[i] /= sigma[i]
		}
	}
	return dst
}

// CrossConformal returns split-conformal intervals [lo_i, hi_i] at
// miscoverage alpha for every example, none of them calibrated on
// itself: the examples are split into two halves by a permutation drawn
// from rand.NewPCG(seed, CrossConformalStream); each half's intervals are
// calibrated on the other half's scores. With normalized false the
// intervals are mu_i ± q (plain, constant width within a half; sigma may
// be nil); with normalized true, mu_i ± q sigma_i (q from the scores
// |y − mu|/sigma). Each half is a split-conformal test set for the other,
// so if the examples are exchangeable each half's coverage is at least
// 1 − alpha in expectation (and at most 1 − alpha + 1/(m+1), m the
// calibration half's size, when scores have no ties).
//
// It returns an error wrapping ErrTooFewPairs when the smaller half holds
// fewer than MinCalibration(alpha) examples, and one naming the example
// when an input is not finite or sigma is not positive (see Validate).
func CrossConformal(y, mu, sigma []float64, alpha float64, normalized bool, seed uint64) (lo, hi []float64, err error) {
	if !(alpha > 0 && alpha < 1) {
		return nil, nil, fmt.Errorf("%w: miscoverage %v", ErrCoverage, alpha)
	}
	s := sigma
	if !normalized && s == nil {
		s = ones(len(y))
	}
	if err := Validate(y, mu, s); err != nil {
		return nil, nil, err
	}
	n := len(y)
	if need := MinCalibration(alpha); n/2 < need {
		return nil, nil, fmt.Errorf("%w: cross-conformal at coverage %v needs two halves of at least %d examples, have %d examples", ErrTooFewPairs, 1-alpha, need, n)
	}
	perm := rand.New(rand.NewPCG(seed, CrossConformalStream)).Perm(n)
	halves := [2][]int{perm[:n/2], perm[n/2:]}
	lo, hi = make([]float64, n), make([]float64, n)
	for h, scored := range halves {
		calib := halves[1-h]
		scores := make([]float64, len(calib))
		for k, i := range calib {
			scores[k] = math.Abs(y[i] - mu[i])
			if normalized {
				scores[k] /= sigma[i]
			}
		}
		q := ConformalQuantile(scores, alpha)
		for _, i := range scored {
			half := q
			if normalized {
				half = q * sigma[i]
			}
			lo[i], hi[i] = mu[i]-half, mu[i]+half
		}
	}
	return lo, hi, nil
}

// CrossConformalStream is the second word of the PCG source that draws
// CrossConformal's halves, so that they are independent of other draws
// from the same seed.
const CrossConformalStream = streams.CrossConformal

// Quintiles is the number of sigma groups of IntervalMetrics.
const Quintiles = 5

// IntervalMetrics scores prediction intervals [lo_i, hi_i] on observations
// y_i. Coverages are percentages (0..100), like Coverage.
type IntervalMetrics struct {
	N int `json:"n"`
	// Coverage: percent of i with lo_i <= y_i <= hi_i.
	Coverage float64 `json:"coverage"`
	// Width: mean of hi_i − lo_i.
	Width float64 `json:"width"`
	// QuintileCoverage[g]: Coverage over the g-th fifth of the examples
	// ordered by sigma, smallest sigma first (see CoverageByGroup).
	QuintileCoverage [Quintiles]float64 `json:"quintile_coverage"`
	// WorstQuintileCoverage: the smallest of QuintileCoverage, the
	// headline of conditional coverage.
	WorstQuintileCoverage float64 `json:"worst_quintile_coverage"`
	// IntervalScore: mean interval score at alpha (see IntervalScore).
	IntervalScore float64 `json:"interval_score"`
}

// ScoreIntervals computes IntervalMetrics of intervals [lo_i, hi_i] that
// claim coverage 1 − alpha, with examples grouped by sigma. It panics if
// the slices differ in length. An infinite bound counts as covering, with
// infinite width and interval score. Metrics are NaN for no examples or a
// NaN input; a sigma group with no example (fewer than Quintiles examples)
// has NaN coverage and makes WorstQuintileCoverage NaN.
func ScoreIntervals(y, lo, hi, sigma []float64, alpha float64) IntervalMetrics {
	checkLen(y, lo, hi)
	checkLen(y, lo, sigma)
	m := IntervalMetrics{
		N:             len(y),
		Coverage:      IntervalCoverage(y, lo, hi),
		Width:         MeanWidth(lo, hi),
		IntervalScore: IntervalScore(y, lo, hi, alpha),
	}
	g := CoverageByGroup(y, lo, hi, sigma, Quintiles)
	copy(m.QuintileCoverage[:], g)
	m.WorstQuintileCoverage = math.Inf(1)
	for _, c := range g {
		if math.IsNaN(c) {
			m.WorstQuintileCoverage = math.NaN()
			break
		}
		m.WorstQuintileCoverage = min(m.WorstQuintileCoverage, c)
	}
	return m
}

// IntervalCoverage is the percentage (0..100) of i with
// lo_i <= y_i <= hi_i; NaN for no examples or any NaN.
func IntervalCoverage(y, lo, hi []float64) float64 {
	checkLen(y, lo, hi)
	if len(y) == 0 {
		return math.NaN()
	}
	in := 0
	for i := range y {
		if math.IsNaN(y[i]) || math.IsNaN(lo[i]) || math.IsNaN(hi[i]) {
			return math.NaN()
		}
		if lo[i] <= y[i] && y[i] <= hi[i] {
			in++
		}
	}
	return 100 * float64(in) / float64(len(y))
}

// MeanWidth is the mean of hi_i − lo_i; NaN for no examples.
func MeanWidth(lo, hi []float64) float64 {
	checkLen(lo, hi, nil)
	if len(lo) == 0 {
		return math.NaN()
	}
	var s float64
	for i := range lo {
		s += hi[i] - lo[i]
	}
	return s / float64(len(lo))
}

// IntervalScore is the mean interval score of central (1 − alpha)
// intervals (Gneiting & Raftery 2007, eq. 43), lower is better:
//
//	IS_alpha(l, u; y) = (u − l) + (2/alpha)(l − y) 1{y < l} + (2/alpha)(y − u) 1{y > u}
//
// It rewards narrow intervals and penalizes each miss by its distance
// scaled by 2/alpha; it is proper for the alpha/2 and 1 − alpha/2
// quantiles. NaN for no examples, any NaN, or alpha outside (0, 1).
func IntervalScore(y, lo, hi []float64, alpha float64) float64 {
	checkLen(y, lo, hi)
	if len(y) == 0 || !(alpha > 0 && alpha < 1) {
		return math.NaN()
	}
	var s float64
	for i := range y {
		v := hi[i] - lo[i]
		if y[i] < lo[i] {
			v += 2 / alpha * (lo[i] - y[i])
		}
		if y[i] > hi[i] {
			v += 2 / alpha * (y[i] - hi[i])
		}
		s += v
	}
	return s / float64(len(y))
}

// CoverageByGroup orders the examples by sigma (ascending; ties keep their
// input order, so a constant sigma gives groups of the input order) and
// returns the IntervalCoverage of each of groups consecutive groups: the
// example of rank r (0-based) of n falls in group floor(r × groups / n),
// so group sizes differ by at most one. A group with no example has NaN
// coverage.
func CoverageByGroup(y, lo, hi, sigma []float64, groups int) []float64 {
	checkLen(y, lo, hi)
	checkLen(y, lo, sigma)
	out := make([]float64, groups)
	n := len(y)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return sigma[idx[a]] < sigma[idx[b]] })
	in, cnt := make([]int, groups), make([]int, groups)
	bad := hasNaN(sigma)
	for r, i := range idx {
		g := r * groups / n
		cnt[g]++
		switch {
		case math.IsNaN(y[i]) || math.IsNaN(lo[i]) || math.IsNaN(hi[i]):
			bad = true
		case lo[i] <= y[i] && y[i] <= hi[i]:
			in[g]++
		}
	}
	for g := range out {
		if bad || cnt[g] == 0 {
			out[g] = math.NaN()
			continue
		}
		out[g] = 100 * float64(in[g]) / float64(cnt[g])
	}
	return out
}
