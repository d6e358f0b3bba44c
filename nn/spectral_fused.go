package nn

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	"github.com/deup-screening/deup/internal/kernels"
	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The fused spectrally normalized layers: Z = s·(X·W) with s = Scale()
// of the layer's SpectralNorm, which equals X·W_sn (W_sn = s·W) without
// materializing W_sn. With P = Xᵀ·dZ (the gradient with respect to W_sn)
// the weight gradient is
//
//	dL/dW = s·P − (s/sigma)·<P, W>·u vᵀ   (bound active; s·P = P otherwise)
//
// (SpectralNorm's formula), written in place in P's tensor: a layer holds
// one In×Out tensor besides W (its gradient) instead of three (W_sn, P,
// dL/dW). For the sparse first layer P is non-zero only on the rows of the
// batch's stored columns, so <P, W> costs nnz-columns·Out.

// snSparseOp is Z = s·(X·W) for the sparse batch X.
type snSparseOp struct {
	opBase

	x   *SparseBatch
	sn  *SpectralNorm
	buf *tensor.Dense
}

// snSparseGradOp is dL/dW for (W, dZ).
type snSparseGradOp struct {
	opBase

	x     *SparseBatch
	sn    *SpectralNorm
	buf   *tensor.Dense
	stale []int32 // rows of buf that are not zero (all of them after a run with the bound active)
	gone  []int32
	all   []int32
}

// snDenseOp is Z = s·(A·W) for a dense A.
type snDenseOp struct {
	opBase

	sn  *SpectralNorm
	buf *tensor.Dense
}

// snDenseGradAOp is dL/dA = s·dZ·Wᵀ for (dZ, W).
type snDenseGradAOp struct {
	opBase

	sn  *SpectralNorm
	buf *tensor.Dense
}

// snDenseGradWOp is dL/dW for (A, dZ, W).
type snDenseGradWOp struct {
	opBase

	sn  *SpectralNorm
	buf *tensor.Dense
}

func snOwn(buf **tensor.Dense, r, c int, dt tensor.Dtype) *tensor.Dense {
	if *buf == nil || !(*buf).Shape().Eq(tensor.Shape{r, c}) || (*buf).Dtype() != dt {
		*buf = tensor.New(tensor.WithShape(r, c), tensor.Of(dt))
	}
	return *buf
}

// snStep runs the layer's power iteration (training mode) or refreshes
// sigma (evaluation mode) on w.
func snStep(sn *SpectralNorm, w *tensor.Dense) error {
	switch wd := w.Data().(type) {
	case []float32:
		if sn.Train {
			powerIterate(sn, wd, max(sn.Iters, 1))
		} else {
			refresh(sn, wd)
		}
	case []float64:
		if sn.Train {
			powerIterate(sn, wd, max(sn.Iters, 1))
		} else {
			refresh(sn, wd)
		}
	default:
		return fmt.Errorf("nn: spectral norm: dtype %v", w.Dtype())
	}
	return nil
}

func snScaleRows[T float32 | float64](x []T, s float64) {
	if s == 1 {
		return
	}
	c := T(s)
	for i := range x {
		x[i] *= c
	}
}

// snCorrect turns P (in place, rows listed in rows or all rows when rows
// is nil for the inner product) into dL/dW = s·P − (s/sigma)<P, W> u vᵀ.
func snCorrect[T float32 | float64](sn *SpectralNorm, p, w []T, rows []int32) {
	s := sn.Scale()
	if s == 1 {
		return
	}
	n := sn.Out
	var inner float64
	if rows == nil {
		for i := 0; i < sn.In; i++ {
			inner += snDotT(p[i*n:(i+1)*n], w[i*n:(i+1)*n])
		}
	} else {
		for _, r := range rows {
			i := int(r)
			inner += snDotT(p[i*n:(i+1)*n], w[i*n:(i+1)*n])
		}
	}
	c := s * inner / sn.sigma
	if p32, ok := any(p).([]float32); ok {
		// The BLAS Sscal and Saxpy this was (AVX: the same products and
		// sums): Sscal zeroes for a factor 0, Saxpy does nothing.
		for i, ui := range sn.U {
			row := p32[i*n : (i+1)*n]
			if f := float32(s); f != 0 {
				kernels.Scale(f, row)
			} else {
				clear(row)
			}
			if a := float32(-c * float64(ui)); a != 0 {
				kernels.AddScaled(a, sn.V, row)
			}
		}
		return
	}
	for i, ui := range sn.U {
		a := c * float64(ui)
		row := p[i*n : (i+1)*n]
		for j, vj := range sn.V {
			row[j] = T(s*float64(row[j]) - a*float64(vj))
		}
	}
}

