package uq

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Metrics holds every regression metric of docs/metrics.md for one test split,
// in the target's original units. JSON keys are the metric names; NaN and
// ±Inf are written as null (and null reads back as NaN).
type Metrics struct {
	N          int     `json:"n"`           // number of examples scored
	Corr       float64 `json:"corr"`        // Pearson(r, sigma)
	UpperBound float64 `json:"upper_bound"` // Pearson(|eps|, sigma) with eps ~ N(0, sigma^2), 5 draws per example
	Ratio      float64 `json:"ratio"`       // Corr / UpperBound
	LogLik     float64 `json:"loglik"`      // mean log N(y; mu, sigma^2)
	Coverage   float64 `json:"coverage"`    // percent of r <= sigma
	CIWidth    float64 `json:"ci_width"`    // mean 2 sigma
	Spearman   float64 `json:"spearman"`    // Spearman(r, sigma)
	RMSE       float64 `json:"rmse"`        // sqrt(mean (mu-y)^2)
	PearsonMu  float64 `json:"pearson_mu"`  // Pearson(mu, y)
	CRPS       float64 `json:"crps"`        // mean Gaussian CRPS
	MiscalArea float64 `json:"miscal_area"` // area between the calibration curve and the diagonal
	Sharpness  float64 `json:"sharpness"`   // sqrt(mean sigma^2)
}

// UpperBoundDraws is the number of draws per example in UpperBound.
const UpperBoundDraws = 5

// Score computes every metric for observations y, predicted means mu and
// predicted standard deviations sigma (the total predictive uncertainty).
// seed drives the draws of UpperBound only. Score panics if the slices
// differ in length (a programmer error); for what it gives on empty,
// non-finite or degenerate input, see the package documentation, and use
// Validate to refuse such input first.
func Score(y, mu, sigma []float64, seed uint64) Metrics {
	checkLen(y, mu, sigma)
	r := Residuals(nil, y, mu)
	m := Metrics{
		N:          len(y),
		Corr:       Pearson(r, sigma),
		UpperBound: UpperBound(sigma, seed),
		LogLik:     LogLik(y, mu, sigma),
		Coverage:   Coverage(y, mu, sigma),
		CIWidth:    CIWidth(sigma),
		Spearman:   Spearman(r, sigma),
		RMSE:       RMSE(y, mu),
		PearsonMu:  PearsonMu(y, mu),
		CRPS:       CRPS(y, mu, sigma),
		MiscalArea: MiscalibrationArea(y, mu, sigma),
		Sharpness:  Sharpness(sigma),
	}
	m.Ratio = Ratio(m.Corr, m.UpperBound, m.N)
	return m
}

// Validate reports the first reason the inputs do not meet Score's
// preconditions: equal non-zero lengths, finite y and mu, finite sigma > 0.
func Validate(y, mu, sigma []float64) error {
	if len(y) != len(mu) || len(y) != len(sigma) {
		return fmt.Errorf("uq: lengths differ: %d observations, %d means, %d sigmas", len(y), len(mu), len(sigma))
	}
	if len(y) == 0 {
		return errors.New("uq: no examples")
	}
	for i := range y {
		switch {
		case math.IsNaN(y[i]) || math.IsInf(y[i], 0):
			return fmt.Errorf("uq: example %d: observation %v is not finite", i, y[i])
		case math.IsNaN(mu[i]) || math.IsInf(mu[i], 0):
			return fmt.Errorf("uq: example %d: mean %v is not finite", i, mu[i])
		case !(sigma[i] > 0) || math.IsInf(sigma[i], 0):
			return fmt.Errorf("uq: example %d: sigma %v is not a finite positive number", i, sigma[i])
		}
	}
	return nil
}

func checkLen(y, mu, sigma []float64) {
	if len(y) != len(mu) || (sigma != nil && len(y) != len(sigma)) {
		panic("uq: slice length mismatch")
	}
}

// Residuals stores |mu_i - y_i| in dst (grown if needed) and returns it.
func Residuals(dst, y, mu []float64) []float64 {
	checkLen(y, mu, nil)
	if cap(dst) < len(y) {
		dst = make([]float64, len(y))
	}
	dst = dst[:len(y)]
	for i := range y {
		dst[i] = math.Abs(mu[i] - y[i])
	}
	return dst
}

