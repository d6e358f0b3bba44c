package deupnet

import (
	"fmt"

	"github.com/deup-screening/deup/model"
)

// Options are the settings of DEUP's σ path. The zero value of every field
// means its default.
type Options struct {
	// SigmaFeatures are the stationarizing inputs of the σ path
	// (sigmafeat.go); zero: none.
	SigmaFeatures SigmaFeatures

	// SigmaLoss is the loss of the σ refit (model.Trainer.RefitSigma):
	// "nll" (the default, also for "") the Gaussian NLL, or "log" the
	// regression of log σ on log |μ−y| followed by a held-out Gaussian
	// scale.
	SigmaLoss string

	// NoveltyHoldout is the share of the training pairs whose drugs DEUP
	// holds out of μ's training so that its error predictor learns the
	// error on unseen drugs (novelty.go); default DefaultNoveltyHoldout,
	// negative means none.
	NoveltyHoldout float64
}

// Config configures a DEUP: the shared network and its training
// (model.Config, whose zero fields take model's defaults) and the σ path.
type Config struct {
	model.Config
	Options
}

func (c Config) withDefaults() Config {
	c.Config = c.Config.WithDefaults()
	if c.NoveltyHoldout == 0 {
		c.NoveltyHoldout = DefaultNoveltyHoldout
	}
	return c
}

func (c Config) validate() error {
	if err := c.Config.Validate(); err != nil {
		return err
	}
	if c.SigmaLoss != "" && c.SigmaLoss != "nll" && c.SigmaLoss != "log" {
		return fmt.Errorf("model: config: sigma loss %q, want nll or log", c.SigmaLoss)
	}
	if c.NoveltyHoldout >= 0.5 {
		return fmt.Errorf("model: config: novelty holdout %v, want < 0.5 (negative for none)", c.NoveltyHoldout)
	}
	return nil
}

// side is the number of σ-feature columns of the networks.
func (c Config) side() int { return c.Config.Side() }

// withSide returns c with k σ-feature columns.
func (c Config) withSide(k int) Config {
	c.Config = c.Config.WithSide(k)
	return c
}
