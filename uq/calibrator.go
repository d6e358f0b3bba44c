package uq

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Calibration methods of a Calibrator.
const (
	// MethodConformal: split-conformal, mu ± q with q the conformal
	// quantile of |y − mu| (constant width).
	MethodConformal = "conformal"
	// MethodConformalNormalized: split-conformal normalized by sigma,
	// mu ± q sigma with q the conformal quantile of |y − mu|/sigma.
	MethodConformalNormalized = "conformal-normalized"
	// MethodScale: sigma multiplied by one scale fitted by maximum
	// likelihood, then the Gaussian central interval.
	MethodScale = "scale"
	// MethodIsotonic: isotonic recalibration of the Gaussian predictive
	// CDF (Kuleshov et al. 2018).
	MethodIsotonic = "isotonic"
)

// Errors of Calibrator, to test with errors.Is.
var (
	// ErrNoCalibration: the Calibrator holds no calibration (zero value,
	// or a model saved without calibration data).
	ErrNoCalibration = errors.New("uq: no calibration")
	// ErrCoverage: a coverage (or miscoverage) outside (0, 1).
	ErrCoverage = errors.New("uq: coverage must be in (0, 1)")
	// ErrTooFewPairs: too few calibration pairs for the asked coverage.
	ErrTooFewPairs = errors.New("uq: too few calibration pairs")
)

// Calibrator turns a prediction (mu, sigma) into an interval with a
// stated coverage, from calibration pairs disjoint from those that trained
// mu and sigma. It is a plain value made for storing in a model file: its
// JSON form is {"method", "n", "scores"} or {"method", "n", "scale"}, and
// UnmarshalJSON checks what it reads. Scores are kept rather than one
// quantile so that the coverage can be chosen when predicting.
//
// The zero value holds no calibration: Interval returns ErrNoCalibration.
type Calibrator struct {
	// Method is one of MethodConformal, MethodConformalNormalized,
	// MethodScale, MethodIsotonic.
	Method string `json:"method"`
	// N is the number of calibration pairs.
	N int `json:"n"`
	// Scores, sorted ascending, N of them: the nonconformity scores
	// (conformal methods) or the probability integral transforms
	// Phi((y − mu)/sigma) (isotonic). Empty for MethodScale.
	Scores []float64 `json:"scores,omitempty"`
	// Scale multiplies sigma (MethodScale only).
	Scale float64 `json:"scale,omitempty"`
}

// FitConformal returns a split-conformal Calibrator from calibration
// pairs: plain (scores |y − mu|; sigma is not read and may be nil) or,
// with normalized, scores |y − mu|/sigma. The inputs must pass Validate.
func FitConformal(y, mu, sigma []float64, normalized bool) (Calibrator, error) {
	s := sigma
	if !normalized {
		s = ones(len(y))
	}
	if err := Validate(y, mu, s); err != nil {
		return Calibrator{}, err
	}
	c := Calibrator{Method: MethodConformal, N: len(y)}
	if normalized {
		c.Method = MethodConformalNormalized
		c.Scores = ConformalScores(nil, y, mu, sigma)
	} else {
		c.Scores = ConformalScores(nil, y, mu, nil)
	}
	sort.Float64s(c.Scores)
	return c, nil
}

// FitScale returns the MethodScale Calibrator: the scale s maximizing the
// Gaussian likelihood of the pairs under N(mu, (s sigma)^2), which is
// s = sqrt(mean_i ((y_i − mu_i)/sigma_i)^2) (set the derivative of
// −n log s − sum_i z_i^2/(2 s^2) to zero). The inputs must pass Validate;
// an s of 0 (every y equal to its mu) is an error.
func FitScale(y, mu, sigma []float64) (Calibrator, error) {
	if err := Validate(y, mu, sigma); err != nil {
		return Calibrator{}, err
	}
	var ss float64
	for i := range y {
		z := (y[i] - mu[i]) / sigma[i]
		ss += z * z
	}
	s := math.Sqrt(ss / float64(len(y)))
	if !(s > 0) || math.IsInf(s, 0) {
		return Calibrator{}, fmt.Errorf("uq: scale recalibration: fitted scale %v is not a finite positive number", s)
	}
	return Calibrator{Method: MethodScale, N: len(y), Scale: s}, nil
}

