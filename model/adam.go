package model

import (
	"fmt"

	"github.com/deup-screening/deup/nn"
)

// adam applies one Adam step with L2 weight decay added to the gradient
// (PyTorch's Adam with weight_decay, package nn/optim) to the parameter in
// place, reading the gradient tensor produced by gorgonia. Each parameter
// has its own optimizer state and step count (for bias correction).
//
// Why not gorgonia's AdamSolver: it clones tensors every step (2–3× slower
// than this loop on our sizes), keeps one shared step count although the
// DEUP out-of-sample step updates only some parameters, and its weight
// decay is not PyTorch's.
func adam(p *param, g *nn.Tensor, lr, wd float64) error {
	switch w := p.t.Data().(type) {
	case []float32:
		gd, ok := g.Data().([]float32)
		if !ok || len(gd) != len(w) {
			return fmt.Errorf("model: adam: gradient of %s has %v, want %d float32", p.name, g.Shape(), len(w))
		}
		p.opt32.LR, p.opt32.WeightDecay = lr, wd
		p.opt32.Step(w, gd)
	case []float64:
		gd, ok := g.Data().([]float64)
		if !ok || len(gd) != len(w) {
			return fmt.Errorf("model: adam: gradient of %s has %v, want %d float64", p.name, g.Shape(), len(w))
		}
		p.opt64.LR, p.opt64.WeightDecay = lr, wd
		p.opt64.Step(w, gd)
	}
	return nil
}

// adamFused is adam for the tower's two weights, whose gradients the
// trainer's graphs leave to sh (nn.DenseGrad.Fuse, nn.SparseGrad.Fuse:
// computed block by block inside the optimizer's step; the same
// numbers); first says which.
func adamFused(p *param, sh *gradShare, first bool, lr, wd float64) error {
	var err error
	switch w := p.t.Data().(type) {
	case []float32:
		p.opt32.LR, p.opt32.WeightDecay = lr, wd
		if first {
			err = nn.AdamStepSparse(&sh.t1, &p.opt32, w)
		} else {
			err = nn.AdamStep(&sh.t2, &p.opt32, w)
		}
	case []float64:
		p.opt64.LR, p.opt64.WeightDecay = lr, wd
		if first {
			err = nn.AdamStepSparse(&sh.t1, &p.opt64, w)
		} else {
			err = nn.AdamStep(&sh.t2, &p.opt64, w)
		}
	}
	if err != nil {
		return fmt.Errorf("model: adam: %s: %w", p.name, err)
	}
	return nil
}
