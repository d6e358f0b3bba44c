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
	bars := progress.NewNetworks(env.Stderr, func(network, member, members int) string {
		if members > 1 {
			return fmt.Sprintf("%s member %d/%d", round, member+1, members)
		}
		return fmt.Sprintf("%s network %d", round, network)
	})
	epoch := func(p model.Progress) {
		switch {
		case p.Done:
			bars.Finish()
		case math.IsNaN(p.ValRMSE):
			bars.Epoch(p.Member, p.Members, p.Epoch, p.MaxEpochs)
		default:
			bars.Epoch(p.Member, p.Members, p.Epoch, p.MaxEpochs, fmt.Sprintf("val-rmse %.3g", p.ValRMSE))
		}
	}
	_, err := c.Step(ctx, active.WithTrainProgress(s, epoch), oracle)
	bars.Finish()
	if err != nil {
		return nil, err
	}
	return c.Rounds()[len(c.Rounds())-1], nil
}
