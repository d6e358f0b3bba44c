package nn

import (
	"fmt"

	"hash"
	"slices"

	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/nn/optim"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// SparseBatch is the input rows of one batch (CSR, rows beyond the
// filled ones are empty padding), e.g. the feature rows of the unique
// drugs of a batch. The gorgonia ops of Graph.SparseMul read it when the
// machine runs, so one graph serves every batch of the same padded size:
// the trainer refills it before each run.
//
// fill also builds the column view: the distinct stored columns in
// increasing order (cols), and for each the entries (row, value) in
// increasing row order (colPtr, entRow, entVal), which the weight gradient
// walks: each gradient row is written once, from all its terms.
type SparseBatch struct {
	rows   int
	rowPtr []int
	col    []int32
	val    []float32

	cols   []int32
	colPtr []int
	entRow []int32
	entVal []float32
	count  []int // scratch: entries per column, len = feature dimension
}

// NewSparseBatch returns an empty batch of the given number of rows.
func NewSparseBatch(rows int) *SparseBatch { return &SparseBatch{rows: rows} }

// Rows is the number of rows of the batch (filled and padding).
func (b *SparseBatch) Rows() int { return b.rows }

// Fill loads the rows rows of f (at most b.Rows() of them, in order),
// padding to b.Rows() with empty rows.
func (b *SparseBatch) Fill(f *CSR, rows []int) {
	if len(rows) > b.rows {
		panic("nn: SparseBatch.Fill: more rows than the batch holds")
	}
	b.rowPtr = append(b.rowPtr[:0], 0)
	b.col, b.val = b.col[:0], b.val[:0]
	for _, d := range rows {
		lo, hi := f.RowPtr[d], f.RowPtr[d+1]
		b.col = append(b.col, f.Col[lo:hi]...)
		b.val = append(b.val, f.Val[lo:hi]...)
		b.rowPtr = append(b.rowPtr, len(b.col))
	}
	for len(b.rowPtr) < b.rows+1 {
		b.rowPtr = append(b.rowPtr, len(b.col))
	}
	b.buildColumns(f.Dim)
}

// buildColumns computes the column view from the CSR rows (counting sort).
func (b *SparseBatch) buildColumns(dim int) {
	if len(b.count) != dim {
		b.count = make([]int, dim)
	}
	cnt := b.count
	b.cols = b.cols[:0]
	for _, c := range b.col {
		if cnt[c] == 0 {
			b.cols = append(b.cols, c)
		}
		cnt[c]++
	}
	slices.Sort(b.cols)
	b.colPtr = append(b.colPtr[:0], 0)
	for _, c := range b.cols {
		n := cnt[c]
		cnt[c] = b.colPtr[len(b.colPtr)-1] // next free slot of column c
		b.colPtr = append(b.colPtr, cnt[c]+n)
	}
	nnz := len(b.col)
	b.entRow = slices.Grow(b.entRow[:0], nnz)[:nnz]
	b.entVal = slices.Grow(b.entVal[:0], nnz)[:nnz]
	for r := 0; r < b.rows; r++ {
		for k := b.rowPtr[r]; k < b.rowPtr[r+1]; k++ {
			c := b.col[k]
			b.entRow[cnt[c]], b.entVal[cnt[c]] = int32(r), b.val[k]
			cnt[c]++
		}
	}
	for _, c := range b.cols {
		cnt[c] = 0
	}
}

// mulByColumn computes dst[:, lo:hi] = X·W[:, lo:hi] column by column:
// it clears those columns of every row, then for each stored column c of
// X (increasing) adds v·W[c, lo:hi] to the row of each entry (r, v). Each
// row's terms are thus added in increasing column order, the order of its
// CSR row, so the sums are those of kernels.Accumulate row by row bit for
// bit (mulByRow in the tests); but W's rows are read once each, in
// address order, where row by row reads them once per row of X in a
// scattered order, mostly from L3 or memory when W has just been
// updated. The tower's product (64 drugs of about 60 bits, 1,024 →
// 2,048) takes about 0.9 ms of CPU over the whole width on one goroutine
// against 2 ms row by row in 256-column chunks on two, and 1.5 ms column
// by column in two 1,024-column halves (BenchmarkSparseMul): the sparse
// forward products run on the calling goroutine.
func mulByColumn[T float32 | float64](x *SparseBatch, w, dst []T, out, lo, hi int) {
	for r := 0; r < x.rows; r++ {
		clear(dst[r*out+lo : r*out+hi])
	}
	for j, c := range x.cols {
		src := w[int(c)*out+lo : int(c)*out+hi]
		for k := x.colPtr[j]; k < x.colPtr[j+1]; k++ {
			r := int(x.entRow[k])
			kernels.AddScaled(x.entVal[k], src, dst[r*out+lo:r*out+hi])
		}
	}
}

// goneRows appends to buf the rows of stale (increasing) that are not
// stored columns of x: the rows a reused weight gradient must clear.
func goneRows(x *SparseBatch, stale, buf []int32) []int32 {
	buf = buf[:0]
	j := 0
	for _, c := range stale { // both increasing: a merge
		for j < len(x.cols) && x.cols[j] < c {
			j++
		}
		if j == len(x.cols) || x.cols[j] != c {
			buf = append(buf, c)
		}
	}
	return buf
}

// tmul computes dst[:, lo:hi] = Xᵀ·G[:, lo:hi] on the rows of dst at
// stored columns (each from its entries in increasing row order), and
// clears the rows listed in gone (see goneRows; the other rows of dst must
// already be zero). The ops call it over the whole width on the calling
// goroutine: each gradient row is then written whole (8 KB for the tower),
// in increasing row order, where 256-column chunks shared by two workers
// wrote 1 KB pieces 8 KB apart into rows that are mostly not cached (the
// optimizer read them a step ago): 1.9 → 1.2 CPU-ms for the tower's layer.
func tmul[T float32 | float64](x *SparseBatch, g, dst []T, out, lo, hi int, gone []int32) {
	for _, c := range gone {
		clear(dst[int(c)*out+lo : int(c)*out+hi])
	}
	for j, c := range x.cols {
		k0, k1 := x.colPtr[j], x.colPtr[j+1]
		kernels.Accumulate(x.entRow[k0:k1], x.entVal[k0:k1], g, out, lo, hi, dst[int(c)*out+lo:int(c)*out+hi])
	}
}

// sparseMulOp computes X·W for the sparse batch X (rows×in) and the dense
// weight W (in×out): for every stored entry (r, c, v), out[r,:] += v·W[c,:].
// Cost: nnz·out multiply-adds instead of rows·in·out.
//
// The op keeps its output tensor from run to run (Do allocates it once):
// every element is rewritten by each run.
type sparseMulOp struct {
	opBase

	x       *SparseBatch
	in, out int
	buf     *tensor.Dense
	grad    *SparseGrad // the weight gradient's tensor, shared by the graphs of one trainer; nil: its own
}

func (op *sparseMulOp) Arity() int    { return 1 }
func (op *sparseMulOp) Type() hm.Type { return matType(1) }
func (op *sparseMulOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.x.rows, op.out}, nil
}
func (op *sparseMulOp) Do(vals ...G.Value) (G.Value, error) {
	w := vals[0].(*tensor.Dense)
	if op.buf == nil || op.buf.Dtype() != w.Dtype() {
		op.buf = tensor.New(tensor.WithShape(op.x.rows, op.out), tensor.Of(w.Dtype()))
	}
	return op.UsePreallocDo(op.buf, vals...)
}
func (op *sparseMulOp) UsePreallocDo(prealloc G.Value, vals ...G.Value) (G.Value, error) {
	if len(vals) != 1 {
		return nil, fmt.Errorf("nn: sparse matmul: %d inputs", len(vals))
	}
	w, ok := vals[0].(*tensor.Dense)
	ret, ok2 := prealloc.(*tensor.Dense)
	if !ok || !ok2 || !w.Shape().Eq(tensor.Shape{op.in, op.out}) {
		return nil, fmt.Errorf("nn: sparse matmul: bad weight %v", vals[0].Shape())
	}
	x := op.x
	switch w.Dtype() {
	case tensor.Float32:
		wd := w.Float32s()
		rd := ret.Float32s()
		mulByColumn(x, wd, rd, op.out, 0, op.out)
	case tensor.Float64:
		wd := w.Float64s()
		rd := ret.Float64s()
		mulByColumn(x, wd, rd, op.out, 0, op.out)
	default:
		return nil, fmt.Errorf("nn: sparse matmul: dtype %v", w.Dtype())
	}
	return ret, nil
}
func (op *sparseMulOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "sparseMul(%p,%d,%d)", op.x, op.in, op.out)
}
func (op *sparseMulOp) Hashcode() uint32 { return hashOf(op) }
func (op *sparseMulOp) String() string   { return "SparseMul" }

