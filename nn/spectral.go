package nn

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/chewxy/hm"
	"github.com/deup-screening/deup/internal/kernels"
	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// SpectralNorm is the state of DUE's soft spectral normalization of one
// weight matrix W (in×out, row major; van Amersfoort et al. 2021, after
// Miyato et al. 2018 and PyTorch's spectral_norm):
//
//	W_sn = W / max(1, sigma/Coeff),   sigma = u^T W v
//
// where sigma estimates the largest singular value of W by power iteration
// (u in R^in, v in R^out, kept from run to run). In training mode each
// forward run of the graph op first runs Iters power iterations
//
//	v = W^T u / |W^T u|,   u = W v / |W v|
//
// (then sigma = |W v| = u^T W v for the new u, v); in evaluation mode the
// stored u and v give sigma. Gradients flow through sigma with u and v
// held fixed, as in PyTorch: with G = dL/dW_sn and the bound active
// (sigma > Coeff),
//
//	dL/dW = (Coeff/sigma) (G - (<G, W>/sigma) u v^T),
//
// otherwise dL/dW = G. Norms are floored at 1e-12 (torch's normalize).
// Dot products accumulate in float64, in an order that does not depend
// on where the tensors sit in memory (same seed, same numbers); u and v
// are stored as float32 (they are
// saved with the parameters, so a loaded network reproduces sigma
// exactly).
//
// A SpectralNorm belongs to one parameter; it is not safe for concurrent
// use while a graph that normalizes with it runs (Sigma, Scale and the
// evaluation-mode Refresh read or write the same state).
type SpectralNorm struct {
	Coeff float64 // bound on the largest singular value; ≤ 0 disables the normalization (W_sn = W)
	Iters int     // power iterations per training-mode run; 0 means 1
	Train bool    // training mode: each run of the graph op iterates first

	In, Out int
	U, V    []float32 // power-iteration vectors, lengths In and Out

	sigma, scale float64
}

// InitIters is the number of power iterations NewSpectralNorm runs, as
// torch.nn.utils.parametrizations.spectral_norm does at initialization,
// so that the first estimate is sound.
const InitIters = 15

// NewSpectralNorm returns the normalization of the in×out weight w (row
// major) with bound coeff: u is drawn from N(0, I) with rng and
// normalized, v starts at zero, then InitIters power iterations run on w.
// With coeff ≤ 0 nothing is drawn and the normalization is the identity.
// Training mode is off. It panics if len(w) != in*out (programmer error).
func NewSpectralNorm(w []float32, in, out int, coeff float64, rng *rand.Rand) *SpectralNorm {
	if len(w) != in*out {
		panic(fmt.Sprintf("nn: NewSpectralNorm: %d weights for %d×%d", len(w), in, out))
	}
	s := &SpectralNorm{Coeff: coeff, In: in, Out: out, scale: 1}
	if coeff <= 0 {
		return s
	}
	s.U, s.V = make([]float32, in), make([]float32, out)
	u := make([]float64, in)
	for i := range u {
		u[i] = rng.NormFloat64()
	}
	snNormalize(u)
	for i, x := range u {
		s.U[i] = float32(x)
	}
	powerIterate(s, w, InitIters)
	return s
}

// PowerIterate runs n power iterations on w (In×Out) and updates sigma and
// the scale.
func (s *SpectralNorm) PowerIterate(w []float32, n int) { powerIterate(s, w, n) }

// Refresh sets sigma = u^T W v from the stored u and v (no iteration; the
// evaluation-mode estimate) and the scale.
func (s *SpectralNorm) Refresh(w []float32) { refresh(s, w) }

// Sigma is the last estimate of the largest singular value of W (0 before
// any estimate or when disabled).
func (s *SpectralNorm) Sigma() float64 { return s.sigma }

// Scale is 1/max(1, sigma/Coeff): W_sn = Scale·W (1 when disabled).
func (s *SpectralNorm) Scale() float64 {
	if s.scale == 0 {
		return 1
	}
	return s.scale
}

func (s *SpectralNorm) enabled() bool { return s.Coeff > 0 }

func (s *SpectralNorm) check(n int) {
	if n != s.In*s.Out || (s.enabled() && (len(s.U) != s.In || len(s.V) != s.Out)) {
		panic(fmt.Sprintf("nn: spectral norm: %d weights, u %d, v %d for %d×%d", n, len(s.U), len(s.V), s.In, s.Out))
	}
}

func (s *SpectralNorm) setSigma(sigma float64) {
	s.sigma, s.scale = sigma, 1
	if s.enabled() && sigma > s.Coeff {
		s.scale = s.Coeff / sigma
	}
}

