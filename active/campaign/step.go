package campaign

import (
	"context"
	"fmt"
	"strings"

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

// checkNext refuses (CheckBatch) to propose c's next round when its
// pool cannot fill the campaign's batch; a round open or a campaign done
// is no proposal, and passes.
func checkNext(c *active.State) error {
	if c.Open() != nil || c.Done() {
		return nil
	}
	return CheckBatch(c.Config.Batch, c.Config.MaxPerLine, len(c.Pool()), len(c.Config.CellLines))
}

// Step runs the next round of the campaign (active.State.Step), its
// surrogate reporting each epoch of the networks it trains to epoch
// (surrogate.WithTrainProgress), and returns that round: a new one, or the one
// a crash left open, now measured.
func (o *Opened) Step(ctx context.Context, epoch func(model.Progress)) (*active.Round, error) {
	c := o.Campaign
	if err := checkNext(c); err != nil {
		return nil, err
	}
	if _, err := c.Step(ctx, surrogate.WithTrainProgress(o.Surrogate, epoch), o.Oracle); err != nil {
		return nil, err
	}
	return c.Rounds()[len(c.Rounds())-1], nil
}

// RoundLabel names the bars of the networks that the next round of a
// campaign trains, as a step's progress shows them (the label of
// progress.NewNetworks): "round R network k of n", k counting the round's
// trainings from 1 and n their number (surrogate.RoundTrainings: Alg. 2's
// pre-fill folds, then the round's predictor; "network k" alone when the
// number is not known); "round R network k of n (μ′)" for the second
// network a training begins with (DEUP's held-out-drug μ′, whose bar the
// caller flags with Method); an ensemble's members "round R member i/m".
type RoundLabel struct {
	base     string
	n, k     int
	aux, was bool
}

// NewRoundLabel labels the next round of c on surrogate s.
func NewRoundLabel(c *active.State, s active.Surrogate) *RoundLabel {
	return &RoundLabel{base: fmt.Sprintf("round %d", len(c.Rounds())+1), n: surrogate.RoundTrainings(s, c.Initial(), c.Prefilled())}
}

// Method tells the label the method of the epoch about to be drawn (a
// model.Progress's Method): one naming μ′ is a training's first network.
func (l *RoundLabel) Method(m string) { l.aux = strings.Contains(m, "μ′") }

// Label is the label function of progress.NewNetworks: it is called once
// per bar, when the bar begins.
func (l *RoundLabel) Label(network, member, members int) string {
	if members > 1 {
		return progress.MemberLabel(l.base)(network, member, members)
	}
	if !l.was {
		l.k++ // a bar after a μ′ bar is the same training's network
	}
	l.was = l.aux
	s := fmt.Sprintf("%s network %d", l.base, l.k)
	if l.n >= l.k {
		s += fmt.Sprintf(" of %d", l.n)
	}
	if l.aux {
		s += " (μ′)"
	}
	return s
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
