package progress

import (
	"fmt"
	"io"
)

// Networks draws one Bar per network trained (one per ensemble member): a
// new bar starts when the member changes, and each bar ends at the epoch
// its training stopped at (early stopping ends before the maximum).
type Networks struct {
	w      io.Writer
	label  string
	bar    *Bar
	member int
	epoch  int
}

// NewNetworks returns bars writing to w, labelled label (and "member
// i/n" for an ensemble's members).
func NewNetworks(w io.Writer, label string) *Networks { return &Networks{w: w, label: label} }

// Epoch records that member (0-based) of members finished epoch of at
// most maxEpochs, with a detail text.
func (n *Networks) Epoch(member, members, epoch, maxEpochs int, detail string) {
	if n.bar == nil || member != n.member {
		n.Finish()
		label := n.label
		if members > 1 {
			label += fmt.Sprintf(" member %d/%d", member+1, members)
		}
		n.bar = New(n.w, label, maxEpochs)
	}
	n.member, n.epoch = member, epoch
	n.bar.Set(epoch, detail)
}

// Finish ends the current bar, if any, at the last epoch recorded.
func (n *Networks) Finish() {
	if n.bar == nil {
		return
	}
	n.bar.SetTotal(n.epoch)
	n.bar.Finish()
	n.bar = nil
}
