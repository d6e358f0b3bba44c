package model

import (
	"math"
	"testing"
)

// TestGraphReuseMatchesFreshGraphs trains a float32 network for several
// steps on different batches twice: once reusing one compiled graph per
// size (as the trainer does, so the sparse weight gradient only rewrites
// and clears the rows it must), once compiling a fresh graph for every
// step. Every parameter must end bit-identical. The tower is wide enough
// (in = 300 bits, hidden 256) that the sparse ops split their work across
// two goroutines.
func TestGraphReuseMatchesFreshGraphs(t *testing.T) {
	tp := makeToy(5, 40, 300, 30, 0.2)
	for k := range tp.d.Features.Val {
		tp.d.Features.Val[k] = float32(0.5 + float64(k%5)*0.25)
	}
	cfg := Config{TowerHidden: 256, TowerOut: 64, CombHidden: 16, SigmaHidden: 8, BatchSize: 8}.WithDefaults()
	batches := [][]int{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9}, {0, 10, 20, 30, 40, 50, 60, 70}, {1, 2, 3}, {11, 12, 13, 14, 15, 16}}
	kinds := []Loss{LossNLL, LossNLLSigma, LossNLL, LossNLL, LossNLLSigma}
	run := func(fresh bool) *Network {
		n := NewNetwork(cfg, 300, true, 9)
		tr := NewTrainer(n, tp.d, 0.1, 1.3, 9, 0)
		defer tr.Close()
		trainSteps(t, tr, batches, kinds, func() {
			if fresh {
				tr.Close()
				tr.graphs = map[graphKey]*graph{}
			}
		})
		return n
	}
	sameParams32(t, run(false), run(true), "reused graph", "fresh graphs")
}

// trainSteps runs one trainer step per batch, σ-only steps with the bit
// set; before, when not nil, runs before each step.
func trainSteps(t *testing.T, tr *Trainer, batches [][]int, kinds []Loss, before func()) {
	t.Helper()
	for i, idx := range batches {
		if before != nil {
			before()
		}
		bit := 0.0
		if kinds[i] == LossNLLSigma {
			bit = 1
		}
		if _, err := tr.step(idx, kinds[i], bit); err != nil {
			t.Fatal(err)
		}
	}
}

// sameParams32 fails unless every float32 parameter of a and b has the
// same bits; na and nb name the two runs.
func sameParams32(t *testing.T, a, b *Network, na, nb string) {
	t.Helper()
	for i, p := range a.params {
		x, y := p.t.Data().([]float32), b.params[i].t.Data().([]float32)
		for j := range x {
			if math.Float32bits(x[j]) != math.Float32bits(y[j]) {
				t.Fatalf("%s[%d]: %s %v, %s %v", p.name, j, na, x[j], nb, y[j])
			}
		}
	}
}

// TestFusedTowerAdamMatchesGradient: the trainer computes the tower's
// weight gradients inside their Adam steps, a block of rows at a time
// (nn.SparseGrad.Fuse, nn.DenseGrad.Fuse); training with the gradients
// computed whole by the graph and then applied must give every parameter
// bit for bit (t1.w of 300×512, non-binary features, and t2.w of 512×256:
// several row blocks shared between the workers; NLL, σ-only and MSE
// steps).
func TestFusedTowerAdamMatchesGradient(t *testing.T) {
	tp := makeToy(5, 40, 300, 30, 0.2)
	for k := range tp.d.Features.Val {
		tp.d.Features.Val[k] = float32(0.5 + float64(k%5)*0.25)
	}
	cfg := Config{TowerHidden: 512, TowerOut: 256, CombHidden: 16, SigmaHidden: 8, BatchSize: 8}.WithDefaults()
	batches := [][]int{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9}, {0, 10, 20, 30, 40, 50, 60, 70}, {1, 2, 3}, {11, 12, 13, 14, 15, 16}, {5, 6}}
	kinds := []Loss{LossNLL, LossNLLSigma, LossNLL, LossMSE, LossNLLSigma, LossNLL}
	run := func(fused bool) *Network {
		n := NewNetwork(cfg, 300, true, 9)
		tr := NewTrainer(n, tp.d, 0.1, 1.3, 9, 0)
		defer tr.Close()
		if !fused {
			tr.share = gradShare{}
		}
		trainSteps(t, tr, batches, kinds, nil)
		return n
	}
	a, b := run(true), run(false)
	sameParams32(t, a, b, "fused", "whole gradient")
	for _, name := range []string{"t1.w", "t2.w"} {
		if p := a.byName[name]; p.opt32.Steps() != 4 {
			t.Errorf("%s took %d steps, want 4 (the σ-only steps leave it)", name, p.opt32.Steps())
		}
	}
}
