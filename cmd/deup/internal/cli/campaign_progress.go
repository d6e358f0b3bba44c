package cli

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/model"
)

// trainProgress draws one progress bar per network a campaign round trains
// (Alg. 2's pre-fill folds, then the round's main predictor; the members of
// an ensemble), on stderr as deup train does: redrawn in place on a
// terminal, a few lines otherwise.
type trainProgress struct {
	w        io.Writer
	label    string
	bar      *progress.Bar
	last     model.Progress
	networks int
}

// stepRound runs the next round of c (active.Campaign.Step) with a bar per
// network it trains, and returns the round.
func stepRound(ctx context.Context, env Env, c *active.Campaign, s active.Surrogate, oracle active.Oracle) (*active.Round, error) {
	tp := &trainProgress{w: env.Stderr, label: fmt.Sprintf("round %d", len(c.Rounds())+1)}
	_, err := c.Step(ctx, active.WithTrainProgress(s, tp.epoch), oracle)
	tp.finish()
	if err != nil {
		return nil, err
	}
	return c.Rounds()[len(c.Rounds())-1], nil
}

// epoch is the active.WithTrainProgress callback.
func (t *trainProgress) epoch(p model.Progress) {
	if p.Done {
		t.finish()
		return
	}
	if t.bar == nil || (p.Members > 1 && p.Member != t.last.Member) {
		t.finish()
		t.networks++
		label := fmt.Sprintf("%s network %d", t.label, t.networks)
		if p.Members > 1 {
			label = fmt.Sprintf("%s member %d/%d", t.label, p.Member+1, p.Members)
		}
		t.bar = progress.New(t.w, label, p.MaxEpochs)
	}
	t.last = p
	if math.IsNaN(p.ValRMSE) {
		t.bar.Set(p.Epoch)
		return
	}
	t.bar.Set(p.Epoch, fmt.Sprintf("val-rmse %.3g", p.ValRMSE))
}

// finish ends the current bar, if any, at the epoch training stopped at
// (early stopping ends before MaxEpochs).
func (t *trainProgress) finish() {
	if t.bar == nil {
		return
	}
	t.bar.SetTotal(t.last.Epoch)
	t.bar.Finish()
	t.bar = nil
}
