package cli

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/model"
)

// stepRound runs the next round of the campaign o (campaign.Opened.Step)
// and returns it. It draws one bar per network the round trains (Alg. 2's
// pre-fill folds, then the round's main predictor; the members of an
// ensemble) on stderr (campaign.RoundLabel: "network k of n"), ended at the epoch training
// stopped at.
func stepRound(ctx context.Context, env Env, o *campaign.Opened) (*active.Round, error) {
	label := campaign.NewRoundLabel(o.Campaign, o.Surrogate)
	bars := progress.NewNetworks(env.Stderr, label.Label)
	epoch := func(p model.Progress) {
		label.Method(p.Method)
		switch {
		case p.Done:
			bars.Finish()
		case math.IsNaN(p.ValRMSE):
			bars.Epoch(p.Member, p.Members, p.Epoch, p.MaxEpochs)
		default:
			bars.Epoch(p.Member, p.Members, p.Epoch, p.MaxEpochs, fmt.Sprintf("val-rmse %.3g", p.ValRMSE))
		}
	}
	next := len(o.Campaign.Rounds()) + 1
	r, err := o.Step(ctx, epoch)
	bars.Finish()
	if err := batchHint(err); err != nil && !errors.Is(err, context.Canceled) {
		return nil, err
	}
	return r, stopped(err, next)
}

// batchHint makes a campaign's refusal to propose a round its pool
// cannot fill (campaign.CheckBatch: the batch was set at init) a usage
// error that says how to propose a smaller one; other errors pass.
func batchHint(err error) error {
	var se *campaign.SettingError
	if errors.As(err, &se) && se.Setting == campaign.Batch {
		return fmt.Errorf("%w: %v (deup suggest --campaign DIR --batch N proposes a smaller round)", cmdline.ErrUsage, err)
	}
	return err
}

// stopped words the error of a round stopped by a signal (SIGINT,
// SIGTERM: the context's cancellation): nothing of round next was written,
// so the campaign is as it was before it.
func stopped(err error, next int) error {
	if err != nil && errors.Is(err, context.Canceled) {
		return fmt.Errorf("stopped in round %d, which is not written: the campaign is as it was before it (%w)", next, err)
	}
	return err
}
