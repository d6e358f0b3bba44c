package model_test

import (
	"context"
	"math"
	"syscall"
	"testing"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// BenchmarkDEUPEpochPC3 measures one DEUP training epoch on PC-3 with the
// paper's network and batch 64 (40/30/30 split): 9 in-sample steps, 9
// out-of-sample σ steps and the validation pass. Reported as s/epoch,
// excluding the first epoch (graph compilation), in wall time and in CPU
// time of the process (user+system, all threads): on a shared machine the
// wall time includes waiting for a core, the CPU time does not.
func BenchmarkDEUPEpochPC3(b *testing.B) {
	sc, d := loadPC3(b)
	split := drugcomb.SplitRandom(len(sc.Pairs), [3]float64{0.4, 0.3, 0.3}, 1)
	b.ReportAllocs()
	m := model.NewDEUP(model.Config{Seed: 1, MaxEpochs: b.N + 1, Patience: 1 << 30})
	var first, last, cpuFirst, cpuLast float64
	b.ResetTimer()
	err := m.Fit(context.Background(), d, split, func(p model.Progress) {
		if p.Epoch == 1 {
			first, cpuFirst = p.Elapsed.Seconds(), cpuSeconds()
		}
		if !p.Done {
			last, cpuLast = p.Elapsed.Seconds(), cpuSeconds()
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric((last-first)/float64(b.N), "s/epoch")
	b.ReportMetric((cpuLast-cpuFirst)/float64(b.N), "cpu-s/epoch")
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