// Corr is the "corr" metric: the Pearson correlation of the residuals
// |mu_i - y_i| with sigma_i.
func Corr(y, mu, sigma []float64) float64 {
	checkLen(y, mu, sigma)
	return Pearson(Residuals(nil, y, mu), sigma)
}

// RankCorr is the "spearman" metric: the Spearman rank correlation of the
// residuals |mu_i - y_i| with sigma_i.
func RankCorr(y, mu, sigma []float64) float64 {
	checkLen(y, mu, sigma)
	return Spearman(Residuals(nil, y, mu), sigma)
}

// PearsonMu is the "pearson_mu" metric: the Pearson correlation of mu with y.
func PearsonMu(y, mu []float64) float64 { return Pearson(mu, y) }

// UpperBound is the "upper_bound" metric: the Pearson correlation over all
// (i, j) of (|eps_ij|, sigma_i), eps_ij = sigma_i * z_ij, z_ij standard
// normal draws, j = 1..UpperBoundDraws. The draws come from
// rand.New(rand.NewPCG(seed, 0)).NormFloat64 in the order i = 0.., j = 1..5
// inner, so the same sigmas and seed give the same number.
func UpperBound(sigma []float64, seed uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, 0))
	n := len(sigma) * UpperBoundDraws
	abs := make([]float64, 0, n)
	s := make([]float64, 0, n)
	for _, si := range sigma {
		for j := 0; j < UpperBoundDraws; j++ {
			abs = append(abs, math.Abs(si*rng.NormFloat64()))
			s = append(s, si)
		}
	}
	return Pearson(abs, s)
}

// Ratio is the "ratio" metric, corr / upper_bound over n examples;
// undefined (NaN) when upper_bound is NaN or below RatioMinUpperBound(n).
func Ratio(corr, upperBound float64, n int) float64 {
	if math.IsNaN(upperBound) || upperBound < RatioMinUpperBound(n) {
		return math.NaN()
	}
	return corr / upperBound
}

// RatioMinUpperBound is the smallest upper_bound at which ratio is defined
// for n examples: 2/sqrt(n), twice the standard error of a correlation of
// n examples under no correlation. Below it, sigma barely varies across
// the examples, upper_bound cannot be told from 0 at about 95 %, and
// corr / upper_bound is the ratio of two noises: it can take any value
// (a DUE whose sigma is nearly constant gave 56.9 on PC-3). +Inf for
// n = 0.
func RatioMinUpperBound(n int) float64 {
	if n <= 0 {
		return math.Inf(1)
	}
	return 2 / math.Sqrt(float64(n))
}

// LogLik is the "loglik" metric: the mean over i of
// log N(y_i; mu_i, sigma_i^2) = -log(sigma_i) - log(2 pi)/2 - z_i^2/2,
// z_i = (y_i - mu_i)/sigma_i. A term with sigma_i = 0 is +Inf when
// y_i = mu_i and -Inf otherwise.
func LogLik(y, mu, sigma []float64) float64 {
	return meanOver(y, mu, sigma, logNormal)
}

func logNormal(y, mu, sigma float64) float64 {
	if sigma == 0 && !math.IsNaN(y-mu) {
		if y == mu {
			return math.Inf(1)
		}
		return math.Inf(-1)
	}
	z := (y - mu) / sigma
	return -math.Log(sigma) - 0.5*math.Log(2*math.Pi) - 0.5*z*z
}

// Coverage is the "coverage" metric: the percentage (0..100) of i with
// |mu_i - y_i| <= sigma_i (nominal 68.27 for a calibrated Gaussian).
func Coverage(y, mu, sigma []float64) float64 {
	checkLen(y, mu, sigma)
	if len(y) == 0 {
		return math.NaN()
	}
	in := 0
	for i := range y {
		r := math.Abs(mu[i] - y[i])
		if math.IsNaN(r) || math.IsNaN(sigma[i]) {
			return math.NaN()
		}
		if r <= sigma[i] {
			in++
		}
	}
	return 100 * float64(in) / float64(len(y))
}