func snDotT[T float32 | float64](a, b []T) float64 {
	if a32, ok := any(a).([]float32); ok {
		return snDot(a32, any(b).([]float32))
	}
	b = b[:len(a)]
	var s float64
	for i, x := range a {
		s += float64(x) * float64(b[i])
	}
	return s
}

// --- sparse ---

func (op *snSparseOp) Arity() int    { return 1 }
func (op *snSparseOp) Type() hm.Type { return matType(1) }
func (op *snSparseOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.x.rows, op.sn.Out}, nil
}
func (op *snSparseOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("spectral sparse product", vals, 1)
	if err != nil {
		return nil, err
	}
	w := ts[0]
	if !w.Shape().Eq(tensor.Shape{op.sn.In, op.sn.Out}) {
		return nil, fmt.Errorf("nn: spectral sparse product: weight %v, want %d×%d", w.Shape(), op.sn.In, op.sn.Out)
	}
	if err := snStep(op.sn, w); err != nil {
		return nil, err
	}
	x, out := op.x, op.sn.Out
	ret := snOwn(&op.buf, x.rows, out, w.Dtype())
	switch wd := w.Data().(type) {
	case []float32:
		rd := ret.Data().([]float32)
		mulByColumn(x, wd, rd, out, 0, out)
		snScaleRows(rd, op.sn.Scale())
	case []float64:
		rd := ret.Data().([]float64)
		mulByColumn(x, wd, rd, out, 0, out)
		snScaleRows(rd, op.sn.Scale())
	}
	return ret, nil
}
func (op *snSparseOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "snSparse(%p)", op) }
func (op *snSparseOp) Hashcode() uint32      { return spectralHash(op) }
func (op *snSparseOp) String() string        { return "SpectralSparseMul" }
func (op *snSparseOp) DiffWRT(int) []bool    { return []bool{true} }
func (op *snSparseOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return gradOfFirst(1, &snSparseGradOp{x: op.x, sn: op.sn}, inputs[0], grad)
}

func (op *snSparseGradOp) Arity() int    { return 2 }
func (op *snSparseGradOp) Type() hm.Type { return matType(2) }
func (op *snSparseGradOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.sn.In, op.sn.Out}, nil
}
func (op *snSparseGradOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("spectral sparse product gradient", vals, 2)
	if err != nil {
		return nil, err
	}
	w, g := ts[0], ts[1]
	x, in, out := op.x, op.sn.In, op.sn.Out
	if !w.Shape().Eq(tensor.Shape{in, out}) || !g.Shape().Eq(tensor.Shape{x.rows, out}) {
		return nil, fmt.Errorf("nn: spectral sparse product gradient: shapes %v, %v", w.Shape(), g.Shape())
	}
	if op.buf == nil || op.buf.Dtype() != w.Dtype() {
		op.buf = tensor.New(tensor.WithShape(in, out), tensor.Of(w.Dtype()))
		op.stale = op.stale[:0]
	}
	ret := op.buf
	// P = Xᵀ·dZ on the stored columns' rows; the rows the last run left
	// non-zero and this batch does not set are cleared.
	op.gone = goneRows(x, op.stale, op.gone)
	switch gd := g.Data().(type) {
	case []float32:
		rd := ret.Data().([]float32)
		tmul(x, gd, rd, out, 0, out, op.gone)
		snCorrect(op.sn, rd, w.Data().([]float32), x.cols)
	case []float64:
		rd := ret.Data().([]float64)
		tmul(x, gd, rd, out, 0, out, op.gone)
		snCorrect(op.sn, rd, w.Data().([]float64), x.cols)
	}
	if op.sn.Scale() == 1 {
		op.stale = append(op.stale[:0], x.cols...)
	} else {
		if len(op.all) != in {
			op.all = make([]int32, in)
			for i := range op.all {
				op.all[i] = int32(i)
			}
		}
		op.stale = append(op.stale[:0], op.all...)
	}
	return ret, nil
}
func (op *snSparseGradOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "snSparseGrad(%p)", op) }
func (op *snSparseGradOp) Hashcode() uint32      { return spectralHash(op) }
func (op *snSparseGradOp) String() string        { return "SpectralSparseMulGrad" }

// --- dense ---

