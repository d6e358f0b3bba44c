package campaign

import (
	"context"
	"fmt"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/ledger"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/model"
)

// Opened is a campaign opened to run rounds: its ledger (closed by Close),
// the campaign, its surrogate and its oracle (nil for a live campaign: the
// lab measures).
type Opened struct {
	Ledger    *ledger.Ledger
	Campaign  *active.State
	Surrogate active.Surrogate
	Oracle    active.Oracle
}

// OpenParts opens the campaign in dir (Open) with its surrogate and oracle
// (Parts); on an error the ledger is closed.
func (s Screens) OpenParts(dir string) (*Opened, error) {
	l, c, err := Open(dir)
	if err != nil {
		return nil, err
	}
	sur, oracle, err := s.Parts(c)
	if err != nil {
		l.Close()
		return nil, err
	}
	return &Opened{Ledger: l, Campaign: c, Surrogate: sur, Oracle: oracle}, nil
}

// Close closes the campaign's ledger.
func (o *Opened) Close() error { return o.Ledger.Close() }

// Step runs the next round of the campaign (active.State.Step), its
// surrogate reporting each epoch of the networks it trains to epoch
// (surrogate.WithTrainProgress), and returns that round: a new one, or the one
// a crash left open, now measured.
func (o *Opened) Step(ctx context.Context, epoch func(model.Progress)) (*active.Round, error) {
	c := o.Campaign
	if _, err := c.Step(ctx, surrogate.WithTrainProgress(o.Surrogate, epoch), o.Oracle); err != nil {
		return nil, err
	}
	return c.Rounds()[len(c.Rounds())-1], nil
}

// NetworkLabels names the networks that the next round of c trains, as a
// step's progress shows them (the label of progress.NewNetworks): an
// ensemble's member "round R member i/n", else "round R network k", k
// counting the round's networks from 1 (Alg. 2's pre-fill folds, then the
// round's predictor).
func NetworkLabels(c *active.State) func(network, member, members int) string {
	return progress.NetworkLabel(fmt.Sprintf("round %d", len(c.Rounds())+1))
}

// Resumption is what resuming a campaign does (deup campaign resume).
type Resumption int

const (
	// Waiting: a live campaign's open round waits for the lab's results;
	// nothing runs.
	Waiting Resumption = iota
	// Complete: a live campaign has run all its rounds; nothing runs.
	Complete
	// ProposeOne: a live campaign proposes its next round, for the lab.
	ProposeOne
	// RunAll: a retrospective campaign runs the rounds it has left (Run),
	// the one a crash left open first.
	RunAll
)

// Resumption says what resuming the campaign does.
func (o *Opened) Resumption() Resumption {
	c := o.Campaign
	switch {
	case o.Oracle != nil:
		return RunAll
	case c.Open() != nil:
		return Waiting
	case c.Done():
		return Complete
	}
	return ProposeOne
}
