package nn

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	"github.com/deup-screening/deup/internal/kernels"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The elementwise ops of the kit: bias add (with its column-sum
// gradient), softplus (with its sigmoid gradient) and the losses (one op
// forward, one backward). Each writes into a tensor it keeps between runs
// and computes in the input's element type.

// opBase holds the answers every op of the kit gives to gorgonia: it
// returns a fresh value (or one it owns), runs in Go and overwrites no
// input.
type opBase struct{}

func (opBase) ReturnsPtr() bool     { return false }
func (opBase) CallsExtern() bool    { return false }
func (opBase) OverwritesInput() int { return -1 }

func matType(arity int) hm.Type {
	t := G.TensorType{Dims: 2, Of: hm.TypeVariable('a')}
	ts := make([]hm.Type, arity+1)
	for i := range ts {
		ts[i] = t
	}
	return hm.NewFnType(ts...)
}

// dense2 returns the values as 2-D tensors of one element type.
func dense2(name string, vals []G.Value, n int) ([]*tensor.Dense, error) {
	if len(vals) != n {
		return nil, fmt.Errorf("nn: %s: %d inputs, want %d", name, len(vals), n)
	}
	out := make([]*tensor.Dense, n)
	for i, v := range vals {
		t, ok := v.(*tensor.Dense)
		if !ok || t.Dims() != 2 || t.Dtype() != vals[0].Dtype() {
			return nil, fmt.Errorf("nn: %s: bad input %d (%T %v)", name, i, v, v.Shape())
		}
		out[i] = t
	}
	return out, nil
}

// gradOfFirst is the SymDiff of an op of n inputs differentiable in the
// first only: the gradient op applied to args, then n−1 nils.
func gradOfFirst(n int, op G.Op, args ...*G.Node) (G.Nodes, error) {
	g, err := G.ApplyOp(op, args...)
	if err != nil {
		return nil, err
	}
	out := make(G.Nodes, n)
	out[0] = g
	return out, nil
}

// ownShaped returns *buf, (re)allocated to r×c of dtype dt.
func ownShaped(buf **tensor.Dense, r, c int, dt tensor.Dtype) *tensor.Dense {
	if *buf == nil || !(*buf).Shape().Eq(tensor.Shape{r, c}) || (*buf).Dtype() != dt {
		*buf = tensor.New(tensor.WithShape(r, c), tensor.Of(dt))
	}
	return *buf
}

// biasOp adds the 1×c row b to every row of the r×c x.
type biasOp struct {
	opBase
	buf *tensor.Dense
}

func (op *biasOp) Arity() int                                        { return 2 }
func (op *biasOp) Type() hm.Type                                     { return matType(2) }
func (op *biasOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) { return shapeOf(in, 0) }
func (op *biasOp) WriteHash(h hash.Hash)                             { fmt.Fprintf(h, "bias(%p)", op) }
func (op *biasOp) Hashcode() uint32                                  { return hashOf(op) }
func (op *biasOp) String() string                                    { return "AddBias" }
func (op *biasOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("bias", vals, 2)
	if err != nil {
		return nil, err
	}
	x, b := ts[0], ts[1]
	r, c := x.Shape()[0], x.Shape()[1]
	if !b.Shape().Eq(tensor.Shape{1, c}) {
		return nil, fmt.Errorf("nn: bias: shapes %v and %v", x.Shape(), b.Shape())
	}
	out := ownShaped(&op.buf, r, c, x.Dtype())
	switch x.Dtype() {
	case tensor.Float32:
		xd := x.Float32s()
		addRows(xd, b.Float32s(), out.Float32s(), c)
	case tensor.Float64:
		xd := x.Float64s()
		addRows(xd, b.Float64s(), out.Float64s(), c)
	}
	return out, nil
}
func (op *biasOp) DiffWRT(int) []bool { return []bool{true, true} }
func (op *biasOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	gb, err := G.ApplyOp(&colSumOp{}, grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{grad, gb}, nil
}

func addRows[T float32 | float64](x, b, out []T, c int) {
	for i := 0; i < len(x); i += c {
		kernels.Add(x[i:i+c], b, out[i:i+c])
	}
}

// colSumOp sums the rows of an r×c matrix into a 1×c row (in row order).
type colSumOp struct {
	opBase
	buf *tensor.Dense
}

func (op *colSumOp) Arity() int    { return 1 }
func (op *colSumOp) Type() hm.Type { return matType(1) }
func (op *colSumOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, err := shapeOf(in, 0)
	if err != nil {
		return nil, err
	}
	return tensor.Shape{1, s[1]}, nil
}
func (op *colSumOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "colsum(%p)", op) }
func (op *colSumOp) Hashcode() uint32      { return hashOf(op) }
func (op *colSumOp) String() string        { return "ColSum" }
func (op *colSumOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("column sum", vals, 1)
	if err != nil {
		return nil, err
	}
	x := ts[0]
	c := x.Shape()[1]
	out := ownShaped(&op.buf, 1, c, x.Dtype())
	switch x.Dtype() {
	case tensor.Float32:
		xd := x.Float32s()
		colSum(xd, out.Float32s(), c)
	case tensor.Float64:
		xd := x.Float64s()
		colSum(xd, out.Float64s(), c)
	}
	return out, nil
}

func colSum[T float32 | float64](x, out []T, c int) {
	clear(out)
	for i := 0; i < len(x); i += c {
		kernels.Add(out, x[i:i+c], out)
	}
}

// softplusOp is log(1+eˣ), computed as gorgonia's Softplus does (0 below
// −103 (float32) / −708 (float64), x above 14 / 16, log1p(exp x) in
// float64 between); its gradient op is g⊙sigmoid(x), sigmoid as gorgonia's.
type softplusOp struct {
	opBase
	buf *tensor.Dense
}

// softplusGradOp computes g ⊙ sigmoid(x) for inputs (x, g).
type softplusGradOp struct {
	opBase
	buf *tensor.Dense
}

// Softplus32 is the kit's softplus in float32.
func Softplus32(x float32) float32 {
	if x < -103 {
		return 0
	}
	if x > 14 {
		return x
	}
	return float32(math.Log1p(math.Exp(float64(x))))
}

// Softplus64 is the kit's softplus in float64.
func Softplus64(x float64) float64 {
	if x < -708 {
		return 0
	}
	if x > 16 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

func sigmoid32(x float32) float32 {
	if x < -88 {
		return 0
	}
	if x > 15 {
		return 1
	}
	return float32(1.0 / (1.0 + math.Exp(float64(-x))))
}

func sigmoid64(x float64) float64 {
	if x < -709 {
		return 0
	}
	if x > 19 {
		return 1
	}
	return 1.0 / (1.0 + math.Exp(-x))
}

func (op *softplusOp) Arity() int                                        { return 1 }
func (op *softplusOp) Type() hm.Type                                     { return matType(1) }
func (op *softplusOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) { return shapeOf(in, 0) }
func (op *softplusOp) WriteHash(h hash.Hash)                             { fmt.Fprintf(h, "softplus(%p)", op) }
func (op *softplusOp) Hashcode() uint32                                  { return hashOf(op) }
func (op *softplusOp) String() string                                    { return "Softplus" }
func (op *softplusOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("softplus", vals, 1)
	if err != nil {
		return nil, err
	}
	x := ts[0]
	out := ownBuf(&op.buf, x)
	switch x.Dtype() {
	case tensor.Float32:
		xd := x.Float32s()
		o := out.Float32s()
		for i, v := range xd {
			o[i] = Softplus32(v)
		}
	case tensor.Float64:
		xd := x.Float64s()
		o := out.Float64s()
		for i, v := range xd {
			o[i] = Softplus64(v)
		}
	}
	return out, nil
}
func (op *softplusOp) DiffWRT(int) []bool { return []bool{true} }
func (op *softplusOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return gradOfFirst(1, &softplusGradOp{}, inputs[0], grad)
}

func (op *softplusGradOp) Arity() int                                        { return 2 }
func (op *softplusGradOp) Type() hm.Type                                     { return matType(2) }
func (op *softplusGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) { return shapeOf(in, 0) }
func (op *softplusGradOp) WriteHash(h hash.Hash)                             { fmt.Fprintf(h, "softplusGrad(%p)", op) }
func (op *softplusGradOp) Hashcode() uint32                                  { return hashOf(op) }
func (op *softplusGradOp) String() string                                    { return "SoftplusGrad" }
func (op *softplusGradOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("softplus gradient", vals, 2)
	if err != nil {
		return nil, err
	}
	x, g := ts[0], ts[1]
	if !x.Shape().Eq(g.Shape()) {
		return nil, fmt.Errorf("nn: softplus gradient: shapes %v and %v", x.Shape(), g.Shape())
	}
	out := ownBuf(&op.buf, x)
	switch x.Dtype() {
	case tensor.Float32:
		xd := x.Float32s()
		o, gd := out.Float32s(), g.Float32s()
		for i, v := range xd {
			o[i] = sigmoid32(v) * gd[i]
		}
	case tensor.Float64:
		xd := x.Float64s()
		o, gd := out.Float64s(), g.Float64s()
		for i, v := range xd {
			o[i] = sigmoid64(v) * gd[i]
		}
	}
	return out, nil
}

// maskOp is x ⊙ m for a constant m (a dropout mask, a graph input); its
// gradient with respect to x is the same op on (g, m).
type maskOp struct {
	opBase
	buf *tensor.Dense
}

func (op *maskOp) Arity() int                                        { return 2 }
func (op *maskOp) Type() hm.Type                                     { return matType(2) }
func (op *maskOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) { return shapeOf(in, 0) }
func (op *maskOp) WriteHash(h hash.Hash)                             { fmt.Fprintf(h, "mask(%p)", op) }
func (op *maskOp) Hashcode() uint32                                  { return hashOf(op) }
func (op *maskOp) String() string                                    { return "Mask" }
func (op *maskOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("mask", vals, 2)
	if err != nil {
		return nil, err
	}
	x, m := ts[0], ts[1]
	if !x.Shape().Eq(m.Shape()) {
		return nil, fmt.Errorf("nn: mask: shapes %v and %v", x.Shape(), m.Shape())
	}
	out := ownBuf(&op.buf, x)
	switch x.Dtype() {
	case tensor.Float32:
		xd := x.Float32s()
		o, md := out.Float32s(), m.Float32s()
		for i, v := range xd {
			o[i] = v * md[i]
		}
	case tensor.Float64:
		xd := x.Float64s()
		o, md := out.Float64s(), m.Float64s()
		for i, v := range xd {
			o[i] = v * md[i]
		}
	}
	return out, nil
}
func (op *maskOp) DiffWRT(int) []bool { return []bool{true, false} }
func (op *maskOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return gradOfFirst(2, &maskOp{}, grad, inputs[1])
}