// snGemm is C = alpha·op(A)·op(B) through the kit's GEMM.
func snGemm(tA, tB bool, m, n, k int, alpha float64, a *tensor.Dense, b *tensor.Dense, c *tensor.Dense) {
	ta, tb := blas.NoTrans, blas.NoTrans
	if tA {
		ta = blas.Trans
	}
	if tB {
		tb = blas.Trans
	}
	lda, ldb := a.Shape()[1], b.Shape()[1]
	switch ad := a.Data().(type) {
	case []float32:
		kernels.Impl().Sgemm(ta, tb, m, n, k, float32(alpha), ad, lda, b.Data().([]float32), ldb, 0, c.Data().([]float32), n)
	case []float64:
		kernels.Impl().Dgemm(ta, tb, m, n, k, alpha, ad, lda, b.Data().([]float64), ldb, 0, c.Data().([]float64), n)
	}
}

func (op *snDenseOp) Arity() int    { return 2 }
func (op *snDenseOp) Type() hm.Type { return matType(2) }
func (op *snDenseOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return rowsBy("spectral linear", in, op.sn.Out)
}
func (op *snDenseOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("spectral linear", vals, 2)
	if err != nil {
		return nil, err
	}
	a, w := ts[0], ts[1]
	in, out := op.sn.In, op.sn.Out
	if a.Shape()[1] != in || !w.Shape().Eq(tensor.Shape{in, out}) {
		return nil, fmt.Errorf("nn: spectral linear: shapes %v, %v", a.Shape(), w.Shape())
	}
	if err := snStep(op.sn, w); err != nil {
		return nil, err
	}
	rows := a.Shape()[0]
	ret := snOwn(&op.buf, rows, out, a.Dtype())
	snGemm(false, false, rows, out, in, op.sn.Scale(), a, w, ret)
	return ret, nil
}
func (op *snDenseOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "snDense(%p)", op) }
func (op *snDenseOp) Hashcode() uint32      { return spectralHash(op) }
func (op *snDenseOp) String() string        { return "SpectralLinear" }
func (op *snDenseOp) DiffWRT(int) []bool    { return []bool{true, true} }
func (op *snDenseOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	ga, err := G.ApplyOp(&snDenseGradAOp{sn: op.sn}, grad, inputs[1])
	if err != nil {
		return nil, err
	}
	gw, err := G.ApplyOp(&snDenseGradWOp{sn: op.sn}, inputs[0], grad, inputs[1])
	if err != nil {
		return nil, err
	}
	return G.Nodes{ga, gw}, nil
}

func (op *snDenseGradAOp) Arity() int    { return 2 }
func (op *snDenseGradAOp) Type() hm.Type { return matType(2) }
func (op *snDenseGradAOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return rowsBy("spectral linear gradient", in, op.sn.In)
}

// rowsBy is the output shape of a product of two inputs (the op name
// names them in errors): the rows of the first by cols.
func rowsBy(name string, in []G.DimSizer, cols int) (tensor.Shape, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("nn: %s: %d inputs", name, len(in))
	}
	r, err := in[0].DimSize(0)
	if err != nil {
		return nil, err
	}
	return tensor.Shape{r, cols}, nil
}
func (op *snDenseGradAOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("spectral linear gradient", vals, 2)
	if err != nil {
		return nil, err
	}
	g, w := ts[0], ts[1]
	rows := g.Shape()[0]
	ret := snOwn(&op.buf, rows, op.sn.In, g.Dtype())
	snGemm(false, true, rows, op.sn.In, op.sn.Out, op.sn.Scale(), g, w, ret)
	return ret, nil
}
func (op *snDenseGradAOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "snDenseGradA(%p)", op) }
func (op *snDenseGradAOp) Hashcode() uint32      { return spectralHash(op) }
func (op *snDenseGradAOp) String() string        { return "SpectralLinearGradA" }

func (op *snDenseGradWOp) Arity() int    { return 3 }
func (op *snDenseGradWOp) Type() hm.Type { return matType(3) }
func (op *snDenseGradWOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.sn.In, op.sn.Out}, nil
}
func (op *snDenseGradWOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("spectral linear weight gradient", vals, 3)
	if err != nil {
		return nil, err
	}
	a, g, w := ts[0], ts[1], ts[2]
	rows := a.Shape()[0]
	ret := snOwn(&op.buf, op.sn.In, op.sn.Out, a.Dtype())
	snGemm(true, false, op.sn.In, op.sn.Out, rows, 1, a, g, ret)
	switch rd := ret.Data().(type) {
	case []float32:
		snCorrect(op.sn, rd, w.Data().([]float32), nil)
	case []float64:
		snCorrect(op.sn, rd, w.Data().([]float64), nil)
	}
	return ret, nil
}
func (op *snDenseGradWOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "snDenseGradW(%p)", op) }
func (op *snDenseGradWOp) Hashcode() uint32      { return spectralHash(op) }
func (op *snDenseGradWOp) String() string        { return "SpectralLinearGradW" }
