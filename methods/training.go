package methods

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/trained"
	"github.com/deup-screening/deup/uq"

	"github.com/deup-screening/deup/internal/streams"
)

// CalibrationStream is the PCG stream of the calibration hold-out (the
// seed is the training seed).
const CalibrationStream = streams.Calibration

// Holdout is how the pairs 0..n-1 of a dataset are used: Cal are held out
// before the split for the conformal calibration (sorted; none when the
// fraction is 0), Split splits the others (Rest, sorted) in dataset indices.
type Holdout struct {
	Cal, Rest []int
	Split     drugcomb.Split
	// OOSBy is how Split.Val was drawn (DrawOOS): drugcomb.ByPairs
	// (NewHoldout's draw of rows), ByCombinations or ByDrugs.
	OOSBy string
}

// DrawOOS redraws h's out-of-sample part (Split.Val, the validation part
// under a benchmark split) by by, with drugcomb.DrawOOS over s, the
// screen whose pairs are the dataset's: ByPairs keeps NewHoldout's draw,
// ByCombinations holds out whole drug pairs (every line of an
// out-of-sample combination outside the in-sample part), ByDrugs whole
// drugs. The calibration and test parts are kept.
func (h *Holdout) DrawOOS(s *drugcomb.Screen, by string, seed uint64) error {
	sp, err := drugcomb.DrawOOS(s, h.Split, by, seed)
	if err != nil {
		return err
	}
	h.Split, h.OOSBy = sp, by
	return nil
}

// Benchmark reports whether the split has a test part.
func (h Holdout) Benchmark() bool { return len(h.Split.Test) > 0 }

// HoldoutError says why a calibration fraction cannot be used: it holds
// out fewer than Need pairs (the fewest a 90% conformal interval needs,
// uq.MinCalibration(0.1)), or leaves fewer than 4 to train on (Need 0).
type HoldoutError struct {
	Frac float64
	K, N int // pairs held out, of N
	Need int // the fewest calibration pairs; 0 when too few are left to train on
}

func (e *HoldoutError) Error() string {
	if e.Need > 0 {
		return fmt.Sprintf("training: calibration fraction %v holds out %d of %d pairs, fewer than the %d a 90%% conformal interval needs", e.Frac, e.K, e.N, e.Need)
	}
	return fmt.Sprintf("training: calibration fraction %v leaves %d of %d pairs to train on", e.Frac, e.N-e.K, e.N)
}

// NewHoldout draws, from seed, round(frac n) calibration pairs of the n
// pairs, and splits the others by drugcomb.SplitRandom with fracs (in
// percent or fractions; SplitRandom normalizes). frac 0 holds nothing out
// and Rest is 0..n-1, so that training is exactly as without calibration.
func NewHoldout(n int, frac float64, fracs [3]float64, seed uint64) (Holdout, error) {
	var h Holdout
	if frac == 0 {
		h.Rest = make([]int, n)
		for i := range h.Rest {
			h.Rest[i] = i
		}
	} else {
		k := int(math.Round(frac * float64(n)))
		if need := uq.MinCalibration(0.1); k < need {
			return h, &HoldoutError{Frac: frac, K: k, N: n, Need: need}
		}
		if n-k < 4 {
			return h, &HoldoutError{Frac: frac, K: k, N: n}
		}
		perm := rand.New(rand.NewPCG(seed, CalibrationStream)).Perm(n)
		h.Cal, h.Rest = append([]int(nil), perm[:k]...), append([]int(nil), perm[k:]...)
		sort.Ints(h.Cal)
		sort.Ints(h.Rest)
	}
	h.Split, h.OOSBy = drugcomb.SplitRandom(len(h.Rest), fracs, seed), drugcomb.ByPairs
	for _, part := range [][]int{h.Split.Train, h.Split.Val, h.Split.Test} {
		for k, i := range part {
			part[k] = h.Rest[i]
		}
	}
	return h, nil
}

// Refs are the trivial references a model's error is read against.
type Refs struct {
	MeanRMSE  float64 // RMSE on the evaluated pairs of predicting the mean of the fitted pairs
	NoiseSD   float64 // pooled replicate standard deviation of one measurement; NaN without replicates
	ReplPairs int     // pairs with at least 2 replicates
}

