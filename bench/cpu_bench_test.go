//go:build unix

package bench

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/deup-screening/deup/model"
)

// cpuTime is the process's CPU time so far (user + system, all threads).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRunCPU runs the same small benchmark (deup and a two-member
// ensemble on two seeds: six trainings, two at a time, on networks wide
// enough that their products are shared among goroutines) and reports the
// CPU-seconds per training besides the wall time. With the process's one
// worker budget the CPU-seconds stay flat as cores grow:
//
//	go test ./bench -run '^$' -bench RunCPU -cpu 1,2 -benchtime 2x
func BenchmarkRunCPU(b *testing.B) {
	_, d := synthDataset(b)
	cfg := smallConfig(DEUP, Ensemble)
	cfg.Model = model.Config{TowerHidden: 512, TowerOut: 256, CombHidden: 64, SigmaHidden: 64, MaxEpochs: 8, Patience: 8, LR: 1e-3}
	cfg.ExtraPasses = -1
	cfg.Workers = 2
	const trainings = 2 * (1 + 2) // seeds × (deup + members)
	b.ReportAllocs()
	b.ResetTimer()
	c0, t0 := cpuTime(b), time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), d, nil, cfg, nil); err != nil {
			b.Fatal(err)
		}
	}
	cpu, wall := cpuTime(b)-c0, time.Since(t0)
	b.ReportMetric(cpu.Seconds()/float64(b.N*trainings), "cpu-s/training")
	b.ReportMetric(cpu.Seconds()/wall.Seconds(), "cores-busy")
}
