package model

import (
	"context"
	"slices"
	"testing"
)

// TestSigmaRefit: the refit after early stopping changes only σ-path
// values (tower, combined network and μ head bit-identical), never raises
// the held-out out-of-sample NLL it selects on, and leaves the network at
// the reported value.
func TestSigmaRefit(t *testing.T) {
	tp, n := jointFitted(t)
	before := n.snapshot(nil)
	rt := NewTrainer(n, tp.d, 0, 1, 5, 0)
	defer rt.Close()
	b, a, epochs, _, err := rt.RefitSigma(context.Background(), tp.split.Val, 5, LossNLLSigma)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out NLL %.4f -> %.4f in %d epochs", b, a, epochs)
	if !(a <= b) || epochs < 1 {
		t.Errorf("held-out NLL %v -> %v in %d epochs, want no increase and ≥ 1 epoch", b, a, epochs)
	}
	after := n.snapshot(nil)
	changed := false
	for i, p := range n.params {
		same := slices.Equal(toFloat64(before[i]), toFloat64(after[i]))
		if p.group != groupSigma && !same {
			t.Errorf("%s (%v) changed in the σ refit", p.name, p.group)
		}
		if p.group == groupSigma && !same {
			changed = true
		}
	}
	if a < b && !changed {
		t.Error("held-out NLL improved but no σ parameter changed")
	}
	// Too few validation pairs: no refit, nothing changes.
	_, _, epochs, _, err = rt.RefitSigma(context.Background(), tp.split.Val[:minSigmaRefitVal-1], 5, LossNLLSigma)
	if err != nil || epochs != 0 {
		t.Errorf("refit on %d pairs: %d epochs, err %v; want none", minSigmaRefitVal-1, epochs, err)
	}
	if !slices.EqualFunc(after, n.snapshot(nil), func(x, y any) bool { return slices.Equal(toFloat64(x), toFloat64(y)) }) {
		t.Error("a skipped refit changed the network")
	}
}

// jointFitted is a DEUP network on a toy screen after a few joint epochs,
// as Fit runs them before the σ refit, so the σ path has something to
// refine.
func jointFitted(t *testing.T) (*toyProblem, *Network) {
	t.Helper()
	tp := makeToy(12, 40, 64, 8, 0.3)
	cfg := toyConfig(5).WithDefaults()
	n := NewNetwork(cfg, 64, true, 5)
	tr := NewTrainer(n, tp.d, 0, 1, 5, 0)
	if err := tr.Fit(context.Background(), tp.split, TrainOptions{Method: "deup", Members: 1, Loss: LossNLL, DEUPOut: true}, nil); err != nil {
		t.Fatal(err)
	}
	return tp, n
}

// TestSigmaRefitLog: the log-σ refit (SigmaLoss "log") also changes only
// σ-path values, never raises its held-out criterion and returns a
// positive scale (deupnet tests the DEUP it refits).
func TestSigmaRefitLog(t *testing.T) {
	tp, n := jointFitted(t)
	before := n.snapshot(nil)
	rt := NewTrainer(n, tp.d, 0, 1, 5, 0)
	defer rt.Close()
	b, a, epochs, scale, err := rt.RefitSigma(context.Background(), tp.split.Val, 5, LossLogSigma)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out log loss %.4f -> %.4f in %d epochs, scale %.4f", b, a, epochs, scale)
	if !(a <= b) || epochs < 1 || !(scale > 0) {
		t.Errorf("held-out loss %v -> %v in %d epochs, scale %v", b, a, epochs, scale)
	}
	for i, p := range n.params {
		if p.group != groupSigma && !slices.Equal(toFloat64(before[i]), toFloat64(n.snapshot(nil)[i])) {
			t.Errorf("%s (%v) changed in the σ refit", p.name, p.group)
		}
	}
}
