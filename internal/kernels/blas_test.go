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
func BenchmarkTowerGEMM(b *testing.B) {
	const u, hid, out = 64, 2048, 1024
	rng := rand.New(rand.NewPCG(1, 2))
	h1, w2, g := randF32(rng, u*hid), randF32(rng, hid*out), randF32(rng, u*out)
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
	for _, c := range []struct {
		name    string
		tA, tB  blas.Transpose
		m, n, k int
		a       []float32
		lda     int
		bm      []float32
		ldb     int
	}{
		{"forward", blas.NoTrans, blas.NoTrans, u, out, hid, h1, hid, w2, out},
		{"weightgrad", blas.Trans, blas.NoTrans, hid, out, u, h1, hid, g, out},
		{"inputgrad", blas.NoTrans, blas.Trans, u, hid, out, g, out, w2, out},
	} {
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
	const u, hid, out = 64, 2048, 1024
	rng := rand.New(rand.NewPCG(1, 2))
	h1, w2, g := randF32(rng, u*hid), randF32(rng, hid*out), randF32(rng, u*out)
	evict := make([]float32, 16<<20)
	for _, c := range []struct {
		name    string
		tA, tB  blas.Transpose
		m, n, k int
		a       []float32
		lda     int
		bm      []float32
		ldb     int
	}{
		{"forward", blas.NoTrans, blas.NoTrans, u, out, hid, h1, hid, w2, out},
		{"weightgrad", blas.Trans, blas.NoTrans, hid, out, u, h1, hid, g, out},
		{"inputgrad", blas.NoTrans, blas.Trans, u, hid, out, g, out, w2, out},
	} {
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
