package cli

import (
	"fmt"
	"io"
	"math"

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

func newTrainProgress(w io.Writer, label string) *trainProgress {
	return &trainProgress{w: w, label: label}
}

// epoch is the active.WithTrainProgress callback.
func (t *trainProgress) epoch(p model.Progress) {
	if p.Done {
		t.finishBar()
		return
	}
	if t.bar == nil || (p.Members > 1 && p.Member != t.last.Member) {
		t.finishBar()
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

// finishBar ends the current bar at the epoch training stopped at (early
// stopping ends before MaxEpochs).
func (t *trainProgress) finishBar() {
	if t.bar == nil {
		return
	}
	t.bar.SetTotal(t.last.Epoch)
	t.bar.Finish()
	t.bar = nil
}

// finish ends the last bar, if any.
func (t *trainProgress) finish() { t.finishBar() }
