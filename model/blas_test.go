package model

import (
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BenchmarkTowerGEMM is the dominant product of a training step (64 drugs
// × 2048 → 1024), through the BLAS in use and through pure-Go gonum, so
// the ratio is measured in one run.
func BenchmarkTowerGEMM(b *testing.B) {
	m, k, n := 64, 2048, 1024
	rng := rand.New(rand.NewPCG(1, 2))
	a, w, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
	for i := range a {
		a[i] = rng.Float32()
	}
	for i := range w {
		w[i] = rng.Float32()
	}
	for _, impl := range []struct {
		name string
		b    blasAPI
	}{{BLAS(), blasImpl}, {"gonum-pure-go", gonum.Implementation{}}, {"avx2-kernel", fastBLAS{}}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				impl.b.Sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, w, n, 0, c, n)
			}
			b.ReportMetric(float64(2*m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			b.ReportMetric(float64(2*m*n*k)*float64(b.N)/(processCPU()-cpu0)/1e9, "GFLOP/cpu-s")
		})
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
