package training

import (
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/due"
)

// The trained methods, by the names every command uses.
const (
	DEUP        = "deup"
	Ensemble    = "ensemble"
	EnsembleNLL = "ensemble-nll"
	MCDropout   = "mcdropout"
	DUE         = "due"
)

// Known lists the methods New accepts, in the benchmark's table order.
func Known() []string { return []string{DEUP, Ensemble, EnsembleNLL, MCDropout, DUE} }

// MethodConfig configures any method New builds. Model configures the
// two-tower network (deup, ensemble, ensemble-nll, mcdropout); DUE
// configures model/due, whose Seed is always Model.Seed. Members (ensemble,
// ensemble-nll) must be at least 1; Passes (mcdropout) at least 2 and
// Dropout (mcdropout) in (0, 1). No zero value is replaced by a default:
// callers state them (the paper's are 3 members, 3 passes, rate 0.1).
type MethodConfig struct {
	Model   model.Config
	DUE     due.Config
	Members int
	Passes  int
	Dropout float64
}

// Panel returns c with the panel's training settings in its zero fields
// (model.Config.Panel; for DUE the same batch size, patience and epoch
// cap, its learning rates unchanged): the setting of a dataset with
// several cell lines.
func (c MethodConfig) Panel() MethodConfig {
	c.Model = c.Model.Panel()
	if c.DUE.BatchSize == 0 {
		c.DUE.BatchSize = model.PanelBatchSize
	}
	if c.DUE.Patience == 0 {
		c.DUE.Patience = model.PanelPatience
	}
	if c.DUE.MaxEpochs == 0 {
		c.DUE.MaxEpochs = model.PanelMaxEpochs
	}
	return c
}

// ErrUnknownMethod is returned by New for a name not in Known.
var ErrUnknownMethod = errors.New("unknown method")

// New is the one constructor of an untrained method by name.
func New(name string, c MethodConfig) (model.Method, error) {
	switch name {
	case DEUP:
		return model.NewDEUP(c.Model), nil
	case Ensemble, EnsembleNLL:
		if c.Members < 1 {
			return nil, fmt.Errorf("training: %d ensemble members, want >= 1", c.Members)
		}
		return model.NewEnsemble(c.Model, c.Members, name == EnsembleNLL), nil
	case MCDropout:
		if c.Passes < 2 || !(c.Dropout > 0 && c.Dropout < 1) {
			return nil, fmt.Errorf("training: MC-Dropout passes %d (want >= 2), rate %v (want in (0,1))", c.Passes, c.Dropout)
		}
		return model.NewMCDropout(c.Model, c.Dropout, c.Passes), nil
	case DUE:
		dc := c.DUE
		dc.Seed = c.Model.Seed
		return due.New(dc), nil
	}
	return nil, fmt.Errorf("%w %q (available: %s)", ErrUnknownMethod, name, strings.Join(Known(), ", "))
}
