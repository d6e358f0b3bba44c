package nn

import (
	"math/rand/v2"
	"testing"
)

// The DQN-sized network of package rl (6→50→50→3, batch 64): one
// training step, a batched forward pass and a one-row forward pass.
func dqnNet(b *testing.B) (*MLP, []float32, []float32) {
	m, err := NewMLP(MLPConfig{In: 6, Hidden: []int{50, 50}, Out: 3, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x, tg := make([]float32, 64*6), make([]float32, 64*3)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	for i := range tg {
		tg[i] = float32(rng.NormFloat64())
	}
	return m, x, tg
}

// BenchmarkTrainerStepDQN is one Trainer.Step of the DQN network.
func BenchmarkTrainerStepDQN(b *testing.B) {
	w := make([]float32, 64*3)
	for i := 0; i < 64; i++ {
		w[i*3+i%3] = 1
	}
	m, x, tg := dqnNet(b)
	tr, err := NewTrainer(m, TrainConfig{Loss: MSE, Batch: 64, LR: 1e-3, ClipNorm: 5})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := tr.Step(x, tg, w, 64); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPredictDQN(b *testing.B) {
	m, x, _ := dqnNet(b)
	dst := make([]float32, 64*3)
	for _, n := range []int{1, 64} {
		b.Run(map[int]string{1: "1row", 64: "64rows"}[n], func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				m.Predict(x, n, dst)
			}
		})
	}
}
