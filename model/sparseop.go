package model

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// sparseBatch is the feature rows of the unique drugs of one batch (CSR,
// rows beyond the real drugs are empty padding). The gorgonia ops below
// read it when the machine runs, so one graph serves every batch of the
// same padded size: the trainer refills it before each run.
type sparseBatch struct {
	rows   int
	rowPtr []int
	col    []int32
	val    []float32
}

// fill loads the given feature rows, padding to b.rows with empty rows.
func (b *sparseBatch) fill(f *Features, drugs []int) {
	b.rowPtr = append(b.rowPtr[:0], 0)
	b.col, b.val = b.col[:0], b.val[:0]
	for _, d := range drugs {
		lo, hi := f.RowPtr[d], f.RowPtr[d+1]
		b.col = append(b.col, f.Col[lo:hi]...)
		b.val = append(b.val, f.Val[lo:hi]...)
		b.rowPtr = append(b.rowPtr, len(b.col))
	}
	for len(b.rowPtr) < b.rows+1 {
		b.rowPtr = append(b.rowPtr, len(b.col))
	}
}

// sparseMulOp computes X·W for the sparse batch X (rows×in) and the dense
// weight W (in×out): for every stored entry (r, c, v), out[r,:] += v·W[c,:].
// Cost: nnz·out multiply-adds instead of rows·in·out.
type sparseMulOp struct {
	x       *sparseBatch
	in, out int
}

func (op *sparseMulOp) Arity() int { return 1 }
func (op *sparseMulOp) Type() hm.Type {
	t := G.TensorType{Dims: 2, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t)
}
func (op *sparseMulOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.x.rows, op.out}, nil
}
func (op *sparseMulOp) Do(vals ...G.Value) (G.Value, error) {
	w := vals[0].(*tensor.Dense)
	ret := tensor.New(tensor.WithShape(op.x.rows, op.out), tensor.Of(w.Dtype()))
	return op.UsePreallocDo(ret, vals...)
}
func (op *sparseMulOp) UsePreallocDo(prealloc G.Value, vals ...G.Value) (G.Value, error) {
	if len(vals) != 1 {
		return nil, fmt.Errorf("model: sparse matmul: %d inputs", len(vals))
	}
	w, ok := vals[0].(*tensor.Dense)
	ret, ok2 := prealloc.(*tensor.Dense)
	if !ok || !ok2 || !w.Shape().Eq(tensor.Shape{op.in, op.out}) {
		return nil, fmt.Errorf("model: sparse matmul: bad weight %v", vals[0].Shape())
	}
	x := op.x
	switch wd := w.Data().(type) {
	case []float32:
		rd := ret.Data().([]float32)
		clear(rd)
		for r := 0; r < x.rows; r++ {
			dst := rd[r*op.out : (r+1)*op.out]
			for k := x.rowPtr[r]; k < x.rowPtr[r+1]; k++ {
				c := int(x.col[k])
				blasImpl.Saxpy(op.out, x.val[k], wd[c*op.out:(c+1)*op.out], 1, dst, 1)
			}
		}
	case []float64:
		rd := ret.Data().([]float64)
		clear(rd)
		for r := 0; r < x.rows; r++ {
			dst := rd[r*op.out : (r+1)*op.out]
			for k := x.rowPtr[r]; k < x.rowPtr[r+1]; k++ {
				c := int(x.col[k])
				blasImpl.Daxpy(op.out, float64(x.val[k]), wd[c*op.out:(c+1)*op.out], 1, dst, 1)
			}
		}
	default:
		return nil, fmt.Errorf("model: sparse matmul: dtype %v", w.Dtype())
	}
	return ret, nil
}
func (op *sparseMulOp) ReturnsPtr() bool     { return false }
func (op *sparseMulOp) CallsExtern() bool    { return false }
func (op *sparseMulOp) OverwritesInput() int { return -1 }
func (op *sparseMulOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "sparseMul(%p,%d,%d)", op.x, op.in, op.out)
}
func (op *sparseMulOp) Hashcode() uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
func (op *sparseMulOp) String() string { return "SparseMul" }

// DiffWRT and SymDiff make the op differentiable for gorgonia's Grad: the
// weight gradient is Xᵀ·grad, computed by sparseTMulOp.
func (op *sparseMulOp) DiffWRT(int) []bool { return []bool{true} }
func (op *sparseMulOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	gw, err := G.ApplyOp(&sparseTMulOp{x: op.x, in: op.in, out: op.out}, grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{gw}, nil
}

// sparseTMulOp computes Xᵀ·G (in×out) for G (rows×out): only the rows of
// the result at stored columns of X are non-zero; the rest are cleared.
type sparseTMulOp struct {
	x       *sparseBatch
	in, out int
}

func (op *sparseTMulOp) Arity() int { return 1 }
func (op *sparseTMulOp) Type() hm.Type {
	t := G.TensorType{Dims: 2, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t)
}
func (op *sparseTMulOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.in, op.out}, nil
}
func (op *sparseTMulOp) Do(vals ...G.Value) (G.Value, error) {
	g := vals[0].(*tensor.Dense)
	ret := tensor.New(tensor.WithShape(op.in, op.out), tensor.Of(g.Dtype()))
	return op.UsePreallocDo(ret, vals...)
}
func (op *sparseTMulOp) UsePreallocDo(prealloc G.Value, vals ...G.Value) (G.Value, error) {
	if len(vals) != 1 {
		return nil, fmt.Errorf("model: sparse matmulᵀ: %d inputs", len(vals))
	}
	g, ok := vals[0].(*tensor.Dense)
	ret, ok2 := prealloc.(*tensor.Dense)
	if !ok || !ok2 || !g.Shape().Eq(tensor.Shape{op.x.rows, op.out}) {
		return nil, fmt.Errorf("model: sparse matmulᵀ: bad gradient %v", vals[0].Shape())
	}
	x := op.x
	switch gd := g.Data().(type) {
	case []float32:
		rd := ret.Data().([]float32)
		clear(rd)
		for r := 0; r < x.rows; r++ {
			src := gd[r*op.out : (r+1)*op.out]
			for k := x.rowPtr[r]; k < x.rowPtr[r+1]; k++ {
				c := int(x.col[k])
				blasImpl.Saxpy(op.out, x.val[k], src, 1, rd[c*op.out:(c+1)*op.out], 1)
			}
		}
	case []float64:
		rd := ret.Data().([]float64)
		clear(rd)
		for r := 0; r < x.rows; r++ {
			src := gd[r*op.out : (r+1)*op.out]
			for k := x.rowPtr[r]; k < x.rowPtr[r+1]; k++ {
				c := int(x.col[k])
				blasImpl.Daxpy(op.out, float64(x.val[k]), src, 1, rd[c*op.out:(c+1)*op.out], 1)
			}
		}
	default:
		return nil, fmt.Errorf("model: sparse matmulᵀ: dtype %v", g.Dtype())
	}
	return ret, nil
}
func (op *sparseTMulOp) ReturnsPtr() bool     { return false }
func (op *sparseTMulOp) CallsExtern() bool    { return false }
func (op *sparseTMulOp) OverwritesInput() int { return -1 }
func (op *sparseTMulOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "sparseTMul(%p,%d,%d)", op.x, op.in, op.out)
}
func (op *sparseTMulOp) Hashcode() uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
func (op *sparseTMulOp) String() string { return "SparseTMul" }
