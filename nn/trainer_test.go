package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTrainerOutputIsPredict checks that Trainer.Output after a Step is,
// bit for bit, MLP.Predict on the same rows before that step (no
// dropout), with the output activation, for a batch smaller than the
// compiled one; and nil before the first Step.
func TestTrainerOutputIsPredict(t *testing.T) {
	for _, act := range []Activation{Linear, Softplus} {
		m, err := NewMLP(MLPConfig{In: 6, Hidden: []int{50, 50}, Out: 3, OutAct: act, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTrainer(m, TrainConfig{Loss: MSE, Batch: 64, LR: 1e-2, ClipNorm: 5})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Output() != nil {
			t.Errorf("Output before the first Step: %v", tr.Output())
		}
		rng := rand.New(rand.NewPCG(1, uint64(act)))
		for _, n := range []int{64, 37, 64} {
			x, tg := make([]float32, n*6), make([]float32, n*3)
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			for i := range tg {
				tg[i] = float32(rng.NormFloat64())
			}
			want := m.Predict(x, n, nil)
			if _, err := tr.Step(x, tg, nil, n); err != nil {
				t.Fatal(err)
			}
			got := tr.Output()
			if len(got) != n*3 {
				t.Fatalf("act %d, n %d: Output has %d values, want %d", act, n, len(got), n*3)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("act %d, n %d: Output[%d] = %v, Predict before the step %v", act, n, i, got[i], want[i])
				}
			}
			if after := m.Predict(x, n, nil); after[0] == want[0] && after[1] == want[1] && after[2] == want[2] {
				t.Errorf("act %d, n %d: the step did not change the network", act, n)
			}
		}
		tr.Close()
		if tr.Output() != nil {
			t.Errorf("Output after Close is not nil")
		}
	}
}

// Dropout.Fill draws what Keep draws, value for value (it reads the PCG
// directly): a float32 mask from one stream equals Keep's values from a
// second stream of the same seed.
func TestDropoutFillIsKeep(t *testing.T) {
	for _, p := range []float64{0.1, 0.5, 0.9} {
		a, b := NewDropout(p, 3), NewDropout(p, 3)
		m := make([]float32, 1000)
		a.Fill(m)
		zeros := 0
		for i, v := range m {
			if w := float32(b.Keep()); math.Float32bits(v) != math.Float32bits(w) {
				t.Fatalf("p %v: mask[%d] = %v, Keep %v", p, i, v, w)
			}
			if v == 0 {
				zeros++
			}
		}
		if zeros == 0 || zeros == len(m) {
			t.Errorf("p %v: %d zeros in %d", p, zeros, len(m))
		}
	}
}
