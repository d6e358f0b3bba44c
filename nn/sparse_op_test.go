package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deup-screening/deup/internal/kernels"
)

// toyCSR returns rows random rows of width dim with about nnz entries each
// (values 0.5, 0.75, …, 1.5).
func toyCSR(rows, dim, nnz int, seed uint64) *CSR {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := &CSR{Dim: dim, RowPtr: []int{0}}
	for r := 0; r < rows; r++ {
		for c := 0; c < dim; c++ {
			if rng.IntN(dim) < nnz {
				s.Col = append(s.Col, int32(c))
				s.Val = append(s.Val, float32(0.5+float64(len(s.Val)%5)*0.25))
			}
		}
		s.RowPtr = append(s.RowPtr, len(s.Col))
	}
	return s
}

// TestSparseOpsMatchDense checks X·W and Xᵀ·G of the sparse ops against
// dense products over a sequence of batches sharing one output tensor (the
// stale-row bookkeeping), with padding rows and duplicate columns across
// rows, on both sides of the two-goroutine split.
func TestSparseOpsMatchDense(t *testing.T) {
	for _, out := range []int{5, 256} {
		t.Run(fmt.Sprint(out), func(t *testing.T) {
			const in, rows = 200, 8
			f := toyCSR(12, in, 25, 7)
			x := NewSparseBatch(rows)
			w := make([]float64, in*out)
			for i := range w {
				w[i] = math.Sin(float64(i))
			}
			gw := make([]float64, in*out) // shared by every step, as the op's tensor
			var stale []int32
			for step, drugs := range [][]int{{0, 1, 2, 3, 4, 5}, {6, 7}, {8, 9, 10, 11, 0, 1, 2}, {3}, {}} {
				x.Fill(f, drugs)
				gd := make([]float64, rows*out)
				for i := range gd {
					gd[i] = math.Cos(float64(i*7 + step))
				}
				dense := make([][]float64, rows)
				for r := range dense {
					dense[r] = make([]float64, in)
					if r < len(drugs) {
						dense[r] = f.Dense(drugs[r])
					}
				}
				y := make([]float64, rows*out)
				mul(x, w, y, out, 0, out)
				gone := goneRows(x, stale, nil)
				kernels.ForChunks(out, sparseChunk(out, len(x.col)), func(_, lo, hi int) { tmul(x, gd, gw, out, lo, hi, gone) })
				stale = append(stale[:0], x.cols...)
				for r := 0; r < rows; r++ {
					for j := 0; j < out; j++ {
						s := 0.0
						for c := 0; c < in; c++ {
							s += dense[r][c] * w[c*out+j]
						}
						if math.Abs(s-y[r*out+j]) > 1e-12 {
							t.Fatalf("step %d: (X·W)[%d,%d] = %v, want %v", step, r, j, y[r*out+j], s)
						}
					}
				}
				for c := 0; c < in; c++ {
					for j := 0; j < out; j++ {
						s := 0.0
						for r := 0; r < rows; r++ {
							s += dense[r][c] * gd[r*out+j]
						}
						if math.Abs(s-gw[c*out+j]) > 1e-12 {
							t.Fatalf("step %d: (Xᵀ·G)[%d,%d] = %v, want %v", step, c, j, gw[c*out+j], s)
						}
					}
				}
			}
		})
	}
}
