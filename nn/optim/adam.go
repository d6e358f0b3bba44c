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
// StepRows takes the gradient a block of rows at a time from a function
// (a layer's weight-gradient product computed block by block and used
// while it is in cache): the same update.
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
	// rowBuf holds StepRows' gradient blocks, one per worker.
	rowBuf [][]T
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
	step, wd, rbc2 := a.begin(len(w))
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

// begin counts a step of a parameter of n elements (allocating the
// moments on the first) and returns the step's constants: lr/(1−β1^t),
// the weight decay and 1/√(1−β2^t).
func (a *Adam[T]) begin(n int) (step, wd, rbc2 float64) {
	if a.m == nil {
		a.m, a.v = make([]T, n), make([]T, n)
	}
	if len(a.m) != n {
		panic("optim: Adam.Step: parameter length changed")
	}
	const b1, b2 = 0.9, 0.999
	a.t++
	bc1 := 1 - math.Pow(b1, float64(a.t))
	bc2 := 1 - math.Pow(b2, float64(a.t))
	return a.LR / bc1, a.WeightDecay, 1 / math.Sqrt(bc2)
}

// rowBlock is the number of elements of one StepRows block (128 KiB of
// float32 gradient: it stays in L2 between its product and its update).
const rowBlock = 1 << 15

// StepRows is Step for a parameter of len(w)/cols rows of cols elements
// (row-major) whose gradient is never stored whole: grad(g, r0, r1)
// writes the gradient of rows r0…r1 into g ((r1−r0)·cols elements), and
// those rows are updated right after, while g is in cache. A layer's
// weight gradient, a matrix product, is so computed a block of rows at a
// time and never written to memory (the tower's 8 MB dW2 each step). The
// update is Step's with the full gradient, element for element, bit for
// bit (tested). Blocks are shared among GOMAXPROCS goroutines, so grad
// runs concurrently on disjoint rows and buffers and must not share its
// own work among goroutines (see kernels.SgemmSerial). g is valid only
// during the call. It panics if cols does not divide len(w) or the
// length changed since the first step (programmer errors).
func (a *Adam[T]) StepRows(w []T, cols int, grad func(g []T, r0, r1 int)) {
	if cols <= 0 || len(w)%cols != 0 {
		panic("optim: Adam.StepRows: parameter length not a multiple of the row length")
	}
	rows := len(w) / cols
	step, wd, rbc2 := a.begin(len(w))
	m, v := a.m, a.v
	per := max(1, rowBlock/cols)
	if per >= 8 {
		per &^= 7 // whole 8-row tiles of a product
	}
	nw := kernels.Workers()
	for len(a.rowBuf) < nw {
		a.rowBuf = append(a.rowBuf, nil)
	}
	bufs := a.rowBuf
	kernels.ForChunks(rows, per, func(worker, r0, r1 int) {
		var g []T
		if worker < len(bufs) {
			if len(bufs[worker]) < per*cols {
				bufs[worker] = make([]T, per*cols)
			}
			g = bufs[worker][:(r1-r0)*cols]
		} else { // GOMAXPROCS raised meanwhile
			g = make([]T, (r1-r0)*cols)
		}
		grad(g, r0, r1)
		lo, hi := r0*cols, r1*cols
		switch w := any(w[lo:hi]).(type) {
		case []float32:
			g, m, v := any(g).([]float32), any(m[lo:hi]).([]float32), any(v[lo:hi]).([]float32)
			kernels.Adam32(w, g, m, v, float32(step), float32(wd), float32(rbc2))
		case []float64:
			g, m, v := any(g).([]float64), any(m[lo:hi]).([]float64), any(v[lo:hi]).([]float64)
			kernels.AdamKernel(w, g, m, v, step, wd, rbc2)
		}
	})
}

// Steps is the number of steps taken since NewAdam or Reset.
func (a *Adam[T]) Steps() int { return a.t }

// Reset forgets the moments (their memory is released) and the step
// count: a model calls it when training ends, so that a trained model
// holds only its parameters.
func (a *Adam[T]) Reset() { a.m, a.v, a.t, a.rowBuf = nil, nil, 0, nil }