// TrivialReferences computes the references for a model fitted on the
// pairs fit of d and evaluated on eval. The noise is pooled over every
// pair of d with replicates: sqrt(sum (n_i-1) s_i^2 / sum (n_i-1)).
func TrivialReferences(d *model.Dataset, fit, eval []int) Refs {
	var mean float64
	for _, i := range fit {
		mean += d.Y[i]
	}
	mean /= float64(max(len(fit), 1))
	var se float64
	for _, i := range eval {
		r := d.Y[i] - mean
		se += r * r
	}
	out := Refs{MeanRMSE: math.Sqrt(se / float64(max(len(eval), 1))), NoiseSD: math.NaN()}
	var ss, df float64
	for i := range d.Y {
		if d.N[i] >= 2 && !math.IsNaN(d.Var[i]) {
			ss += float64(d.N[i]-1) * d.Var[i]
			df += float64(d.N[i] - 1)
			out.ReplPairs++
		}
	}
	if df > 0 {
		out.NoiseSD = math.Sqrt(ss / df)
	}
	return out
}

// Report is what Fit found.
type Report struct {
	Epochs    int           // epochs run in all (every ensemble member's)
	LastEpoch int           // epochs of the last network trained
	BestEpoch int           // the epoch kept of the last network trained
	FitTime   time.Duration // wall time of the method's Fit
	ValRMSE   float64       // RMSE of mu on Split.Val
	ValRefs   Refs          // references fitted on Split.Train, on Split.Val
	// Under a benchmark split (a test part): the test RMSE, its mean
	// reference and corr(sigma_total, |residual|) on the test pairs.
	TestRMSE, TestMeanRMSE, TestCorr float64
	// Calibration is fitted on Holdout.Cal (nil without one);
	// TestIntervals scores its 90% intervals on the test pairs (nil
	// without a calibration or a test part).
	Calibration   *uq.Calibrator
	TestIntervals *uq.IntervalMetrics
}

// Training is what a model file records of a fit with holdout h: split is
// the split as written (deup train --split), seed the seed of h and of the
// fit; the test RMSE only under a benchmark split.
func (r *Report) Training(split string, seed uint64, h Holdout) trained.Training {
	tr := trained.Training{Split: split, Seed: seed, InSample: len(h.Split.Train), OutOfSample: len(h.Split.Val), OOSBy: h.OOSBy, Test: len(h.Split.Test),
		Epochs: r.Epochs, BestEpoch: r.BestEpoch, ValRMSE: trained.Float(r.ValRMSE), MeanRMSE: trained.Float(r.ValRefs.MeanRMSE), NoiseSD: trained.Float(r.ValRefs.NoiseSD)}
	if h.Benchmark() {
		tr.TestRMSE = trained.Float(r.TestRMSE)
	}
	return tr
}

// FitOptions are Fit's knobs; the zero value is ready to use.
type FitOptions struct {
	// Normalized makes the calibration scores |y - mu|/sigma_total
	// (adaptive width) instead of |y - mu| (constant width).
	Normalized bool
	// Progress receives model.Method.Fit's progress; nil for none.
	Progress func(model.Progress)
	// Now is the clock FitTime is read from, twice (before and after the
	// method's Fit); nil means time.Now.
	Now func() time.Time
}

// validationScorer is a method whose fitted model holds its validation
// pairs (neighbors, deup-neighbors: they join its memory once K is
// chosen), so that its predictions on them are not out of sample;
// ValidationRMSE is the RMSE it measured on them without their own
// scores, which Fit reports instead (NaN: none measured).
type validationScorer interface {
	ValidationRMSE() float64
}

