package uq

import "math"

// OOD holds the metrics of the generic out-of-distribution use.
type OOD struct {
	N     int     `json:"n"`
	SRCC  float64 `json:"srcc"`
	AUROC float64 `json:"auroc"`
}

// ScoreOOD computes SRCC(uncertainty, loss) and AUROC(uncertainty, ood).
// The three slices must have equal lengths (Score's panic otherwise); loss
// may be nil to skip SRCC (NaN) and ood may be nil to skip AUROC (NaN).
func ScoreOOD(uncertainty, loss []float64, ood []bool) OOD {
	o := OOD{N: len(uncertainty), SRCC: math.NaN(), AUROC: math.NaN()}
	if loss != nil {
		o.SRCC = SRCC(uncertainty, loss)
	}
	if ood != nil {
		o.AUROC = AUROC(uncertainty, ood)
	}
	return o
}

// SRCC is the "srcc" metric: the Spearman rank correlation between the
// predicted uncertainty and the observed loss of each example.
func SRCC(uncertainty, loss []float64) float64 { return Spearman(uncertainty, loss) }

// AUROC is the "auroc" metric: the area under the ROC curve of score as a
// classifier of positive (out-of-distribution) against negative examples,
// ties counting one half: the Mann-Whitney U of the positives divided by
// n_pos * n_neg, from average ranks. NaN when either class is empty or any
// score is NaN. It panics if the lengths differ.
func AUROC(score []float64, positive []bool) float64 {
	if len(score) != len(positive) {
		panic("uq: slice length mismatch")
	}
	if hasNaN(score) {
		return math.NaN()
	}
	ranks := Ranks(nil, score)
	var npos, nneg, sum float64
	for i, p := range positive {
		if p {
			npos++
			sum += ranks[i]
		} else {
			nneg++
		}
	}
	if npos == 0 || nneg == 0 {
		return math.NaN()
	}
	u := sum - npos*(npos+1)/2
	return u / (npos * nneg)
}
