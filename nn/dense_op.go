package nn

import (
	"fmt"

	"github.com/deup-screening/deup/internal/kernels"
	"hash"

	"github.com/chewxy/hm"
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
	tA, tB bool
	buf    *tensor.Dense
	share  *DenseGrad // the weight gradient's tensor (dB of A·B), when not nil
	wgrad  *DenseGrad // passed to the dB op built by SymDiff
	constA bool       // A is a data input: no dA
}

// DenseGrad is the weight gradient of Graph.Dense (dB of A·B), a tensor
// shared by the ops of graphs that never run at the same time; its zero
// value is ready to use.
type DenseGrad struct{ t *tensor.Dense }

func (op *denseOp) Arity() int { return 2 }
func (op *denseOp) Type() hm.Type {
	t := G.TensorType{Dims: 2, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t, t)
}

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

func (op *denseOp) ReturnsPtr() bool     { return false }
func (op *denseOp) CallsExtern() bool    { return false }
func (op *denseOp) OverwritesInput() int { return -1 }
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
