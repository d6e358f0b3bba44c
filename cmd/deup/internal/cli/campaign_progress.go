package cli

import (
	"context"
	"fmt"
	"math"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/model"
)

// stepRound runs the next round of c (active.Campaign.Step) and returns it.
// It draws one bar per network the round trains (Alg. 2's pre-fill folds,
// then the round's main predictor; the members of an ensemble) on stderr,
// ended at the epoch training stopped at.
func stepRound(ctx context.Context, env Env, c *active.Campaign, s active.Surrogate, oracle active.Oracle) (*active.Round, error) {
	round := fmt.Sprintf("round %d", len(c.Rounds())+1)
	bars := progress.NewSeries(env.Stderr)
	networks, member := 0, 0
	epoch := func(p model.Progress) {
		if p.Done {
			bars.Finish()
			return
		}
		if !bars.Active() || (p.Members > 1 && p.Member != member) {
			networks++
			label := fmt.Sprintf("%s network %d", round, networks)
			if p.Members > 1 {
				label = fmt.Sprintf("%s member %d/%d", round, p.Member+1, p.Members)
			}
			bars.Next(label, p.MaxEpochs)
		}
		member = p.Member
		if math.IsNaN(p.ValRMSE) {
			bars.Set(p.Epoch)
			return
		}
		bars.Set(p.Epoch, fmt.Sprintf("val-rmse %.3g", p.ValRMSE))
	}
	_, err := c.Step(ctx, active.WithTrainProgress(s, epoch), oracle)
	bars.Finish()
	if err != nil {
		return nil, err
	}
	return c.Rounds()[len(c.Rounds())-1], nil
}
