package optim_test

import (
	"math"
	"syscall"
	"testing"
	"time"

	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/nn/optim"
	"gonum.org/v1/gonum/blas"
)

// BenchmarkTowerGradAdam times the tower's second layer's weight update
// at the paper's sizes (W2 2,048×1,024, 56 drugs in the batch, as on the
// synthetic default): "whole" computes dW2 = h1ᵀ·G into an 8 MB tensor
// and then steps Adam over it (the trainer before), "rows" steps with
// StepRows, each 32-row block of dW2 computed just before its update.
// The caches are cleared by a 64 MB pass before each step (as the rest
// of a training step leaves them); cpu-ms/op is the CPU time of the step
// alone.
func BenchmarkTowerGradAdam(b *testing.B) {
	const u, hid, out = 56, 2048, 1024
	h1, g := make([]float32, u*hid), make([]float32, u*out)
	for i := range h1 {
		h1[i] = float32(max(0, math.Sin(float64(i))))
	}
	for i := range g {
		g[i] = float32(math.Cos(float64(i))) * 1e-3
	}
	evict := make([]float32, 16<<20)
	for _, fused := range []bool{false, true} {
		name := "whole"
		if fused {
			name = "rows"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			w, dw := make([]float32, hid*out), make([]float32, hid*out)
			opt := optim.NewAdam[float32](1e-4, 1e-5)
			step := func() {
				if fused {
					opt.StepRows(w, out, func(dst []float32, r0, r1 int) {
						kernels.SgemmSerial(blas.Trans, blas.NoTrans, r1-r0, out, u, 1, h1[r0:], hid, g, out, 0, dst, out)
					})
				} else {
					kernels.Impl().Sgemm(blas.Trans, blas.NoTrans, hid, out, u, 1, h1, hid, g, out, 0, dw, out)
					opt.Step(w, dw)
				}
			}
			step() // allocates the moments
			b.ResetTimer()
			var cpu float64
			for i := 0; i < b.N; i++ {
				for j := range evict {
					evict[j]++
				}
				c0 := processCPU()
				step()
				cpu += processCPU() - c0
			}
			b.ReportMetric(cpu/float64(b.N)*1e3, "cpu-ms/op")
		})
	}
}

func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
