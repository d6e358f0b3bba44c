package model

import (
	"fmt"

	"github.com/deup-screening/deup/internal/kernels"
	"math"

	"gorgonia.org/tensor"
)

// adam applies one Adam step with L2 weight decay (PyTorch's Adam with
// weight_decay: g ← g + wd·w, then the usual bias-corrected update) to the
// parameter in place, reading the gradient tensor produced by gorgonia.
//
// Why not gorgonia's AdamSolver: it clones tensors every step (2–3× slower
// than this loop on our sizes), keeps one shared step count although the
// DEUP out-of-sample step updates only some parameters, and its weight
// decay is not PyTorch's. This loop runs on the gorgonia value tensors
// directly, in chunks shared by GOMAXPROCS goroutines (kernels.ForChunks) for large
// parameters.
func adam(p *param, g *tensor.Dense, lr, wd float64) error {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	if p.m == nil {
		p.m = tensor.New(tensor.WithShape(p.rows, p.cols), tensor.Of(p.t.Dtype()))
		p.v = tensor.New(tensor.WithShape(p.rows, p.cols), tensor.Of(p.t.Dtype()))
	}
	p.step++
	bc1 := 1 - math.Pow(b1, float64(p.step))
	bc2 := 1 - math.Pow(b2, float64(p.step))
	step := lr / bc1
	switch w := p.t.Data().(type) {
	case []float32:
		gd, ok := g.Data().([]float32)
		if !ok || len(gd) != len(w) {
			return fmt.Errorf("model: adam: gradient of %s has %v, want %d float32", p.name, g.Shape(), len(w))
		}
		m, v := p.m.Data().([]float32), p.v.Data().([]float32)
		kernels.ForChunks(len(w), adamGrain, func(_, lo, hi int) {
			kernels.Adam32(w[lo:hi], gd[lo:hi], m[lo:hi], v[lo:hi], float32(step), float32(wd), float32(1/math.Sqrt(bc2)))
		})
	case []float64:
		gd, ok := g.Data().([]float64)
		if !ok || len(gd) != len(w) {
			return fmt.Errorf("model: adam: gradient of %s has %v, want %d float64", p.name, g.Shape(), len(w))
		}
		kernels.ForChunks(len(w), adamGrain, func(_, lo, hi int) {
			kernels.AdamKernel(w[lo:hi], gd[lo:hi], p.m.Data().([]float64)[lo:hi], p.v.Data().([]float64)[lo:hi], step, wd, 1/math.Sqrt(bc2))
		})
	}
	return nil
}

// adamGrain is the chunk of parameters one worker updates at a time
// (parameters smaller than this are updated on the calling goroutine).
const adamGrain = 1 << 16
