package ood

import (
	"math"
	"sort"

	"github.com/deup-screening/deup/uq"
)

// Scores are the metrics of one method on one test set.
type Scores struct {
	SRCC         float64 // Spearman(uncertainty, loss): uq.SRCC
	AUROC        float64 // uncertainty as a score of out-of-distribution: uq.AUROC
	RejectionAUC float64 // RejectionAUC(uncertainty, loss)
}

// Score computes SRCC, AUROC and the rejection area of one method. ood may
// be nil (AUROC NaN).
func Score(uncertainty, loss []float64, ood []bool) Scores {
	s := Scores{SRCC: uq.SRCC(uncertainty, loss), AUROC: math.NaN(), RejectionAUC: RejectionAUC(uncertainty, loss)}
	if ood != nil {
		s.AUROC = uq.AUROC(uncertainty, ood)
	}
	return s
}

// RejectionSteps is the number of rejected fractions of the rejection
// curve: r = 0, 1/100, ..., 99/100 (at least 1 % is always kept).
const RejectionSteps = 100

// RejectionFractions returns the rejected fractions r_j = j/RejectionSteps.
func RejectionFractions() []float64 {
	r := make([]float64, RejectionSteps)
	for j := range r {
		r[j] = float64(j) / RejectionSteps
	}
	return r
}

// RejectionCurve returns, for each rejected fraction r of
// RejectionFractions, the mean loss of the kept examples when the
// round(r*n) most uncertain are rejected, divided by the mean loss of all
// examples (so the curve starts at 1, and a random ranking stays near 1).
// Ties of uncertainty at the cut are kept in proportion: the kept part of a
// tied block counts with the block's mean loss, so the curve does not
// depend on the order of tied examples (a constant uncertainty gives 1
// everywhere). NaN when the mean loss is 0 or any input is NaN; it panics
// if the lengths differ.
func RejectionCurve(uncertainty, loss []float64) []float64 {
	if len(uncertainty) != len(loss) {
		panic("ood: RejectionCurve: length mismatch")
	}
	n := len(loss)
	curve := make([]float64, RejectionSteps)
	var total float64
	for i := range loss {
		if math.IsNaN(loss[i]) || math.IsNaN(uncertainty[i]) {
			total = math.NaN()
			break
		}
		total += loss[i]
	}
	if n == 0 || !(total > 0) || math.IsInf(total, 0) {
		for j := range curve {
			curve[j] = math.NaN()
		}
		return curve
	}
	// Ascending uncertainty: the kept examples are a prefix.
	ord := make([]int, n)
	for i := range ord {
		ord[i] = i
	}
	sort.SliceStable(ord, func(a, b int) bool { return uncertainty[ord[a]] < uncertainty[ord[b]] })
	// Tied blocks [start, end) with their loss sums, and prefix sums.
	prefix := make([]float64, n+1)
	blockStart := make([]int, n)
	for k, i := range ord {
		prefix[k+1] = prefix[k] + loss[i]
		if k > 0 && uncertainty[i] == uncertainty[ord[k-1]] {
			blockStart[k] = blockStart[k-1]
		} else {
			blockStart[k] = k
		}
	}
	blockEnd := make([]int, n)
	for k := n - 1; k >= 0; k-- {
		if k < n-1 && blockStart[k+1] == blockStart[k] {
			blockEnd[k] = blockEnd[k+1]
		} else {
			blockEnd[k] = k + 1
		}
	}
	mean := total / float64(n)
	for j := range curve {
		kept := n - int(math.Round(float64(j)/RejectionSteps*float64(n)))
		if kept < 1 {
			kept = 1
		}
		// The first kept examples; the block containing position kept-1
		// may be cut.
		last := kept - 1
		s, e := blockStart[last], blockEnd[last]
		sum := prefix[s] + float64(kept-s)*(prefix[e]-prefix[s])/float64(e-s)
		curve[j] = sum / float64(kept) / mean
	}
	return curve
}

// RejectionAUC is the mean of RejectionCurve over its fractions (the area
// under the normalized curve divided by the width of [0, 0.99], by the
// trapezoid rule): 1 for an uninformative ranking, lower is better.
func RejectionAUC(uncertainty, loss []float64) float64 {
	c := RejectionCurve(uncertainty, loss)
	var a float64
	for j := 1; j < len(c); j++ {
		a += (c[j] + c[j-1]) / 2
	}
	return a / float64(len(c)-1)
}
