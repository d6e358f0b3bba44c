package model

import (
	"context"
	"testing"
)

// TestFitKeepsNothingOfTraining checks that after Fit a model's networks
// hold no optimizer state (every parameter's Adam moments released, step
// count 0): graphs and gradients go with the trainer, which Fit closes.
func TestFitKeepsNothingOfTraining(t *testing.T) {
	tp := makeToy(21, 12, 32, 6, 0.3)
	cfg := smallConfig()
	cfg.MaxEpochs = 2
	for _, m := range []Method{NewEnsemble(cfg, 2, false), NewEnsemble(cfg, 2, true), NewMCDropout(cfg, 0.1, 2)} {
		if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
			t.Fatal(err)
		}
		var nets []*Network
		switch m := m.(type) {
		case *DeepEnsemble:
			nets = m.nets
		case *MCDropout:
			nets = []*Network{m.net}
		}
		if len(nets) == 0 {
			t.Fatalf("%T: no networks after Fit", m)
		}
		for _, n := range nets {
			if s := n.OptimizerSteps(); s != 0 {
				t.Errorf("%T keeps Adam state after Fit (%d steps)", m, s)
			}
		}
	}
}