// CIWidth is the "ci_width" metric: the mean of 2 sigma_i.
func CIWidth(sigma []float64) float64 {
	if len(sigma) == 0 {
		return math.NaN()
	}
	return 2 * stat.Mean(sigma, nil)
}

// RMSE is the "rmse" metric: sqrt(mean_i (mu_i - y_i)^2).
func RMSE(y, mu []float64) float64 {
	checkLen(y, mu, nil)
	if len(y) == 0 {
		return math.NaN()
	}
	var s float64
	for i := range y {
		d := mu[i] - y[i]
		s += d * d
	}
	return math.Sqrt(s / float64(len(y)))
}

// CRPS is the "crps" metric: the mean over i of the closed-form CRPS of
// N(mu_i, sigma_i^2) at y_i,
// sigma (z (2 Phi(z) - 1) + 2 phi(z) - 1/sqrt(pi)), z = (y - mu)/sigma.
// A term with sigma_i = 0 is its limit |y_i - mu_i|.
func CRPS(y, mu, sigma []float64) float64 {
	return meanOver(y, mu, sigma, crps1)
}

func crps1(y, mu, sigma float64) float64 {
	if sigma == 0 {
		return math.Abs(y - mu)
	}
	z := (y - mu) / sigma
	n := distuv.UnitNormal
	return sigma * (z*(2*n.CDF(z)-1) + 2*n.Prob(z) - 1/math.Sqrt(math.Pi))
}

// Sharpness is the "sharpness" metric: sqrt(mean_i sigma_i^2).
func Sharpness(sigma []float64) float64 {
	if len(sigma) == 0 {
		return math.NaN()
	}
	return math.Sqrt(floats.Dot(sigma, sigma) / float64(len(sigma)))
}

// Pearson is the Pearson correlation of x and y. It is NaN when there are
// fewer than two pairs, when x or y is constant (all values equal: the
// correlation is undefined, as in scipy.stats.pearsonr) or when any value is
// NaN.
func Pearson(x, y []float64) float64 {
	checkLen(x, y, nil)
	if len(x) < 2 || hasNaN(x) || hasNaN(y) || constant(x) || constant(y) {
		return math.NaN()
	}
	c := stat.Correlation(x, y, nil)
	return math.Max(-1, math.Min(1, c))
}

// Spearman is the Spearman rank correlation of x and y: the Pearson
// correlation of their ranks, ties given their average rank (as
// scipy.stats.spearmanr). NaN under the same conditions as Pearson.
func Spearman(x, y []float64) float64 {
	checkLen(x, y, nil)
	if len(x) < 2 || hasNaN(x) || hasNaN(y) {
		return math.NaN()
	}
	return Pearson(Ranks(nil, x), Ranks(nil, y))
}

// Ranks stores in dst (grown if needed) the 1-based ranks of x, ties given
// the average of the ranks they span, and returns it. NaN sorts first.
func Ranks(dst, x []float64) []float64 {
	if cap(dst) < len(x) {
		dst = make([]float64, len(x))
	}
	dst = dst[:len(x)]
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		xa, xb := x[idx[a]], x[idx[b]]
		return xa < xb || (math.IsNaN(xa) && !math.IsNaN(xb))
	})
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j+1) / 2 // mean of ranks i+1 .. j
		for k := i; k < j; k++ {
			dst[idx[k]] = avg
		}
		i = j
	}
	return dst
}

func hasNaN(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}

func constant(x []float64) bool {
	for _, v := range x[1:] {
		if v != x[0] {
			return false
		}
	}
	return true
}

// meanOver is the mean of f(y_i, mu_i, sigma_i) over i (NaN for none).
func meanOver(y, mu, sigma []float64, f func(y, mu, sigma float64) float64) float64 {
	checkLen(y, mu, sigma)
	if len(y) == 0 {
		return math.NaN()
	}
	var sum float64
	for i := range y {
		sum += f(y[i], mu[i], sigma[i])
	}
	return sum / float64(len(y))
}
