package smo

import "math"

// TrustRegion is the state of TuRBO-1 (Eriksson et al. 2019) with the
// defaults of BoTorch's TuRBO tutorial: side length 0.8 of the unit cube,
// minimum 0.5^7, maximum 1.6, success tolerance 10, failure tolerance
// ceil(max(4, d)) for batches of one.
type TrustRegion struct {
	Dim                                int
	Length, LengthMin, LengthMax       float64
	SuccessTolerance, FailureTolerance int
	Successes, Failures                int
	Best                               float64 // best value seen
	// Restarts counts the times Length fell below LengthMin; the state was
	// then reset to Length 0.8 (the data are kept).
	Restarts int
}

// NewTrustRegion returns the BoTorch default state for dimension d.
func NewTrustRegion(d int) *TrustRegion {
	return &TrustRegion{
		Dim: d, Length: 0.8, LengthMin: math.Pow(0.5, 7), LengthMax: 1.6,
		SuccessTolerance: 10, FailureTolerance: int(math.Ceil(math.Max(4, float64(d)))),
		Best: math.Inf(-1),
	}
}

// Update applies BoTorch's update_state for one new value y: a success is
// y > Best + 1e-3 |Best|; SuccessTolerance successes in a row double the
// length (capped at LengthMax), FailureTolerance failures in a row halve it;
// a length below LengthMin triggers a restart.
func (tr *TrustRegion) Update(y float64) {
	if y > tr.Best+1e-3*math.Abs(tr.Best) {
		tr.Successes++
		tr.Failures = 0
	} else {
		tr.Successes = 0
		tr.Failures++
	}
	switch {
	case tr.Successes == tr.SuccessTolerance:
		tr.Length = math.Min(2*tr.Length, tr.LengthMax)
		tr.Successes = 0
	case tr.Failures == tr.FailureTolerance:
		tr.Length /= 2
		tr.Failures = 0
	}
	tr.Best = math.Max(tr.Best, y)
	if tr.Length < tr.LengthMin {
		tr.Restarts++
		tr.Length, tr.Successes, tr.Failures = 0.8, 0, 0
	}
}

// Bounds returns the trust region around center in the unit cube: side
// lengths Length * w_i, with w the lengthscales divided by their mean and
// then by their geometric mean (so prod w_i = 1), clipped to [0, 1].
func (tr *TrustRegion) Bounds(center, lengthscales []float64) (lo, hi []float64) {
	d := len(center)
	w := make([]float64, d)
	for i := range w {
		w[i] = 1
		if len(lengthscales) == d {
			w[i] = lengthscales[i]
		}
	}
	mean := 0.0
	for _, v := range w {
		mean += v
	}
	mean /= float64(d)
	logSum := 0.0
	for i := range w {
		w[i] /= mean
		logSum += math.Log(w[i])
	}
	g := math.Exp(logSum / float64(d))
	lo, hi = make([]float64, d), make([]float64, d)
	for i := range w {
		w[i] /= g
		lo[i] = math.Max(center[i]-w[i]*tr.Length/2, 0)
		hi[i] = math.Min(center[i]+w[i]*tr.Length/2, 1)
	}
	return lo, hi
}
