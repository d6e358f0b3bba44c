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

// TestTrainerMatchesGraph trains the same network with Trainer and with
// the graph of the kit's ops it replaces (graphTrainer), side by side, for
// every loss, both output activations, dropout, weight decay, clipping and
// a partial batch, and requires the same losses, outputs and parameters
// bit for bit after every step.
func TestTrainerMatchesGraph(t *testing.T) {
	for _, tc := range []struct {
		name string
		mc   MLPConfig
		tc   TrainConfig
		n    []int // rows of each step
	}{
		{"dqn", MLPConfig{In: 6, Hidden: []int{50, 50}, Out: 3}, TrainConfig{Loss: MSE, Batch: 64, LR: 1e-3, ClipNorm: 5}, []int{64, 64, 64, 64}},
		{"mse-softplus", MLPConfig{In: 1, Hidden: []int{50, 50}, Out: 3, OutAct: Softplus}, TrainConfig{Loss: MSE, Batch: 64, LR: 1e-2, ClipNorm: 5}, []int{64, 64, 64}},
		{"dropout", MLPConfig{In: 6, Hidden: []int{50, 50}, Out: 3, Dropout: 0.1}, TrainConfig{Loss: MSE, Batch: 64, LR: 1e-3, ClipNorm: 5, Seed: 9}, []int{64, 64, 64}},
		{"partial-batch-decay", MLPConfig{In: 5, Hidden: []int{17}, Out: 1, Dropout: 0.3}, TrainConfig{Loss: MSE, Batch: 32, LR: 1e-2, WeightDecay: 1e-2, Seed: 3}, []int{32, 7, 32, 1}},
		{"no-hidden", MLPConfig{In: 4, Out: 2}, TrainConfig{Loss: MSE, Batch: 8, LR: 1e-2}, []int{8, 5}},
		{"gaussian-nll", MLPConfig{In: 5, Hidden: []int{20, 10}, Out: 2}, TrainConfig{Loss: GaussianNLL, Batch: 16, LR: 1e-2, ClipNorm: 1}, []int{16, 9, 16}},
		{"cross-entropy", MLPConfig{In: 5, Hidden: []int{20}, Out: 4, Dropout: 0.2}, TrainConfig{Loss: CrossEntropy, Batch: 16, LR: 1e-2, Seed: 4}, []int{16, 16, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.mc.Seed = 11
			m1, err := NewMLP(tc.mc)
			if err != nil {
				t.Fatal(err)
			}
			m2, _ := NewMLP(tc.mc)
			tr, err := NewTrainer(m1, tc.tc)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			ref, err := newGraphTrainer(m2, tc.tc)
			if err != nil {
				t.Fatal(err)
			}
			defer ref.close()
			rng := rand.New(rand.NewPCG(7, 7))
			tcols, wcols := tc.tc.Loss.targetCols(tc.mc.Out), tc.tc.Loss.weightCols(tc.mc.Out)
			for step, n := range tc.n {
				x, tg, w := make([]float32, n*tc.mc.In), make([]float32, n*tcols), make([]float32, n*wcols)
				for i := range x {
					x[i] = float32(rng.NormFloat64())
				}
				for i := range tg {
					tg[i] = float32(rng.NormFloat64())
				}
				if tc.tc.Loss == CrossEntropy {
					clear(tg)
					for i := 0; i < n; i++ {
						tg[i*tc.mc.Out+rng.IntN(tc.mc.Out)] = 1
					}
				}
				for i := range w {
					w[i] = float32(rng.IntN(3)) // zeros included
				}
				w[0] = 1
				if step%2 == 1 {
					w = nil
				}
				l1, err1 := tr.Step(x, tg, w, n)
				l2, err2 := ref.Step(x, tg, w, n)
				if err1 != nil || err2 != nil {
					t.Fatalf("step %d: %v, graph %v", step, err1, err2)
				}
				if l1 != l2 {
					t.Errorf("step %d: loss %v, graph %v", step, l1, l2)
				}
				o1, o2 := tr.Output(), ref.output(n)
				for i := range o2 {
					if math.Float32bits(o1[i]) != math.Float32bits(o2[i]) {
						t.Fatalf("step %d: output[%d] %v, graph %v", step, i, o1[i], o2[i])
					}
				}
				for i, p := range m1.Params() {
					q := m2.Params()[i]
					for k := range p.Data {
						if math.Float32bits(p.Data[k]) != math.Float32bits(q.Data[k]) {
							t.Fatalf("step %d: %s[%d] = %v, graph %v", step, p.Name, k, p.Data[k], q.Data[k])
						}
					}
				}
			}
		})
	}
}

// A step allocates nothing.
func TestTrainerStepNoAllocation(t *testing.T) {
	m, _ := NewMLP(MLPConfig{In: 6, Hidden: []int{50, 50}, Out: 3, Dropout: 0.1, Seed: 1})
	tr, err := NewTrainer(m, TrainConfig{Loss: MSE, Batch: 64, LR: 1e-3, ClipNorm: 5})
	if err != nil {
		t.Fatal(err)
	}
	x, tg := make([]float32, 64*6), make([]float32, 64*3)
	if n := testing.AllocsPerRun(20, func() {
		if _, err := tr.Step(x, tg, nil, 64); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Step: %v allocations", n)
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
