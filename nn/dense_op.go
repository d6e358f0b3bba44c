package nn

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/nn/optim"
	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// denseOp is the matrix product op(A)·op(B) (op = identity or transpose)
// as a gorgonia op that writes into a tensor it owns and keeps from run to
// run. The tower's second layer uses it (with its two gradient products):
// gorgonia's own Mul gets fresh output tensors every run (TapeMachine.Reset
// drops all values), which for the 2,048×1,024 weight gradient is 8 MB
// allocated and cleared per step. It calls the same Sgemm, with the same
// arguments, as gorgonia's Mul, so the numbers are the same.
//
// With share set, the op writes into share.t instead of a tensor of its
// own: ops of graphs that never run at the same time (a trainer's graphs,
// one per batch shape) then hold one weight gradient between them.
type denseOp struct {
	opBase

	tA, tB bool
	buf    *tensor.Dense
	share  *DenseGrad // the weight gradient's tensor (dB of A·B), when not nil
	wgrad  *DenseGrad // passed to the dB op built by SymDiff
	constA bool       // A is a data input: no dA
}

// DenseGrad is the weight gradient of Graph.Dense (dB of A·B), a tensor
// shared by the ops of graphs that never run at the same time; its zero
// value is ready to use.
//
// After Fuse, a float32 gradient is not computed by the graph: the dB
// node then has no value after a run, which only records the product's
// operands (A and the output gradient, valid until the next run), and
// AdamStep computes dB a block of rows at a time, each block applied by
// the optimizer while it is in cache (optim.Adam.StepRows): the same
// numbers as the product followed by Adam.Step, without writing and
// reading the whole gradient (8 MB per step for the tower's second
// layer).
type DenseGrad struct {
	t     *tensor.Dense
	fused bool
	// The operands of the last run's dB = Aᵀ·G (fused), nil after
	// AdamStep: A is k×m, G is k×n.
	a, g    []float32
	m, n, k int
}

// Fuse makes the gradient computed by AdamStep instead of the graph (see
// DenseGrad); call it before the graphs using d run.
func (d *DenseGrad) Fuse() { d.fused = true }

// AdamStep applies opt's update to the weight w (the B of A·B) with the
// gradient of the last run: the recorded product when fused (computed
// block by block, see DenseGrad), else the gradient tensor. It returns
// an error when there is no gradient (fused: none recorded since the
// last AdamStep) or the sizes differ.
func AdamStep[T float32 | float64](d *DenseGrad, opt *optim.Adam[T], w []T) error {
	if d.a != nil {
		a, g, m, n, k := d.a, d.g, d.m, d.n, d.k
		d.a, d.g = nil, nil
		w32, ok := any(w).([]float32)
		if !ok || len(w32) != m*n {
			return fmt.Errorf("nn: dense gradient of %d×%d float32 for a weight of %d %T", m, n, len(w), w)
		}
		k = usedRows(a, g, m, n, k)
		opt32 := any(opt).(*optim.Adam[float32])
		opt32.StepRows(w32, n, func(dst []float32, r0, r1 int) {
			// Rows r0…r1 of Aᵀ·G: columns r0…r1 of A, the same
			// arithmetic per element as the whole product.
			if k == 0 {
				clear(dst)
				return
			}
			kernels.SgemmSerial(blas.Trans, blas.NoTrans, r1-r0, n, k, 1, a[r0:], m, g, n, 0, dst, n)
		})
		return nil
	}
	return stepGradient("dense", d.t, opt, w)
}

// stepGradient is the unfused step of AdamStep and AdamStepSparse: opt's
// update of w with the gradient tensor g of the last run (nil: none since
// the last step); kind names the gradient in errors.
func stepGradient[T float32 | float64](kind string, g *tensor.Dense, opt *optim.Adam[T], w []T) error {
	if g == nil {
		return fmt.Errorf("nn: %s gradient: no run since the last step", kind)
	}
	gd, ok := g.Data().([]T)
	if !ok || len(gd) != len(w) {
		return fmt.Errorf("nn: %s gradient %v for a weight of %d %T", kind, g.Shape(), len(w), w)
	}
	opt.Step(w, gd)
	return nil
}

// usedRows returns k less the trailing rows r of A (k×m) and G (k×n)
// where G's row is all zero and A's row finite (the padding rows of a
// batch): their terms A[r,i]·G[r,j] of Aᵀ·G are ±0, and adding ±0 to a
// GEMM's sum changes nothing, because the sum, started at +0 and
// rounded to nearest, is never −0 (the kit's kernels and gonum's start
// at +0). So Aᵀ·G over the first rows only is the same, bit for bit,
// with fewer multiply-adds.
func usedRows(a, g []float32, m, n, k int) int {
	for ; k > 0; k-- {
		for _, v := range g[(k-1)*n : k*n] {
			if v != 0 {
				return k
			}
		}
		for _, v := range a[(k-1)*m : k*m] {
			if v-v != 0 { // ±Inf or NaN: 0·v is NaN
				return k
			}
		}
	}
	return 0
}