// DiffWRT and SymDiff make the op differentiable for gorgonia's Grad: the
// weight gradient is Xᵀ·grad, computed by sparseTMulOp.
func (op *sparseMulOp) DiffWRT(int) []bool { return []bool{true} }
func (op *sparseMulOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	st := op.grad
	if st == nil {
		st = &SparseGrad{}
	}
	return gradOfFirst(1, &sparseTMulOp{x: op.x, in: op.in, out: op.out, st: st}, grad)
}

// sparseTMulOp computes Xᵀ·G (in×out) for G (rows×out): only the rows of
// the result at stored columns of X are non-zero. The op keeps the tensor
// it last wrote and the columns it wrote there: when it gets the same
// tensor again it rewrites those rows and clears only the rows of the
// previous batch that this batch does not set (a few hundred of the
// in = 1,024 rows), instead of clearing the whole matrix every step.
//
// That state (SparseGrad) may be shared by the ops of several graphs that
// never run at the same time (a trainer's graphs, one per batch shape):
// the in×out gradient, the largest tensor of a step, then exists once
// per trainer rather than once per graph.
type sparseTMulOp struct {
	opBase

	x       *SparseBatch
	in, out int
	st      *SparseGrad
	gone    []int32 // scratch: rows of st.stale this run clears
}

