package progress

import (
	"fmt"
	"io"
)

// Networks draws one Bar per network trained (one per ensemble member): a
// new bar starts when the member changes, or after Finish, and each bar
// ends at the epoch its training stopped at (early stopping ends before the
// maximum). It is the Series of a training run, or of a campaign round's
// trainings.
type Networks struct {
	bars    *Series
	label   func(network, member, members int) string
	member  int
	network int // bars begun so far
}

// NewNetworks returns bars writing to w; label names the bar of the
// network-th network begun (from 1), member (from 0) of members.
func NewNetworks(w io.Writer, label func(network, member, members int) string) *Networks {
	return &Networks{bars: NewSeries(w), label: label}
}

// MemberLabel labels a training run's bars base, and "base member i/n" for
// an ensemble's members.
func MemberLabel(base string) func(network, member, members int) string {
	return func(_, member, members int) string {
		if members > 1 {
			return fmt.Sprintf("%s member %d/%d", base, member+1, members)
		}
		return base
	}
}

// NetworkLabel labels the bars of a series of trainings (a campaign
// round's: Alg. 2's pre-fill folds, then the round's predictor) "base
// network k", k counting the networks begun from 1, and an ensemble's
// members as MemberLabel does.
func NetworkLabel(base string) func(network, member, members int) string {
	ensemble := MemberLabel(base)
	return func(network, member, members int) string {
		if members > 1 {
			return ensemble(network, member, members)
		}
		return fmt.Sprintf("%s network %d", base, network)
	}
}

// Epoch records that member (0-based) of members finished epoch of at
// most maxEpochs, with a detail text (none: the bar keeps its last).
func (n *Networks) Epoch(member, members, epoch, maxEpochs int, detail ...string) {
	if !n.bars.Active() || member != n.member {
		n.network++
		n.bars.Next(n.label(n.network, member, members), maxEpochs)
	}
	n.member = member
	n.bars.Set(epoch, detail...)
}

// Finish ends the current bar, if any, at the last epoch recorded.
func (n *Networks) Finish() { n.bars.Finish() }
