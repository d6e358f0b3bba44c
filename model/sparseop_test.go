package model

import (
	"fmt"
	"math"
	"testing"

	"github.com/deup-screening/deup/internal/kernels"
)

// TestGraphReuseMatchesFreshGraphs trains a float32 network for several
// steps on different batches twice: once reusing one compiled graph per
// size (as the trainer does, so the sparse weight gradient only rewrites
// and clears the rows it must), once compiling a fresh graph for every
// step. Every parameter must end bit-identical. The tower is wide enough
// (in = 300 bits, hidden 256) that the sparse ops split their work across
// two goroutines.
func TestGraphReuseMatchesFreshGraphs(t *testing.T) {
	tp := makeToy(5, 40, 300, 30, 0.2)
	for k := range tp.d.Features.Val {
		tp.d.Features.Val[k] = float32(0.5 + float64(k%5)*0.25)
	}
	cfg := Config{TowerHidden: 256, TowerOut: 64, CombHidden: 16, SigmaHidden: 8, BatchSize: 8}.withDefaults()
	batches := [][]int{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9}, {0, 10, 20, 30, 40, 50, 60, 70}, {1, 2, 3}, {11, 12, 13, 14, 15, 16}}
	kinds := []lossKind{lossNLL, lossNLLSigma, lossNLL, lossNLL, lossNLLSigma}
	run := func(fresh bool) *network {
		n := newNetwork(cfg, 300, true, 9)
		tr := newTrainer(n, tp.d, 0.1, 1.3, 9, 0)
		defer tr.close()
		for i, idx := range batches {
			if fresh {
				tr.close()
				tr.graphs = map[graphKey]*graph{}
			}
			bit := 0.0
			if kinds[i] == lossNLLSigma {
				bit = 1
			}
			if _, err := tr.step(idx, kinds[i], bit); err != nil {
				t.Fatal(err)
			}
		}
		return n
	}
	a, b := run(false), run(true)
	for i, p := range a.params {
		x, y := p.t.Data().([]float32), b.params[i].t.Data().([]float32)
		for j := range x {
			if math.Float32bits(x[j]) != math.Float32bits(y[j]) {
				t.Fatalf("%s[%d]: reused graph %v, fresh graphs %v", p.name, j, x[j], y[j])
			}
		}
	}
}

// TestSparseOpsMatchDense checks X·W and Xᵀ·G of the sparse ops against
// dense products over a sequence of batches sharing one output tensor (the
// stale-row bookkeeping), with padding rows and duplicate columns across
// rows, on both sides of the two-goroutine split.
func TestSparseOpsMatchDense(t *testing.T) {
	for _, out := range []int{5, 256} {
		t.Run(fmt.Sprint(out), func(t *testing.T) {
			tp := makeToy(7, 12, 200, 25, 0.1)
			f := tp.d.Features
			const in, rows = 200, 8
			x := &sparseBatch{rows: rows}
			w := make([]float64, in*out)
			for i := range w {
				w[i] = math.Sin(float64(i))
			}
			gw := make([]float64, in*out) // shared by every step, as the op's tensor
			var stale []int32
			for step, drugs := range [][]int{{0, 1, 2, 3, 4, 5}, {6, 7}, {8, 9, 10, 11, 0, 1, 2}, {3}, {}} {
				x.fill(f, drugs)
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