// snNormalize scales x to unit norm (the norm floored at 1e-12) and returns
// the norm before flooring.
func snNormalize(x []float64) float64 {
	var ss float64
	for _, v := range x {
		ss += v * v
	}
	n := math.Sqrt(ss)
	d := max(n, 1e-12)
	for i := range x {
		x[i] /= d
	}
	return n
}

// snDot is sum_i a_i b_i in float64, in an order fixed by the length
// alone. gonum's SIMD dot kernels start at the first 16-byte boundary, so
// their sums depend on where the slices sit in memory, and two runs with
// the same seed would differ in the last bit.
func snDot(a, b []float32) float64 { return kernels.Dot4(a, b) }

// snMulT writes W^T u (out) for W in×out.
func snMulT[T float32 | float64](w []T, u []float32, dst []float64) {
	clear(dst)
	out := len(dst)
	for i, ui := range u {
		a := float64(ui)
		if a == 0 {
			continue
		}
		for j, x := range w[i*out : (i+1)*out] {
			dst[j] += a * float64(x)
		}
	}
}

// snMul writes W v (in) for W in×out.
func snMul[T float32 | float64](w []T, v []float32, dst []float64) {
	out := len(v)
	for i := range dst {
		var acc float64
		for j, x := range w[i*out : (i+1)*out] {
			acc += float64(x) * float64(v[j])
		}
		dst[i] = acc
	}
}

func powerIterate[T float32 | float64](s *SpectralNorm, w []T, n int) {
	s.check(len(w))
	if !s.enabled() {
		s.setSigma(0)
		return
	}
	if n <= 0 {
		refresh(s, w)
		return
	}
	u, v := make([]float64, s.In), make([]float64, s.Out)
	w32, fast := any(w).([]float32)
	var v32 []float32
	if fast {
		v32 = make([]float32, s.Out)
	}
	var sigma float64
	for it := 0; it < n; it++ {
		if fast {
			// gonum's Sgemv (SIMD axpy kernel: float32 sums of In terms,
			// plenty for an iteration that only needs the direction; the
			// same numbers whatever the alignment of the slices).
			kernels.Impl().Sgemv(blas.Trans, s.In, s.Out, 1, w32, s.Out, s.U, 1, 0, v32, 1)
			for j, x := range v32 {
				v[j] = float64(x)
			}
		} else {
			snMulT(w, s.U, v)
		}
		snNormalize(v)
		for j, x := range v {
			s.V[j] = float32(x)
		}
		if fast {
			for i := range u {
				u[i] = snDot(w32[i*s.Out:(i+1)*s.Out], s.V)
			}
		} else {
			snMul(w, s.V, u)
		}
		sigma = snNormalize(u)
		for i, x := range u {
			s.U[i] = float32(x)
		}
	}
	// u = Wv/|Wv|, so u^T W v = |Wv| (up to u's rounding to float32,
	// which refresh would see; the difference is below float32's
	// resolution of sigma).
	s.setSigma(sigma)
}

func refresh[T float32 | float64](s *SpectralNorm, w []T) {
	s.check(len(w))
	if !s.enabled() {
		s.setSigma(0)
		return
	}
	var sigma float64
	if w32, ok := any(w).([]float32); ok {
		// sigma = sum_i u_i (W v)_i, each row's product summed in float64.
		for i, ui := range s.U {
			sigma += float64(ui) * snDot(w32[i*s.Out:(i+1)*s.Out], s.V)
		}
	} else {
		wv := make([]float64, s.In)
		snMul(w, s.V, wv)
		for i, x := range wv {
			sigma += float64(s.U[i]) * x
		}
	}
	s.setSigma(sigma)
}

// spectralOp is the graph op W ↦ W_sn of a SpectralNorm (see there). It
// keeps its output tensor from run to run.
type spectralOp struct {
	opBase

	sn  *SpectralNorm
	buf *tensor.Dense
}

// spectralGradOp is its backward pass, (W, G) ↦ dL/dW.
type spectralGradOp struct {
	opBase

	sn  *SpectralNorm
	buf *tensor.Dense
}

// applySpectralNorm returns the node W_sn for the weight node w, whose
// shape must be sn.In×sn.Out.
func applySpectralNorm(sn *SpectralNorm, w *G.Node) (*G.Node, error) {
	if s := w.Shape(); len(s) != 2 || s[0] != sn.In || s[1] != sn.Out {
		return nil, fmt.Errorf("nn: spectral norm of %v, want %d×%d", w.Shape(), sn.In, sn.Out)
	}
	return G.ApplyOp(&spectralOp{sn: sn}, w)
}

