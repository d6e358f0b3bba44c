package active_test

import (
	"fmt"

	"github.com/deup-screening/deup/active"
)

// Score four candidates with UCB (kappa 2) and take a batch of two with at
// most one use of each drug: the second-best pair shares drug 0 with the
// best, so the third is taken instead.
func ExampleSelectBatch() {
	pairs := []active.PairOnLine{{A: 0, B: 1}, {A: 0, B: 2}, {A: 2, B: 3}, {A: 1, B: 3}}
	preds := []active.SurrogatePrediction{
		{Mu: 10, SigmaEpistemic: 1},
		{Mu: 9, SigmaEpistemic: 1},
		{Mu: 5, SigmaEpistemic: 2},
		{Mu: 1, SigmaEpistemic: 0},
	}
	acq, _ := active.ParseAcquisition("ucb")
	scores, _ := acq.Scores(nil, preds, 0, nil)
	for rank, i := range active.SelectBatch(pairs, scores, 2, 1) {
		fmt.Println(acq.Reason(preds[i], scores[i], rank+1, len(pairs)))
	}
	// Output:
	// ucb 12 = mu 10 + 2*sigma_epistemic 1; ranked 1 of 4 candidates
	// ucb 9 = mu 5 + 2*sigma_epistemic 2; ranked 2 of 4 candidates
}
