package deupnet

import (
	"context"
	"testing"
)

// TestFitKeepsNothingOfTraining: after Fit the DEUP network, like the
// baselines' (model's test of the same name), holds only its parameter
// values: no Adam moments.
func TestFitKeepsNothingOfTraining(t *testing.T) {
	tp := makeToy(21, 12, 32, 6, 0.3)
	cfg := toyConfig(3)
	cfg.MaxEpochs = 2
	m := New(cfg)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	if m.net == nil {
		t.Fatal("no network after Fit")
	}
	if s := m.net.OptimizerSteps(); s != 0 {
		t.Errorf("the network keeps Adam state after Fit (%d steps)", s)
	}
}
