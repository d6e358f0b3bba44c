package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

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
// rows (256 and 5 columns).
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
				mulByColumn(x, w, y, out, 0, out)
				gone := goneRows(x, stale, nil)
				tmul(x, gd, gw, out, 0, out, gone)
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

// BenchmarkSparseMul times the tower's sparse first layer forward (64
// drugs of about 60 bits each, 1,024 → 2,048) row by row (mulByRow, the
// former op) and column
// by column (mulByColumn), with W evicted from the caches before each
// product (a 64 MB pass, as Adam's update of the whole network leaves
// it), in one run.
func BenchmarkSparseMul(b *testing.B) {
	const in, out, rows = 1024, 2048, 64
	f := toyCSR(rows, in, 60, 3)
	x := NewSparseBatch(rows)
	idx := make([]int, rows)
	for i := range idx {
		idx[i] = i
	}
	x.Fill(f, idx)
	rng := rand.New(rand.NewPCG(1, 1))
	w := make([]float32, in*out)
	for i := range w {
		w[i] = float32(rng.NormFloat64())
	}
	dst := make([]float32, rows*out)
	evict := make([]float32, 16<<20)
	for _, c := range []struct {
		name  string
		fn    func(x *SparseBatch, w, dst []float32, out, lo, hi int)
		chunk int
	}{{"rows", mulByRow[float32], 256}, {"columns", mulByColumn[float32], 2048}} {
		b.Run(fmt.Sprintf("%s/%d", c.name, c.chunk), func(b *testing.B) {
			b.ReportAllocs()
			var spent time.Duration
			for b.Loop() {
				for i := range evict {
					evict[i]++
				}
				t0 := processCPU()
				kernels.ForChunks(out, c.chunk, func(_, lo, hi int) { c.fn(x, w, dst, out, lo, hi) })
				spent += processCPU() - t0
			}
			b.ReportMetric(float64(spent.Microseconds())/float64(b.N), "cpu-µs/product")
		})
	}
}

// processCPU is the process's user+system CPU time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// mulByRow computes dst[:, lo:hi] = X·W[:, lo:hi] for W with `out` columns
// row by row, in 256-column blocks (each row's terms in increasing column
// order): the sparse op's former forward product, the reference that
// mulByColumn must match bit for bit.
func mulByRow[T float32 | float64](x *SparseBatch, w, dst []T, out, lo, hi int) {
	for b := lo; b < hi; b += 256 {
		e := min(b+256, hi)
		for r := 0; r < x.rows; r++ {
			k0, k1 := x.rowPtr[r], x.rowPtr[r+1]
			kernels.Accumulate(x.col[k0:k1], x.val[k0:k1], w, out, b, e, dst[r*out+b:r*out+e])
		}
	}
}

// TestMulByColumnMatchesRows: the column-ordered forward product gives
// the row-ordered sums bit for bit (float32 and float64, widths with and
// without an AVX tail, padding rows, a stale output to overwrite).
func TestMulByColumnMatchesRows(t *testing.T) {
	for _, out := range []int{5, 64, 300} {
		f := toyCSR(12, 200, 25, uint64(out))
		x := NewSparseBatch(10)
		x.Fill(f, []int{3, 0, 11, 5, 5, 7, 2})
		rng := rand.New(rand.NewPCG(2, uint64(out)))
		w32, w64 := make([]float32, 200*out), make([]float64, 200*out)
		for i := range w32 {
			w32[i] = float32(rng.NormFloat64())
			w64[i] = rng.NormFloat64()
		}
		want32, got32 := make([]float32, 10*out), make([]float32, 10*out)
		want64, got64 := make([]float64, 10*out), make([]float64, 10*out)
		for i := range got32 {
			got32[i], got64[i] = 7, 7
		}
		mulByRow(x, w32, want32, out, 0, out)
		mulByColumn(x, w32, got32, out, 0, out)
		mulByRow(x, w64, want64, out, 0, out)
		mulByColumn(x, w64, got64, out, 0, out)
		for i := range want32 {
			if math.Float32bits(got32[i]) != math.Float32bits(want32[i]) || math.Float64bits(got64[i]) != math.Float64bits(want64[i]) {
				t.Fatalf("out %d, element %d: by column %v, %v; by row %v, %v", out, i, got32[i], got64[i], want32[i], want64[i])
			}
		}
	}
}

// TestUsedRows: the trailing rows of a weight-gradient product Aᵀ·G whose
// G row is zero (±0) and whose A row is finite are dropped; a non-finite
// A row (0·Inf is NaN) or a non-zero G entry keeps its row.
func TestUsedRows(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	negz := float32(math.Copysign(0, -1))
	for _, c := range []struct {
		name string
		a, g []float32 // k×2 each
		want int
	}{
		{"no padding", []float32{1, 2, 3, 4}, []float32{1, 0, 0, 1}, 2},
		{"one zero row", []float32{1, 2, 3, 4}, []float32{1, 0, 0, negz}, 1},
		{"all zero", []float32{1, 2, 3, 4}, []float32{0, 0, 0, 0}, 0},
		{"inner zero row kept", []float32{1, 2, 3, 4, 5, 6}, []float32{0, 0, 1, 0, 0, 0}, 2},
		{"infinite A row", []float32{1, 2, 3, inf}, []float32{1, 0, 0, 0}, 2},
		{"NaN A row", []float32{1, 2, nan, 4}, []float32{1, 0, 0, 0}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := usedRows(c.a, c.g, 2, 2, len(c.a)/2); got != c.want {
				t.Errorf("usedRows = %d, want %d", got, c.want)
			}
		})
	}
}
