package kernels

import (
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BenchmarkTowerGEMM times the three products of the tower's second layer
// for a batch of 64 unique drugs (2,048 → 1,024), the bulk of a training
// step: forward h1·W2, weight gradient h1ᵀ·G and input gradient G·W2ᵀ,
// through the BLAS in use, pure-Go gonum and every assembly kernel this
// CPU runs, so the ratios are measured in one run. GFLOP counts 2·m·n·k.
// The tower's products at batch 64 (hidden 2,048, output 1,024).
const towerU, towerHid, towerOut = 64, 2048, 1024

// towerOperands are random h1 (u×hid), W2 (hid×out) and G (u×out).
func towerOperands() (h1, w2, g []float32) {
	rng := rand.New(rand.NewPCG(1, 2))
	return randF32(rng, towerU*towerHid), randF32(rng, towerHid*towerOut), randF32(rng, towerU*towerOut)
}

// towerGEMM is one product of a training step of the tower's second layer.
type towerGEMM struct {
	name    string
	tA, tB  blas.Transpose
	m, n, k int
	a       []float32
	lda     int
	bm      []float32
	ldb     int
}

// towerProducts: the forward product h1·W2, the weight gradient h1ᵀ·G and
// the input gradient G·W2ᵀ.
func towerProducts(h1, w2, g []float32) []towerGEMM {
	const u, hid, out = towerU, towerHid, towerOut
	return []towerGEMM{
		{"forward", blas.NoTrans, blas.NoTrans, u, out, hid, h1, hid, w2, out},
		{"weightgrad", blas.Trans, blas.NoTrans, hid, out, u, h1, hid, g, out},
		{"inputgrad", blas.NoTrans, blas.Trans, u, hid, out, g, out, w2, out},
	}
}

func BenchmarkTowerGEMM(b *testing.B) {
	h1, w2, g := towerOperands()
	impls := []struct {
		name string
		b    BLAS
	}{{Name(), impl}, {"gonum-pure-go", gonum.Implementation{}}}
	for _, k := range microKernels() {
		impls = append(impls, struct {
			name string
			b    BLAS
		}{k.name + "-kernel", fastBLAS{k: k, direct: directBlocks}})
	}
	for _, c := range towerProducts(h1, w2, g) {
		for _, impl := range impls {
			b.Run(c.name+"/"+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				dst := make([]float32, c.m*c.n)
				cpu0 := processCPU()
				for i := 0; i < b.N; i++ {
					impl.b.Sgemm(c.tA, c.tB, c.m, c.n, c.k, 1, c.a, c.lda, c.bm, c.ldb, 0, dst, c.n)
				}
				flop := 2 * float64(c.m*c.n*c.k) * float64(b.N)
				b.ReportMetric(flop/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				b.ReportMetric(flop/(processCPU()-cpu0)/1e9, "GFLOP/cpu-s")
			})
		}
	}
}

// processCPU is the process's user+system CPU time in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// BenchmarkTowerGEMMCold times BenchmarkTowerGEMM's three products
// through the BLAS in use with their operands evicted from the caches
// before each product (a 64 MB pass, as the optimizer's step over the
// whole network leaves them in training), in CPU seconds of the product
// alone.
func BenchmarkTowerGEMMCold(b *testing.B) {
	h1, w2, g := towerOperands()
	evict := make([]float32, 16<<20)
	for _, c := range towerProducts(h1, w2, g) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			dst := make([]float32, c.m*c.n)
			var cpu float64
			for i := 0; i < b.N; i++ {
				for j := range evict {
					evict[j]++
				}
				t0 := processCPU()
				impl.Sgemm(c.tA, c.tB, c.m, c.n, c.k, 1, c.a, c.lda, c.bm, c.ldb, 0, dst, c.n)
				cpu += processCPU() - t0
			}
			b.ReportMetric(2*float64(c.m*c.n*c.k)*float64(b.N)/cpu/1e9, "GFLOP/cpu-s")
		})
	}
}