// Fit trains m on d with h's split, then evaluates it on the validation
// and test pairs and fits the conformal calibration on h.Cal.
func Fit(ctx context.Context, m model.Method, d *model.Dataset, h Holdout, o FitOptions) (*Report, error) {
	progress, normalized, now := o.Progress, o.Normalized, o.Now
	if now == nil {
		now = time.Now
	}
	r := &Report{}
	start := now()
	err := m.Fit(ctx, d, h.Split, func(p model.Progress) {
		if !p.Done {
			r.Epochs++
			r.LastEpoch, r.BestEpoch = p.Epoch, p.BestEpoch
		}
		if progress != nil {
			progress(p)
		}
	})
	if err != nil {
		return nil, err
	}
	r.FitTime = now().Sub(start)
	r.ValRefs = TrivialReferences(d, h.Split.Train, h.Split.Val)
	if v, ok := m.(validationScorer); ok && !math.IsNaN(v.ValidationRMSE()) {
		r.ValRMSE = v.ValidationRMSE()
	} else if r.ValRMSE, _, err = rmseOn(m, d, h.Split.Val); err != nil {
		return nil, err
	}
	if h.Benchmark() {
		if r.TestRMSE, r.TestCorr, err = rmseOn(m, d, h.Split.Test); err != nil {
			return nil, err
		}
		r.TestMeanRMSE = TrivialReferences(d, h.Split.Train, h.Split.Test).MeanRMSE
	}
	if len(h.Cal) == 0 {
		return r, nil
	}
	cal, err := calibrate(m, d, h.Cal, normalized)
	if err != nil {
		return nil, err
	}
	r.Calibration = &cal
	if h.Benchmark() {
		im, err := intervalsOn(m, d, h.Split.Test, cal, 0.9)
		if err != nil {
			return nil, err
		}
		r.TestIntervals = &im
	}
	return r, nil
}

// predictOn predicts the pairs idx of d with m and returns their measured
// scores, mu and sigma_total, in the order of idx.
func predictOn(m model.Method, d *model.Dataset, idx []int) (y, mu, sigma []float64, err error) {
	ps := make([]model.PairRef, len(idx))
	y = make([]float64, len(idx))
	for k, i := range idx {
		ps[k], y[k] = d.Pairs[i], d.Y[i]
	}
	pred, err := m.Predict(d.Features, ps)
	if err != nil {
		return nil, nil, nil, err
	}
	mu, sigma = make([]float64, len(idx)), make([]float64, len(idx))
	for k, p := range pred {
		mu[k], sigma[k] = p.Mu, p.SigmaTotal
	}
	return y, mu, sigma, nil
}

// rmseOn returns the RMSE of mu on the pairs idx of d and
// corr(sigma_total, |residual|).
func rmseOn(m model.Method, d *model.Dataset, idx []int) (rmse, corr float64, err error) {
	y, mu, sigma, err := predictOn(m, d, idx)
	if err != nil {
		return 0, 0, err
	}
	var se float64
	res := make([]float64, len(idx))
	for k := range y {
		r := mu[k] - y[k]
		se += r * r
		res[k] = math.Abs(r)
	}
	return math.Sqrt(se / float64(max(len(idx), 1))), uq.Pearson(sigma, res), nil
}

// calibrate fits the split-conformal calibration of a trained method on
// the held-out pairs idx of d.
func calibrate(m model.Method, d *model.Dataset, idx []int, normalized bool) (uq.Calibrator, error) {
	y, mu, sigma, err := predictOn(m, d, idx)
	if err != nil {
		return uq.Calibrator{}, err
	}
	cal, err := uq.FitConformal(y, mu, sigma, normalized)
	if err != nil {
		return uq.Calibrator{}, fmt.Errorf("calibration on %d held-out pairs: %w", len(idx), err)
	}
	return cal, nil
}

// intervalsOn scores the intervals of cal at coverage on the pairs idx of
// d (coverages in %, uq.ScoreIntervals).
func intervalsOn(m model.Method, d *model.Dataset, idx []int, cal uq.Calibrator, coverage float64) (uq.IntervalMetrics, error) {
	y, mu, sigma, err := predictOn(m, d, idx)
	if err != nil {
		return uq.IntervalMetrics{}, err
	}
	lo, hi := make([]float64, len(idx)), make([]float64, len(idx))
	for k := range mu {
		if lo[k], hi[k], err = cal.Interval(mu[k], sigma[k], coverage); err != nil {
			return uq.IntervalMetrics{}, err
		}
	}
	return uq.ScoreIntervals(y, lo, hi, sigma, 1-coverage), nil
}
