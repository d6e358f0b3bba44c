package pairs

import (
	"context"
	"math"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// ModelChunk is how many pairs AddModel predicts at once.
const ModelChunk = 1 << 16

// AddModel adds a model's predictions (predict: a trained method's Predict)
// for every unordered pair of the feature rows of f, kept[r] being the
// screen's drug of row r, on each of lines (the screen's line a row goes
// to, the model's line it is predicted on; ModelRows in all), in chunks
// of ModelChunk pairs (model.PredictPairs); progress gets the pairs done
// after each chunk. The rows' acquisition is the table's own (NaN).
func (bl *Builder) AddModel(ctx context.Context, predict func(*model.Features, []model.PairRef) ([]model.Prediction, error), f *model.Features, kept []int, lines []drugcomb.LinePair, progress func(done int)) error {
	bl.grow(ModelRows(len(kept), lines))
	done := 0
	for _, l := range lines {
		err := model.PredictPairs(ctx, predict, f, model.AllPairs(len(kept), l.Model), ModelChunk, func(ps []model.PairRef, pred []model.Prediction) error {
			for i, p := range ps {
				q := pred[i]
				if err := bl.Add(kept[p.A], kept[p.B], l.Screen, Scored{Mu: q.Mu, SigmaTotal: q.SigmaTotal, SigmaEpistemic: q.SigmaEpistemic, SigmaAleatoric: q.SigmaAleatoric, Acquisition: math.NaN()}); err != nil {
					return err
				}
			}
			done += len(ps)
			progress(done)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
