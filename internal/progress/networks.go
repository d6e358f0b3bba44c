package progress

import (
	"fmt"
	"io"
)

// Networks draws one Bar per network trained (one per ensemble member): a
// new bar starts when the member changes, and each bar ends at the epoch
// its training stopped at (early stopping ends before the maximum). It is
// the Series of a training run.
type Networks struct {
	bars   *Series
	label  string
	member int
}

// NewNetworks returns bars writing to w, labelled label (and "member
// i/n" for an ensemble's members).
func NewNetworks(w io.Writer, label string) *Networks {
	return &Networks{bars: NewSeries(w), label: label}
}

// Epoch records that member (0-based) of members finished epoch of at
// most maxEpochs, with a detail text.
func (n *Networks) Epoch(member, members, epoch, maxEpochs int, detail string) {
	if !n.bars.Active() || member != n.member {
		label := n.label
		if members > 1 {
			label += fmt.Sprintf(" member %d/%d", member+1, members)
		}
		n.bars.Next(label, maxEpochs)
	}
	n.member = member
	n.bars.Set(epoch, detail)
}

// Finish ends the current bar, if any, at the last epoch recorded.
func (n *Networks) Finish() { n.bars.Finish() }