func snBuf(buf **tensor.Dense, like *tensor.Dense) *tensor.Dense {
	if *buf == nil || !(*buf).Shape().Eq(like.Shape()) || (*buf).Dtype() != like.Dtype() {
		*buf = tensor.New(tensor.WithShape(like.Shape().Clone()...), tensor.Of(like.Dtype()))
	}
	return *buf
}

func spectralHash(op any) uint32 {
	f := fnv.New32a()
	fmt.Fprintf(f, "%T%p", op, op)
	return f.Sum32()
}

func (op *spectralOp) Arity() int    { return 1 }
func (op *spectralOp) Type() hm.Type { return matType(1) }
func (op *spectralOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.sn.In, op.sn.Out}, nil
}
func (op *spectralOp) Do(vals ...G.Value) (G.Value, error) {
	w, ok := vals[0].(*tensor.Dense)
	if len(vals) != 1 || !ok || !w.Shape().Eq(tensor.Shape{op.sn.In, op.sn.Out}) {
		return nil, fmt.Errorf("nn: spectral norm: bad input %v", vals[0].Shape())
	}
	out := snBuf(&op.buf, w)
	switch wd := w.Data().(type) {
	case []float32:
		spectralForward(op.sn, wd, out.Data().([]float32))
	case []float64:
		spectralForward(op.sn, wd, out.Data().([]float64))
	default:
		return nil, fmt.Errorf("nn: spectral norm: dtype %v", w.Dtype())
	}
	return out, nil
}

func spectralForward[T float32 | float64](s *SpectralNorm, w, out []T) {
	if s.Train {
		powerIterate(s, w, max(s.Iters, 1))
	} else {
		refresh(s, w)
	}
	if s.Scale() == 1 {
		copy(out, w)
		return
	}
	if w32, ok := any(w).([]float32); ok {
		o32 := any(out).([]float32)
		clear(o32)
		kernels.Impl().Saxpy(len(w32), float32(s.Scale()), w32, 1, o32, 1)
		return
	}
	c := T(s.Scale())
	for i, x := range w {
		out[i] = c * x
	}
}

func (op *spectralOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "spectral(%p)", op) }
func (op *spectralOp) Hashcode() uint32      { return spectralHash(op) }
func (op *spectralOp) String() string        { return "SpectralNorm" }
func (op *spectralOp) DiffWRT(int) []bool    { return []bool{true} }
func (op *spectralOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return gradOfFirst(1, &spectralGradOp{sn: op.sn}, inputs[0], grad)
}

func (op *spectralGradOp) Arity() int    { return 2 }
func (op *spectralGradOp) Type() hm.Type { return matType(2) }
func (op *spectralGradOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.sn.In, op.sn.Out}, nil
}
func (op *spectralGradOp) Do(vals ...G.Value) (G.Value, error) {
	if len(vals) != 2 {
		return nil, fmt.Errorf("nn: spectral norm gradient: %d inputs", len(vals))
	}
	w, ok1 := vals[0].(*tensor.Dense)
	g, ok2 := vals[1].(*tensor.Dense)
	want := tensor.Shape{op.sn.In, op.sn.Out}
	if !ok1 || !ok2 || !w.Shape().Eq(want) || !g.Shape().Eq(want) || w.Dtype() != g.Dtype() {
		return nil, fmt.Errorf("nn: spectral norm gradient: bad inputs %v, %v", vals[0].Shape(), vals[1].Shape())
	}
	out := snBuf(&op.buf, w)
	switch wd := w.Data().(type) {
	case []float32:
		spectralBackward(op.sn, wd, g.Data().([]float32), out.Data().([]float32))
	case []float64:
		spectralBackward(op.sn, wd, g.Data().([]float64), out.Data().([]float64))
	default:
		return nil, fmt.Errorf("nn: spectral norm gradient: dtype %v", w.Dtype())
	}
	return out, nil
}

// spectralBackward writes dL/dW given G = dL/dW_sn (see SpectralNorm).
func spectralBackward[T float32 | float64](s *SpectralNorm, w, g, out []T) {
	copy(out, g)
	snCorrect(s, out, w, nil)
}

func (op *spectralGradOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "spectralGrad(%p)", op) }
func (op *spectralGradOp) Hashcode() uint32      { return spectralHash(op) }
func (op *spectralGradOp) String() string        { return "SpectralNormGrad" }