func (op *denseOp) Arity() int    { return 2 }
func (op *denseOp) Type() hm.Type { return matType(2) }

// dims returns m, n, k of op(A) (m×k) · op(B) (k×n) for A (ra×ca), B (rb×cb).
func (op *denseOp) dims(ra, ca, rb, cb int) (m, n, k, kb int) {
	m, k = ra, ca
	if op.tA {
		m, k = ca, ra
	}
	kb, n = rb, cb
	if op.tB {
		kb, n = cb, rb
	}
	return m, n, k, kb
}

func (op *denseOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("nn: dense product: %d inputs", len(in))
	}
	var d [4]int
	for i, s := range in {
		for j := 0; j < 2; j++ {
			v, err := s.DimSize(j)
			if err != nil {
				return nil, err
			}
			d[2*i+j] = v
		}
	}
	m, n, k, kb := op.dims(d[0], d[1], d[2], d[3])
	if k != kb {
		return nil, fmt.Errorf("nn: dense product: inner sizes %d and %d", k, kb)
	}
	return tensor.Shape{m, n}, nil
}

func (op *denseOp) Do(vals ...G.Value) (G.Value, error) {
	if len(vals) != 2 {
		return nil, fmt.Errorf("nn: dense product: %d inputs", len(vals))
	}
	a, ok1 := vals[0].(*tensor.Dense)
	b, ok2 := vals[1].(*tensor.Dense)
	if !ok1 || !ok2 || a.Dims() != 2 || b.Dims() != 2 || a.Dtype() != b.Dtype() {
		return nil, fmt.Errorf("nn: dense product: bad inputs %v, %v", vals[0].Shape(), vals[1].Shape())
	}
	ra, ca, rb, cb := a.Shape()[0], a.Shape()[1], b.Shape()[0], b.Shape()[1]
	m, n, k, kb := op.dims(ra, ca, rb, cb)
	if k != kb {
		return nil, fmt.Errorf("nn: dense product: shapes %v and %v", a.Shape(), b.Shape())
	}
	if sh := op.share; sh != nil && sh.fused && op.tA && !op.tB && a.Dtype() == tensor.Float32 {
		// Recorded for AdamStep (see DenseGrad); no value.
		sh.a, sh.g, sh.m, sh.n, sh.k = a.Float32s(), b.Float32s(), m, n, k
		return nil, nil
	}
	buf := &op.buf
	if op.share != nil {
		buf = &op.share.t
	}
	if *buf == nil || !(*buf).Shape().Eq(tensor.Shape{m, n}) || (*buf).Dtype() != a.Dtype() {
		*buf = tensor.New(tensor.WithShape(m, n), tensor.Of(a.Dtype()))
	}
	out := *buf
	tA, tB := blas.NoTrans, blas.NoTrans
	if op.tA {
		tA = blas.Trans
	}
	if op.tB {
		tB = blas.Trans
	}
	switch a.Dtype() {
	case tensor.Float32:
		ad := a.Float32s()
		kernels.Impl().Sgemm(tA, tB, m, n, k, 1, ad, ca, b.Float32s(), cb, 0, out.Float32s(), n)
	case tensor.Float64:
		ad := a.Float64s()
		kernels.Impl().Dgemm(tA, tB, m, n, k, 1, ad, ca, b.Float64s(), cb, 0, out.Float64s(), n)
	default:
		return nil, fmt.Errorf("nn: dense product: dtype %v", a.Dtype())
	}
	return out, nil
}

func (op *denseOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "dense(%v,%v,%p)", op.tA, op.tB, op)
}
func (op *denseOp) Hashcode() uint32 { return hashOf(op) }
func (op *denseOp) String() string   { return fmt.Sprintf("Dense(%v,%v)", op.tA, op.tB) }

// DiffWRT and SymDiff make the plain product C = A·B differentiable:
// dA = G·Bᵀ and dB = Aᵀ·G, each a denseOp with its own tensor.
func (op *denseOp) DiffWRT(int) []bool { return []bool{!op.constA, true} }
func (op *denseOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if op.tA || op.tB || len(inputs) != 2 {
		return nil, fmt.Errorf("nn: dense product: only A·B is differentiable")
	}
	var ga *G.Node
	if !op.constA {
		var err error
		ga, err = G.ApplyOp(&denseOp{tB: true}, grad, inputs[1])
		if err != nil {
			return nil, err
		}
	}
	gb, err := G.ApplyOp(&denseOp{tA: true, share: op.wgrad}, inputs[0], grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{ga, gb}, nil
}
