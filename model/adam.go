package model

import (
	"fmt"

	"github.com/deup-screening/deup/nn"
	"github.com/deup-screening/deup/nn/optim"
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
		return adamStep(p.name, &p.opt32, w, g, lr, wd)
	case []float64:
		return adamStep(p.name, &p.opt64, w, g, lr, wd)
	}
	return nil
}

// adamStep is adam on the weights w of element type T, named name.
func adamStep[T float32 | float64](name string, opt *optim.Adam[T], w []T, g *nn.Tensor, lr, wd float64) error {
	gd, ok := g.Data().([]T)
	if !ok || len(gd) != len(w) {
		return fmt.Errorf("model: adam: gradient of %s has %v, want %d %T", name, g.Shape(), len(w), T(0))
	}
	opt.LR, opt.WeightDecay = lr, wd
	opt.Step(w, gd)
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
		err = fusedStep(sh, first, &p.opt32, w, lr, wd)
	case []float64:
		err = fusedStep(sh, first, &p.opt64, w, lr, wd)
	}
	if err != nil {
		return fmt.Errorf("model: adam: %s: %w", p.name, err)
	}
	return nil
}

// fusedStep is adamFused on the weights w of element type T.
func fusedStep[T float32 | float64](sh *gradShare, first bool, opt *optim.Adam[T], w []T, lr, wd float64) error {
	opt.LR, opt.WeightDecay = lr, wd
	if first {
		return nn.AdamStepSparse(&sh.t1, opt, w)
	}
	return nn.AdamStep(&sh.t2, opt, w)
}