// FitIsotonic returns the MethodIsotonic Calibrator of Kuleshov et al.
// (2018): with p_i = Phi((y_i − mu_i)/sigma_i) the probability integral
// transforms of the calibration pairs, their algorithm fits an isotonic
// regression R of the empirical frequencies P(p_i) = #{j: p_j <= p_i}/n
// on p_i and uses R(F(y)) as the recalibrated CDF. The targets P(p_i) are
// already non-decreasing in p_i, so the isotonic (pool-adjacent-violators)
// fit is those targets themselves, and the Calibrator stores the sorted
// p_i. Between them R is linear, through (0, 0) and (1, 1) at the ends.
// The inputs must pass Validate.
func FitIsotonic(y, mu, sigma []float64) (Calibrator, error) {
	if err := Validate(y, mu, sigma); err != nil {
		return Calibrator{}, err
	}
	c := Calibrator{Method: MethodIsotonic, N: len(y), Scores: make([]float64, len(y))}
	for i := range y {
		c.Scores[i] = distuv.UnitNormal.CDF((y[i] - mu[i]) / sigma[i])
	}
	sort.Float64s(c.Scores)
	return c, nil
}

// Validate checks a Calibrator (for example one read from a file): a
// known method, N >= 1, N sorted finite scores (nonnegative for the
// conformal methods, in [0, 1] for isotonic), a finite positive scale for
// MethodScale. The zero value gives ErrNoCalibration.
func (c Calibrator) Validate() error {
	switch c.Method {
	case "":
		return ErrNoCalibration
	case MethodConformal, MethodConformalNormalized, MethodIsotonic:
		if c.N < 1 || len(c.Scores) != c.N {
			return fmt.Errorf("uq: %s calibration: n %d with %d scores", c.Method, c.N, len(c.Scores))
		}
		lowest, highest := 0.0, math.Inf(1)
		if c.Method == MethodIsotonic {
			highest = 1
		}
		for i, s := range c.Scores {
			if !(s >= lowest && s <= highest) || math.IsInf(s, 0) {
				return fmt.Errorf("uq: %s calibration: score %d is %v, want a finite number in [%v, %v]", c.Method, i, s, lowest, highest)
			}
			if i > 0 && s < c.Scores[i-1] {
				return fmt.Errorf("uq: %s calibration: scores not sorted at %d (%v after %v)", c.Method, i, s, c.Scores[i-1])
			}
		}
	case MethodScale:
		if c.N < 1 || !(c.Scale > 0) || math.IsInf(c.Scale, 0) || len(c.Scores) != 0 {
			return fmt.Errorf("uq: scale calibration: n %d, scale %v, %d scores (want n ≥ 1, a finite scale > 0, no scores)", c.N, c.Scale, len(c.Scores))
		}
	default:
		return fmt.Errorf("uq: unknown calibration method %q (known: %s, %s, %s, %s)", c.Method, MethodConformal, MethodConformalNormalized, MethodScale, MethodIsotonic)
	}
	return nil
}

// UnmarshalJSON reads the JSON form and checks it with Validate, except
// that a missing or empty method reads as the zero value (no calibration).
func (c *Calibrator) UnmarshalJSON(data []byte) error {
	type plain Calibrator
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("uq: calibration: %w", err)
	}
	if p.Method == "" {
		*c = Calibrator{}
		return nil
	}
	if err := Calibrator(p).Validate(); err != nil {
		return err
	}
	*c = Calibrator(p)
	return nil
}

// String names the calibration for a command's output, for example
// "conformal-normalized on 412 pairs".
func (c Calibrator) String() string {
	if c.Method == "" {
		return "no calibration"
	}
	if c.Method == MethodScale {
		return fmt.Sprintf("scale %.4g on %d pairs", c.Scale, c.N)
	}
	return fmt.Sprintf("%s on %d pairs", c.Method, c.N)
}

