package nn

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ExternalLossFunc is a scalar loss of a rows×cols matrix x (row major) computed
// outside the graph, with its gradient: it returns L(x) and writes dL/dx
// into dx (rows×cols, zeroed before the call). DUE's -ELBO/n of the
// sparse variational GP (package gp) on the extracted features is one:
// the GP computes the gradient with respect to its inputs in the same
// pass as the ELBO, and the graph back-propagates it into the network.
//
// x and dx are valid only during the call. An error aborts the graph's run
// and is returned by it (wrapped by gorgonia so that errors.Is does not
// see it; the loss keeps the original).
type ExternalLossFunc func(x []float64, rows, cols int, dx []float64) (float64, error)

// extLoss is the state shared by an external-loss op and its gradient op:
// the forward run stores dL/dx, the backward run scales it by the
// incoming gradient (1 for the cost itself).
type extLoss struct {
	fn         ExternalLossFunc
	rows, cols int
	x, dx      []float64
	value      float64
	err        error // the function's error of the last run (gorgonia's wrapping hides it from errors.Is)
}

type extLossOp struct {
	opBase
	st *extLoss
}

type extLossGradOp struct {
	opBase
	st  *extLoss
	buf *tensor.Dense
}

// externalLoss returns the scalar node L(x) for the matrix node x.
func externalLoss(x *G.Node, fn ExternalLossFunc) (*G.Node, *extLoss, error) {
	s := x.Shape()
	if len(s) != 2 {
		return nil, nil, fmt.Errorf("nn: external loss of shape %v, want a matrix", s)
	}
	st := &extLoss{fn: fn, rows: s[0], cols: s[1], x: make([]float64, s[0]*s[1]), dx: make([]float64, s[0]*s[1])}
	n, err := G.ApplyOp(&extLossOp{st: st}, x)
	if err != nil {
		return nil, nil, err
	}
	return n, st, nil
}

func (op *extLossOp) Arity() int { return 1 }
func (op *extLossOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, a)
}
func (op *extLossOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.ScalarShape(), nil
}
func (op *extLossOp) Do(vals ...G.Value) (G.Value, error) {
	st := op.st
	x, ok := vals[0].(*tensor.Dense)
	if len(vals) != 1 || !ok || !x.Shape().Eq(tensor.Shape{st.rows, st.cols}) {
		return nil, fmt.Errorf("nn: external loss: bad input %v", vals[0].Shape())
	}
	switch xd := x.Data().(type) {
	case []float32:
		for i, v := range xd {
			st.x[i] = float64(v)
		}
	case []float64:
		copy(st.x, xd)
	default:
		return nil, fmt.Errorf("nn: external loss: dtype %v", x.Dtype())
	}
	clear(st.dx)
	v, err := st.fn(st.x, st.rows, st.cols, st.dx)
	st.err = err
	if err != nil {
		return nil, err
	}
	st.value = v
	if x.Dtype() == tensor.Float32 {
		return G.NewF32(float32(v)), nil
	}
	return G.NewF64(v), nil
}
func (op *extLossOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "extLoss(%p)", op.st) }
func (op *extLossOp) Hashcode() uint32      { return spectralHash(op) }
func (op *extLossOp) String() string        { return "ExternalLoss" }
func (op *extLossOp) DiffWRT(int) []bool    { return []bool{true} }
func (op *extLossOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return gradOfFirst(1, &extLossGradOp{st: op.st}, grad)
}

func (op *extLossGradOp) Arity() int { return 1 }
func (op *extLossGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(a, G.TensorType{Dims: 2, Of: a})
}
func (op *extLossGradOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.st.rows, op.st.cols}, nil
}
func (op *extLossGradOp) Do(vals ...G.Value) (G.Value, error) {
	if len(vals) != 1 {
		return nil, fmt.Errorf("nn: external loss gradient: %d inputs", len(vals))
	}
	st := op.st
	var dt tensor.Dtype
	var g float64
	switch v := vals[0].Data().(type) {
	case float32:
		dt, g = tensor.Float32, float64(v)
	case float64:
		dt, g = tensor.Float64, v
	default:
		return nil, fmt.Errorf("nn: external loss gradient: incoming gradient %T", v)
	}
	if op.buf == nil || op.buf.Dtype() != dt {
		op.buf = tensor.New(tensor.WithShape(st.rows, st.cols), tensor.Of(dt))
	}
	switch d := op.buf.Data().(type) {
	case []float32:
		for i, v := range st.dx {
			d[i] = float32(g * v)
		}
	case []float64:
		for i, v := range st.dx {
			d[i] = g * v
		}
	}
	return op.buf, nil
}
func (op *extLossGradOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "extLossGrad(%p)", op.st) }
func (op *extLossGradOp) Hashcode() uint32      { return spectralHash(op) }
func (op *extLossGradOp) String() string        { return "ExternalLossGrad" }