// SparseGrad is the weight gradient of Graph.SparseMul (the tensor a
// sparseTMulOp last wrote and its non-zero rows). Graphs that never run at
// the same time (a trainer's graphs, one per batch shape) may share one,
// so the in×out gradient exists once; its zero value is ready to use.
//
// After Fuse, a float32 gradient is not computed by the graph (the node
// has no value after a run, which records the batch and the output
// gradient instead) but by AdamStepSparse, a block of rows at a time,
// each block applied by the optimizer while it is in cache
// (optim.Adam.StepRows): the same numbers, without writing the gradient's
// rows and reading the whole matrix back.
type SparseGrad struct {
	last  *tensor.Dense // the tensor of the previous run
	stale []int32       // its non-zero rows (increasing)
	fused bool
	// The operands of the last run's Xᵀ·G (fused), nil after
	// AdamStepSparse: the batch (valid until it is refilled) and G.
	x   *SparseBatch
	g   []float32
	out int
}

// Fuse makes the gradient computed by AdamStepSparse instead of the
// graph (see SparseGrad); call it before the graphs using s run.
func (s *SparseGrad) Fuse() { s.fused = true }

// AdamStepSparse applies opt's update to the weight w (in×out) of
// Graph.SparseMul with the gradient of the last run: Xᵀ·G computed block
// by block when fused (rows at no stored column of X are 0, the update
// then only decays), else the gradient tensor. It returns an error when
// there is no gradient (fused: none recorded since the last step) or
// the sizes differ. The batch must not have been refilled since the run.
func AdamStepSparse[T float32 | float64](s *SparseGrad, opt *optim.Adam[T], w []T) error {
	if s.x != nil {
		x, g, out := s.x, s.g, s.out
		s.x, s.g = nil, nil
		w32, ok := any(w).([]float32)
		if !ok || len(w32)%out != 0 {
			return fmt.Errorf("nn: sparse gradient of width %d float32 for a weight of %d %T", out, len(w), w)
		}
		opt32 := any(opt).(*optim.Adam[float32])
		opt32.StepRows(w32, out, func(dst []float32, r0, r1 int) {
			// The stored columns r0 ≤ c < r1 of X, each row as tmul
			// computes it; the others are 0.
			j, _ := slices.BinarySearch(x.cols, int32(r0))
			next := r0
			for ; j < len(x.cols) && int(x.cols[j]) < r1; j++ {
				c := int(x.cols[j])
				clear(dst[(next-r0)*out : (c-r0)*out])
				k0, k1 := x.colPtr[j], x.colPtr[j+1]
				kernels.Accumulate(x.entRow[k0:k1], x.entVal[k0:k1], g, out, 0, out, dst[(c-r0)*out:(c-r0+1)*out])
				next = c + 1
			}
			clear(dst[(next-r0)*out:])
		})
		return nil
	}
	return stepGradient("sparse", s.last, opt, w)
}