// Interval returns the interval [lo, hi] for a prediction (mu, sigma) at
// the given coverage in (0, 1):
//
//	conformal             mu ± q,        q = k-th smallest score, k = ⌈(n+1) coverage⌉
//	conformal-normalized  mu ± q sigma
//	scale                 mu ± s sigma Phi^-1((1 + coverage)/2)
//	isotonic              mu + sigma Phi^-1(R^-1((1 − coverage)/2)) to mu + sigma Phi^-1(R^-1((1 + coverage)/2))
//
// Errors (test with errors.Is): ErrNoCalibration for the zero value,
// ErrCoverage for a coverage outside (0, 1), ErrTooFewPairs when the
// calibration has fewer than MinCalibration(1 − coverage) pairs (for the
// conformal methods that would be an infinite interval; isotonic and
// scale keep the same rule so that no interval rests on fewer pairs than
// its coverage needs); an error for a non-finite mu or a sigma that is not
// a finite positive number (sigma is not read by MethodConformal). The
// conformal intervals satisfy lo < mu < hi whenever q > 0; the isotonic
// one need not contain mu (the recalibrated distribution may be skewed).
// Interval trusts the Calibrator's fields (check one built by hand with
// Validate; UnmarshalJSON does).
func (c Calibrator) Interval(mu, sigma, coverage float64) (lo, hi float64, err error) {
	if c.Method == "" || c.N == 0 {
		return 0, 0, ErrNoCalibration
	}
	if !(coverage > 0 && coverage < 1) {
		return 0, 0, fmt.Errorf("%w: got %v", ErrCoverage, coverage)
	}
	alpha := 1 - coverage
	if need := MinCalibration(alpha); c.N < need {
		return 0, 0, fmt.Errorf("%w: %d for coverage %v, need at least %d (⌈(n+1) × coverage⌉ ≤ n)", ErrTooFewPairs, c.N, coverage, need)
	}
	if math.IsNaN(mu) || math.IsInf(mu, 0) {
		return 0, 0, fmt.Errorf("uq: interval: mean %v is not finite", mu)
	}
	if c.Method != MethodConformal && (!(sigma > 0) || math.IsInf(sigma, 0)) {
		return 0, 0, fmt.Errorf("uq: interval: sigma %v is not a finite positive number", sigma)
	}
	switch c.Method {
	case MethodConformal, MethodConformalNormalized:
		q := c.Scores[ConformalRank(c.N, alpha)-1]
		if c.Method == MethodConformalNormalized {
			q *= sigma
		}
		return mu - q, mu + q, nil
	case MethodScale:
		h := c.Scale * sigma * distuv.UnitNormal.Quantile(1-alpha/2)
		return mu - h, mu + h, nil
	case MethodIsotonic:
		lo = mu + sigma*distuv.UnitNormal.Quantile(c.inverse(alpha/2))
		hi = mu + sigma*distuv.UnitNormal.Quantile(c.inverse(1-alpha/2))
		return lo, hi, nil
	}
	return 0, 0, c.Validate()
}

// CDF returns the recalibrated predictive CDF at y of the prediction (mu,
// sigma): Phi((y − mu)/(s sigma)) for MethodScale, R(Phi((y − mu)/sigma))
// for MethodIsotonic. The conformal methods define intervals, not a CDF:
// they give an error, as does the zero value (ErrNoCalibration).
func (c Calibrator) CDF(y, mu, sigma float64) (float64, error) {
	switch c.Method {
	case "":
		return 0, ErrNoCalibration
	case MethodScale:
		return distuv.UnitNormal.CDF((y - mu) / (c.Scale * sigma)), nil
	case MethodIsotonic:
		return c.recalibrate(distuv.UnitNormal.CDF((y - mu) / sigma)), nil
	}
	return 0, fmt.Errorf("uq: %s calibration has no CDF", c.Method)
}

// knots returns the isotonic map's knots: (0, 0), each distinct stored
// p with the fraction of scores <= p, and (1, 1).
func (c Calibrator) knots() (x, f []float64) {
	x, f = []float64{0}, []float64{0}
	for i := 0; i < len(c.Scores); {
		j := i
		for j < len(c.Scores) && c.Scores[j] == c.Scores[i] {
			j++
		}
		p := c.Scores[i]
		frac := float64(j) / float64(c.N)
		if p == 0 {
			f[0] = frac
		} else {
			x, f = append(x, p), append(f, frac)
		}
		i = j
	}
	if x[len(x)-1] < 1 {
		x, f = append(x, 1), append(f, 1)
	}
	return x, f
}

// recalibrate evaluates the isotonic map R at p in [0, 1].
func (c Calibrator) recalibrate(p float64) float64 {
	x, f := c.knots()
	j := sort.SearchFloat64s(x, p) // first knot >= p
	switch {
	case j == len(x):
		return 1
	case x[j] == p || j == 0:
		return f[j]
	}
	t := (p - x[j-1]) / (x[j] - x[j-1])
	return f[j-1] + t*(f[j]-f[j-1])
}

// inverse returns the smallest p with R(p) >= q, for q in (0, 1).
func (c Calibrator) inverse(q float64) float64 {
	x, f := c.knots()
	j := sort.SearchFloat64s(f, q) // first knot with f >= q; f is non-decreasing
	switch {
	case j == len(f):
		return 1
	case j == 0 || f[j] == q:
		return x[j]
	}
	t := (q - f[j-1]) / (f[j] - f[j-1])
	return x[j-1] + t*(x[j]-x[j-1])
}

func ones(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1
	}
	return s
}
