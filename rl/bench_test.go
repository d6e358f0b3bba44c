package rl

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time: the benchmarks report it
// per step (cpu-ns/op) next to the wall time, which a shared machine inflates.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchAgent fills an agent's replay with warm steps of cartpole (for
// deup-dqn past its burn-in, with a fitted KDE), then measures one agent
// step: Act, the environment step and Observe (a Q update every second
// step, for deup-dqn also the E update and the new state's density).
func benchAgent(b *testing.B, kind string, warm int, opt Options) {
	env := NewCartpole(rand.New(rand.NewPCG(1, 2)))
	ag, err := NewAgent(kind, 6, 3, 1, opt)
	if err != nil {
		b.Fatal(err)
	}
	defer ag.Close()
	s, s2 := make([]float32, 6), make([]float32, 6)
	env.Reset(s)
	step := func() {
		a := ag.Act(s)
		r, done := env.Step(a, s2)
		if err := ag.Observe(s, a, r, s2, done); err != nil {
			b.Fatal(err)
		}
		if done {
			env.Reset(s)
		} else {
			s, s2 = s2, s
		}
	}
	for i := 0; i < warm; i++ {
		step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		step()
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkStep(b *testing.B) {
	for _, kind := range []string{DQN, MCDropout, BootDQN} {
		kind := kind
		b.Run(kind, func(b *testing.B) { benchAgent(b, kind, 2000, Options{}) })
	}
	// deup-dqn past burn-in: the default KDE (500 centres) fitted at step
	// 10,000; refits are excluded by KDEEvery beyond the benchmark.
	b.Run(DEUPDQN, func(b *testing.B) {
		benchAgent(b, DEUPDQN, 10002, Options{KDEEvery: 10000})
	})
}

// BenchmarkKDERefit is one deup-dqn KDE refit on a full replay (2^16
// states): bandwidth cross-validation, the fit, and every stored state's
// log-density.
func BenchmarkKDERefit(b *testing.B) {
	ag, err := NewAgent(DEUPDQN, 6, 3, 1, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ag.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	s := make([]float32, 6)
	for ag.rep.Len() < ag.opt.Replay {
		for j := range s {
			s[j] = float32(rng.NormFloat64() * 0.3)
		}
		ag.rep.Add(s, 0, 1, 0.99, s)
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := ag.refitKDE(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}
