package nn

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	"github.com/deup-screening/deup/internal/kernels"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// reluOp is gorgonia's Rectify, x ⊙ [x ≥ 0], as one op writing into a
// tensor it keeps between runs, with the backward pass g ⊙ [x ≥ 0] as one
// op too (reluGradOp). Rectify builds a comparison node and a product,
// each with a fresh tensor every run, and its backward pass also computes
// the unused gradient of the mask. The arithmetic is Rectify's (x·1 or
// x·0, so −0 for negative x; NaN stays NaN), so the numbers are the same.
// The tower's hidden layer (batch × 2,048) uses it. Both run
// kernels.ReluMask (branch-free AVX on float32, same products).
type reluOp struct {
	opBase
	buf *tensor.Dense
}

// reluGradOp computes g ⊙ [x ≥ 0] for inputs (x, g).
type reluGradOp struct {
	opBase
	buf *tensor.Dense
}

// ownBuf returns *buf, (re)allocated to the shape and dtype of like.
func ownBuf(buf **tensor.Dense, like *tensor.Dense) *tensor.Dense {
	if *buf == nil || !(*buf).Shape().Eq(like.Shape()) || (*buf).Dtype() != like.Dtype() {
		*buf = tensor.New(tensor.WithShape(like.Shape()...), tensor.Of(like.Dtype()))
	}
	return *buf
}

func (op *reluOp) Arity() int    { return 1 }
func (op *reluOp) Type() hm.Type { return matType(1) }
func (op *reluOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return shapeOf(in, 0)
}
func (op *reluOp) Do(vals ...G.Value) (G.Value, error) {
	x, ok := vals[0].(*tensor.Dense)
	if len(vals) != 1 || !ok {
		return nil, fmt.Errorf("nn: relu: bad input")
	}
	out := ownBuf(&op.buf, x)
	switch x.Dtype() {
	case tensor.Float32:
		xd := x.Float32s()
		kernels.ReluMask(xd, xd, out.Float32s())
	case tensor.Float64:
		xd := x.Float64s()
		kernels.ReluMask(xd, xd, out.Float64s())
	default:
		return nil, fmt.Errorf("nn: relu: dtype %v", x.Dtype())
	}
	return out, nil
}
func (op *reluOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "relu(%p)", op) }
func (op *reluOp) Hashcode() uint32      { return hashOf(op) }
func (op *reluOp) String() string        { return "Relu" }
func (op *reluOp) DiffWRT(int) []bool    { return []bool{true} }
func (op *reluOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return gradOfFirst(1, &reluGradOp{}, inputs[0], grad)
}

func (op *reluGradOp) Arity() int    { return 2 }
func (op *reluGradOp) Type() hm.Type { return matType(2) }
func (op *reluGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return shapeOf(in, 0)
}
func (op *reluGradOp) Do(vals ...G.Value) (G.Value, error) {
	if len(vals) != 2 {
		return nil, fmt.Errorf("nn: relu gradient: %d inputs", len(vals))
	}
	x, ok1 := vals[0].(*tensor.Dense)
	g, ok2 := vals[1].(*tensor.Dense)
	if !ok1 || !ok2 || !x.Shape().Eq(g.Shape()) || x.Dtype() != g.Dtype() {
		return nil, fmt.Errorf("nn: relu gradient: bad inputs %v, %v", vals[0].Shape(), vals[1].Shape())
	}
	out := ownBuf(&op.buf, x)
	switch x.Dtype() {
	case tensor.Float32:
		xd := x.Float32s()
		kernels.ReluMask(xd, g.Float32s(), out.Float32s())
	case tensor.Float64:
		xd := x.Float64s()
		kernels.ReluMask(xd, g.Float64s(), out.Float64s())
	default:
		return nil, fmt.Errorf("nn: relu gradient: dtype %v", x.Dtype())
	}
	return out, nil
}
func (op *reluGradOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "reluGrad(%p)", op) }
func (op *reluGradOp) Hashcode() uint32      { return hashOf(op) }
func (op *reluGradOp) String() string        { return "ReluGrad" }

// shapeOf returns the 2-D shape of the i-th input.
func shapeOf(in []G.DimSizer, i int) (tensor.Shape, error) {
	if len(in) <= i {
		return nil, fmt.Errorf("nn: op: %d inputs", len(in))
	}
	r, err := in[i].DimSize(0)
	if err != nil {
		return nil, err
	}
	c, err := in[i].DimSize(1)
	if err != nil {
		return nil, err
	}
	return tensor.Shape{r, c}, nil
}

// hashOf hashes an op by its WriteHash.
func hashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
