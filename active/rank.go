package active

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/streams"
	"github.com/deup-screening/deup/model"
)

// UnmeasuredCandidates returns every unordered pair of the drugs kept (the
// screen's drug indices of a model's feature rows, in row order) on each of
// lines that table has not measured: the screen's pairs and, at the same
// index, the pairs of feature rows and model line to predict.
func UnmeasuredCandidates(kept []int, lines []drugcomb.LinePair, table TableOracle) ([]PairOnLine, []model.PairRef) {
	var cands []PairOnLine
	var mp []model.PairRef
	for ra := 0; ra < len(kept); ra++ {
		for rb := ra + 1; rb < len(kept); rb++ {
			for _, l := range lines {
				p := NewPairOnLine(kept[ra], kept[rb], l.Screen)
				if _, measured := table[p]; measured {
					continue
				}
				cands = append(cands, p)
				mp = append(mp, model.PairRef{A: ra, B: rb, Line: l.Model})
			}
		}
	}
	return cands, mp
}

// Rank scores the predictions of the candidates with acq, against the
// best measured score of table (the draws of thompson from the seed's
// Suggest stream), and picks a batch of b (SelectBatchPerLine with the
// per-drug and per-line caps). It returns the picked candidates' indices,
// best first, and every candidate's score.
//
// The joint-batch and calibrated kinds (BUCB, BEI, BThompson, CUCB,
// JUCB) are refused: they choose a batch in the surrogate's feature space
// or read the calibration a campaign keeps (State.ProposeWith), which a
// ranking of one model's predictions has not.
func Rank(acq Acquisition, cands []PairOnLine, preds []SurrogatePrediction, table TableOracle, b, perDrug, perLine int, seed uint64) (pick []int, scores []float64, err error) {
	if acq.Joint() || acq.Calibrated() {
		return nil, nil, fmt.Errorf("active: acquisition %s reads a campaign's calibration or chooses its batch jointly within a campaign (deup campaign init/step/simulate); rank a model's predictions with ucb, ei or thompson", acq)
	}
	best := math.Inf(-1)
	for _, y := range table {
		best = math.Max(best, y)
	}
	scores, err = acq.Scores(nil, preds, best, rand.New(rand.NewPCG(seed, streams.Suggest)))
	if err != nil {
		return nil, nil, err
	}
	return SelectBatchPerLine(cands, scores, b, perDrug, perLine), scores, nil
}
