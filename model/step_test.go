package model

import (
	"slices"
	"testing"
)

// TestOutOfSampleStepTouchesOnlySigma: a D_out step leaves the tower, the
// combined network and the μ head (and their Adam state) bit-identical
// and changes every σ-path parameter; a D_in step changes all groups.
func TestOutOfSampleStepTouchesOnlySigma(t *testing.T) {
	tp := makeToy(10, 20, 64, 8, 0.3)
	cfg := Config{TowerHidden: 96, TowerOut: 48, CombHidden: 32, SigmaHidden: 32, LR: 1e-3, BatchSize: 64, MaxEpochs: 150, Patience: 30, Seed: 4}.WithDefaults()
	n := NewNetwork(cfg, 64, true, 4)
	tr := NewTrainer(n, tp.d, 0, 1, 4, 0)
	defer tr.Close()
	for _, tc := range []struct {
		kind Loss
		bit  float64
	}{{LossNLLSigma, 1}, {LossNLL, 0}} {
		before := n.snapshot(nil)
		if _, err := tr.step(tp.split.Val[:64], tc.kind, tc.bit); err != nil {
			t.Fatal(err)
		}
		after := n.snapshot(nil)
		for i, p := range n.params {
			changed := !slices.Equal(toFloat64(before[i]), toFloat64(after[i]))
			want := tc.kind == LossNLL || p.group == groupSigma
			if changed != want {
				t.Errorf("kind %d: %s (%v) changed=%v, want %v", tc.kind, p.name, p.group, changed, want)
			}
		}
	}
}
