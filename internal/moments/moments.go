package moments

import (
	"math"
	"strconv"
)

// MeanSD returns the mean and the sample standard deviation (n-1
// denominator) of x: both NaN for no value; for one value the value and
// NaN. A caller that needs a scale (to standardize) replaces an sd that is
// not positive itself, saying so, or calls MeanScale.
func MeanSD(x []float64) (mean, sd float64) {
	mean, ss := meanSS(x)
	switch len(x) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return mean, math.NaN()
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}

// MeanScale is x's mean and sample sd (MeanSD), the sd replaced by 1
// where it is not positive (fewer than two values, or all equal): the
// scale that standardizes x (DUE's and the GP's targets).
func MeanScale(x []float64) (mean, scale float64) {
	mean, scale = MeanSD(x)
	if !(scale > 0) {
		scale = 1
	}
	return mean, scale
}

// PopMeanSD returns the mean and the population standard deviation (n
// denominator) of x, summed as MeanSD sums: both NaN for no value; for one
// value the value and 0.
func PopMeanSD(x []float64) (mean, sd float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	mean, ss := meanSS(x)
	return mean, math.Sqrt(ss / float64(len(x)))
}

// meanSS is the mean of x, summed in order, and the sum of squared
// deviations from it.
func meanSS(x []float64) (mean, ss float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, ss
}

// Format writes a mean and sd as a table shows them, with prec decimals:
// "m ± s"; the mean alone where sd is NaN (one value: MeanSD); missing
// where the mean is NaN (no value).
func Format(mean, sd float64, prec int, missing string) string {
	switch {
	case math.IsNaN(mean):
		return missing
	case math.IsNaN(sd):
		return strconv.FormatFloat(mean, 'f', prec, 64)
	}
	return strconv.FormatFloat(mean, 'f', prec, 64) + " ± " + strconv.FormatFloat(sd, 'f', prec, 64)
}
