package due

import (
	"github.com/deup-screening/deup/nn/optim"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// layer is a fully connected layer y = x W_sn + b with W (in×out, row
// major) under DUE's soft spectral normalization:
//
//	W_sn = W / max(1, sigma / coeff)
//
// where sigma = u^T W v estimates the largest singular value of W by power
// iteration (u in R^in, v in R^out, kept between steps as in PyTorch's
// spectral_norm). With coeff <= 0 the layer is not normalized.
type layer struct {
	in, out int
	w, b    []float64
	gw, gb  []float64 // gradients with respect to w and b (allocated by zeroGrad; nil when not training)

	coeff float64
	u, v  []float64
	sigma float64 // sigma of the current forward pass
	scale float64 // 1 / max(1, sigma/coeff)

	// Adam state of w and b (package nn/optim); nil when not training.
	optW, optB *optim.Adam[float64]
}

func newLayer(in, out int, coeff float64, rng *rand.Rand) *layer {
	l := &layer{in: in, out: out, coeff: coeff,
		w: make([]float64, in*out), b: make([]float64, out),
		scale: 1}
	// PyTorch nn.Linear's default: weights and biases U(-1/sqrt(in), 1/sqrt(in)).
	bound := 1 / math.Sqrt(float64(in))
	for i := range l.w {
		l.w[i] = (2*rng.Float64() - 1) * bound
	}
	for i := range l.b {
		l.b[i] = (2*rng.Float64() - 1) * bound
	}
	if coeff > 0 {
		l.u = make([]float64, in)
		l.v = make([]float64, out)
		for i := range l.u {
			l.u[i] = rng.NormFloat64()
		}
		normalize(l.u)
		// As torch.nn.utils.parametrizations.spectral_norm: 15 power
		// iterations at initialization so the first estimate is sound.
		l.powerIterate(15)
	}
	return l
}

// powerIterate runs n power iterations v = W^T u / |.|, u = W v / |.| and
// sets sigma = u^T W v and scale.
func (l *layer) powerIterate(n int) {
	if l.coeff <= 0 {
		l.scale = 1
		return
	}
	W := blas64.General{Rows: l.in, Cols: l.out, Stride: l.out, Data: l.w}
	for it := 0; it < n; it++ {
		blas64.Gemv(blas.Trans, 1, W, vec(l.u), 0, vec(l.v))
		normalize(l.v)
		blas64.Gemv(blas.NoTrans, 1, W, vec(l.v), 0, vec(l.u))
		normalize(l.u)
	}
	l.updateSigma()
}

// updateSigma sets sigma = u^T W v with the stored u, v (no iteration; the
// evaluation-mode estimate) and the scale.
func (l *layer) updateSigma() {
	if l.coeff <= 0 {
		l.scale = 1
		return
	}
	W := blas64.General{Rows: l.in, Cols: l.out, Stride: l.out, Data: l.w}
	wv := make([]float64, l.in)
	blas64.Gemv(blas.NoTrans, 1, W, vec(l.v), 0, vec(wv))
	l.sigma = blas64.Dot(vec(l.u), vec(wv))
	l.scale = 1
	if l.sigma > l.coeff {
		l.scale = l.coeff / l.sigma
	}
}

// forward computes Y (n×out) = scale * X W + b for X (n×in).
func (l *layer) forward(X []float64, n int, Y []float64) {
	for i := 0; i < n; i++ {
		copy(Y[i*l.out:(i+1)*l.out], l.b)
	}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, l.scale, gen(X, n, l.in), gen(l.w, l.in, l.out), 1, gen(Y, n, l.out))
}

// backward accumulates the gradients with respect to W_sn (into gw; see
// finishSN) and b, given dY (n×out) for the input X, and writes dX
// (n×in) = scale * dY W^T if dX is not nil.
func (l *layer) backward(X []float64, n int, dY, dX []float64) {
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, gen(X, n, l.in), gen(dY, n, l.out), 1, gen(l.gw, l.in, l.out))
	for i := 0; i < n; i++ {
		row := dY[i*l.out : (i+1)*l.out]
		for j, g := range row {
			l.gb[j] += g
		}
	}
	if dX != nil {
		blas64.Gemm(blas.NoTrans, blas.Trans, l.scale, gen(dY, n, l.out), gen(l.w, l.in, l.out), 0, gen(dX, n, l.in))
	}
}

// finishSN turns the accumulated gradient G with respect to W_sn into the
// gradient with respect to W. When sigma > coeff, W_sn = coeff W / sigma
// with sigma = u^T W v (u, v held fixed, as in PyTorch), so
//
//	dL/dW = (coeff/sigma) (G - (<G, W>/sigma) u v^T).
//
// Otherwise W_sn = W and dL/dW = G.
func (l *layer) finishSN() {
	if l.coeff <= 0 || l.scale == 1 {
		return
	}
	gw := blas64.General{Rows: l.in, Cols: l.out, Stride: l.out, Data: l.gw}
	inner := blas64.Dot(vec(l.gw), vec(l.w))
	blas64.Ger(-inner/l.sigma, vec(l.u), vec(l.v), gw)
	blas64.Scal(l.scale, vec(l.gw))
}

func (l *layer) zeroGrad() {
	if len(l.gw) != len(l.w) {
		l.gw, l.gb = make([]float64, len(l.w)), make([]float64, len(l.b))
	}
	clear(l.gw)
	clear(l.gb)
}

func vec(x []float64) blas64.Vector { return blas64.Vector{N: len(x), Data: x, Inc: 1} }

func gen(x []float64, r, c int) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: c, Data: x[:r*c]}
}

func normalize(x []float64) {
	n := blas64.Nrm2(vec(x))
	if n < 1e-12 {
		n = 1e-12 // torch.nn.functional.normalize's eps
	}
	blas64.Scal(1/n, vec(x))
}

// step applies Adam with L2 weight decay added to the gradient (PyTorch
// Adam's weight_decay, package nn/optim) to w and b; the optimizer state is
// created on the first step.
func (l *layer) step(lr, wd float64) {
	if l.optW == nil {
		l.optW, l.optB = optim.NewAdam[float64](lr, wd), optim.NewAdam[float64](lr, wd)
	}
	l.optW.Step(l.w, l.gw)
	l.optB.Step(l.b, l.gb)
}

// endTraining releases the gradient buffers and the optimizer state: a
// trained layer holds only its parameters (and its spectral-norm vectors).
func (l *layer) endTraining() {
	l.gw, l.gb = nil, nil
	l.optW, l.optB = nil, nil
}
