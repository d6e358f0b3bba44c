// Package optim is the optimizer of the project's networks and models: one
// Adam (Kingma & Ba 2015) with PyTorch's coupled L2 weight decay, used by
// every trained model in the tree (the two-tower networks of model and
// model/due, the SVGP of gp, the error predictor of deup/mlp).
//
// An Adam holds the state of ONE parameter tensor (its moments and its own
// step count, for the bias correction): a model keeps one per weight
// matrix or bias, so a step that updates only some parameters (DEUP's
// out-of-sample step) leaves the others' state untouched.
//
// Update, per element (β1 = 0.9, β2 = 0.999, ε = 1e-8, t the step count):
//
//	g ← g + wd·w                       (torch.optim.Adam's weight_decay)
//	m ← β1 m + (1−β1) g,  v ← β2 v + (1−β2) g²
//	w ← w − (lr/(1−β1^t)) · m / (√v / √(1−β2^t) + ε)
//
// each operation rounded to the element type on its own (no fused
// multiply-adds), so float32's AVX path gives the scalar loop's numbers
// bit for bit (package internal/kernels). Large tensors are updated in
// chunks on GOMAXPROCS goroutines; the result does not depend on it.
package optim

import (
	"math"

	"github.com/deup-screening/deup/internal/kernels"
)

// Adam is the optimizer state of one parameter tensor; the zero value with
// LR set is ready to use. Not safe for concurrent use.
type Adam[T float32 | float64] struct {
	LR          float64 // learning rate
	WeightDecay float64 // L2 weight decay added to the gradient (0: none)

	m, v []T
	t    int
}

// NewAdam returns the state of one parameter with learning rate lr and
// weight decay wd.
func NewAdam[T float32 | float64](lr, wd float64) *Adam[T] {
	return &Adam[T]{LR: lr, WeightDecay: wd}
}

// grain is the chunk of elements one goroutine updates at a time
// (tensors smaller than this are updated on the calling goroutine).
const grain = 1 << 16

// Step applies one update to w given its gradient g (g is not modified).
// The moments are allocated, zero, on the first step after NewAdam or
// Reset. It panics if len(g) != len(w) or the length changed since the
// first step (programmer errors).
func (a *Adam[T]) Step(w, g []T) {
	if len(g) != len(w) {
		panic("optim: Adam.Step: gradient and parameter lengths differ")
	}
	if a.m == nil {
		a.m, a.v = make([]T, len(w)), make([]T, len(w))
	}
	if len(a.m) != len(w) {
		panic("optim: Adam.Step: parameter length changed")
	}
	const b1, b2 = 0.9, 0.999
	a.t++
	bc1 := 1 - math.Pow(b1, float64(a.t))
	bc2 := 1 - math.Pow(b2, float64(a.t))
	step, wd, rbc2 := a.LR/bc1, a.WeightDecay, 1/math.Sqrt(bc2)
	m, v := a.m, a.v
	switch w := any(w).(type) {
	case []float32:
		g, m, v := any(g).([]float32), any(m).([]float32), any(v).([]float32)
		if len(w) <= grain { // one chunk: no closure to allocate
			kernels.Adam32(w, g, m, v, float32(step), float32(wd), float32(rbc2))
			return
		}
		kernels.ForChunks(len(w), grain, func(_, lo, hi int) {
			kernels.Adam32(w[lo:hi], g[lo:hi], m[lo:hi], v[lo:hi], float32(step), float32(wd), float32(rbc2))
		})
	case []float64:
		g, m, v := any(g).([]float64), any(m).([]float64), any(v).([]float64)
		if len(w) <= grain {
			kernels.AdamKernel(w, g, m, v, step, wd, rbc2)
			return
		}
		kernels.ForChunks(len(w), grain, func(_, lo, hi int) {
			kernels.AdamKernel(w[lo:hi], g[lo:hi], m[lo:hi], v[lo:hi], step, wd, rbc2)
		})
	}
}

// Steps is the number of steps taken since NewAdam or Reset.
func (a *Adam[T]) Steps() int { return a.t }

// Reset forgets the moments (their memory is released) and the step
// count: a model calls it when training ends, so that a trained model
// holds only its parameters.
func (a *Adam[T]) Reset() { a.m, a.v, a.t = nil, nil, 0 }