func (op *sparseTMulOp) Arity() int    { return 1 }
func (op *sparseTMulOp) Type() hm.Type { return matType(1) }
func (op *sparseTMulOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.in, op.out}, nil
}
func (op *sparseTMulOp) Do(vals ...G.Value) (G.Value, error) {
	if g, ok := vals[0].(*tensor.Dense); ok && op.st.fused && g.Dtype() == tensor.Float32 {
		if !g.Shape().Eq(tensor.Shape{op.x.rows, op.out}) {
			return nil, fmt.Errorf("nn: sparse matmulᵀ: bad gradient %v", g.Shape())
		}
		// Recorded for AdamStepSparse (see SparseGrad); no value.
		op.st.x, op.st.g, op.st.out = op.x, g.Float32s(), op.out
		return nil, nil
	}
	ret := op.st.last
	if ret == nil || !ret.Shape().Eq(tensor.Shape{op.in, op.out}) || ret.Dtype() != vals[0].Dtype() {
		g := vals[0].(*tensor.Dense)
		ret = tensor.New(tensor.WithShape(op.in, op.out), tensor.Of(g.Dtype()))
	}
	return op.UsePreallocDo(ret, vals...)
}
func (op *sparseTMulOp) UsePreallocDo(prealloc G.Value, vals ...G.Value) (G.Value, error) {
	if len(vals) != 1 {
		return nil, fmt.Errorf("nn: sparse matmulᵀ: %d inputs", len(vals))
	}
	g, ok := vals[0].(*tensor.Dense)
	ret, ok2 := prealloc.(*tensor.Dense)
	if !ok || !ok2 || !g.Shape().Eq(tensor.Shape{op.x.rows, op.out}) || !ret.Shape().Eq(tensor.Shape{op.in, op.out}) || ret.Dtype() != g.Dtype() {
		return nil, fmt.Errorf("nn: sparse matmulᵀ: bad gradient %v", vals[0].Shape())
	}
	st := op.st
	if ret != st.last {
		ret.Zero()
		st.last, st.stale = ret, st.stale[:0]
	}
	x := op.x
	op.gone = goneRows(x, st.stale, op.gone)
	switch g.Dtype() {
	case tensor.Float32:
		gd := g.Float32s()
		rd := ret.Float32s()
		tmul(x, gd, rd, op.out, 0, op.out, op.gone)
	case tensor.Float64:
		gd := g.Float64s()
		rd := ret.Float64s()
		tmul(x, gd, rd, op.out, 0, op.out, op.gone)
	default:
		return nil, fmt.Errorf("nn: sparse matmulᵀ: dtype %v", g.Dtype())
	}
	st.stale = append(st.stale[:0], x.cols...)
	return ret, nil
}
func (op *sparseTMulOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "sparseTMul(%p,%d,%d)", op.x, op.in, op.out)
}
func (op *sparseTMulOp) Hashcode() uint32 { return hashOf(op) }
func (op *sparseTMulOp) String() string   { return "SparseTMul" }
