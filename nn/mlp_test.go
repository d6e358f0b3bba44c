package nn

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// TestTrainerLearnsFunction trains a 2→32→32→1 MLP on y = sin(x0)+x1²
// (x uniform in [−1.5, 1.5]²) with MSE: the held-out RMSE must fall below
// 0.1 (the target's standard deviation is about 0.9).
func TestTrainerLearnsFunction(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 2, Hidden: []int{32, 32}, Out: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	f := func(a, b float32) float32 { return float32(math.Sin(float64(a))) + b*b }
	rng := rand.New(rand.NewPCG(2, 3))
	draw := func(n int) ([]float32, []float32) {
		x, y := make([]float32, 2*n), make([]float32, n)
		for i := 0; i < n; i++ {
			x[2*i], x[2*i+1] = float32(3*rng.Float64()-1.5), float32(3*rng.Float64()-1.5)
			y[i] = f(x[2*i], x[2*i+1])
		}
		return x, y
	}
	tr, err := NewTrainer(m, TrainConfig{Loss: MSE, Batch: 64, LR: 3e-3})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for step := 0; step < 3000; step++ {
		n := 64 - step%7 // smaller batches are padded
		x, y := draw(n)
		if _, err := tr.Step(x, y, nil, n); err != nil {
			t.Fatal(err)
		}
	}
	x, y := draw(500)
	p := m.Predict(x, 500, nil)
	s := 0.0
	for i := range y {
		s += float64((p[i] - y[i]) * (p[i] - y[i]))
	}
	if rmse := math.Sqrt(s / 500); rmse > 0.1 {
		t.Errorf("held-out RMSE %.4f, want < 0.1", rmse)
	}
}

// TestTrainerLossMatchesPredict checks that the loss Step reports equals
// the loss recomputed from Predict on the same rows, for each loss.
func TestTrainerLossMatchesPredict(t *testing.T) {
	for _, tc := range []struct {
		loss Loss
		out  int
		act  Activation
	}{{MSE, 3, Linear}, {MSE, 2, Softplus}, {GaussianNLL, 2, Linear}, {CrossEntropy, 4, Linear}} {
		t.Run(tc.loss.String(), func(t *testing.T) {
			m, err := NewMLP(MLPConfig{In: 5, Hidden: []int{7}, Out: tc.out, OutAct: tc.act, Seed: 4})
			if err != nil {
				t.Fatal(err)
			}
			tr, err := NewTrainer(m, TrainConfig{Loss: tc.loss, Batch: 16, LR: 1e-3})
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			const n = 11
			rng := rand.New(rand.NewPCG(5, 6))
			x := make([]float32, n*5)
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			tc2, wc := tc.loss.targetCols(tc.out), tc.loss.weightCols(tc.out)
			tg, w := make([]float32, n*tc2), make([]float32, n*wc)
			for i := range tg {
				tg[i] = float32(rng.Float64())
			}
			if tc.loss == CrossEntropy {
				clear(tg)
				for i := 0; i < n; i++ {
					tg[i*tc.out+rng.IntN(tc.out)] = 1
				}
			}
			sw := 0.0
			for i := range w {
				w[i] = float32(rng.Float64())
				sw += float64(w[i])
			}
			p := m.Predict(x, n, nil)
			want := lossGrad(tc.loss, p, tg, w, n, tc.out, 0, nil) / sw
			got, err := tr.Step(x, tg, w, n)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-5*math.Abs(want) {
				t.Errorf("Step loss %.9g, Predict's %.9g", got, want)
			}
		})
	}
}

// TestSameSeedSameNumbers trains two networks from the same seeds (with
// dropout) and requires bit-identical parameters; a different trainer
// seed must give different ones.
func TestSameSeedSameNumbers(t *testing.T) {
	run := func(seed uint64) Params {
		m, err := NewMLP(MLPConfig{In: 6, Hidden: []int{50}, Out: 3, Dropout: 0.2, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTrainer(m, TrainConfig{Loss: MSE, Batch: 32, LR: 1e-3, WeightDecay: 1e-4, ClipNorm: 1, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		rng := rand.New(rand.NewPCG(8, 9))
		x, y := make([]float32, 32*6), make([]float32, 32*3)
		for step := 0; step < 20; step++ {
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			for i := range y {
				y[i] = float32(rng.NormFloat64())
			}
			if _, err := tr.Step(x, y, nil, 32); err != nil {
				t.Fatal(err)
			}
		}
		return m.Params()
	}
	a, b, c := run(1), run(1), run(2)
	same := func(p, q Params) bool {
		for i := range p {
			for k := range p[i].Data {
				if math.Float32bits(p[i].Data[k]) != math.Float32bits(q[i].Data[k]) {
					return false
				}
			}
		}
		return true
	}
	if !same(a, b) {
		t.Error("same seeds gave different parameters")
	}
	if same(a, c) {
		t.Error("different dropout seeds gave the same parameters")
	}
}

// TestParamsRoundTrip saves a network's parameters and loads them into a
// differently initialized one of the same shape; then checks that
// corrupted or mismatched files give errors.
func TestParamsRoundTrip(t *testing.T) {
	cfg := MLPConfig{In: 3, Hidden: []int{4, 5}, Out: 2, Seed: 1}
	a, _ := NewMLP(cfg)
	cfg.Seed = 2
	b, _ := NewMLP(cfg)
	var buf bytes.Buffer
	if err := a.Params().Save(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if err := b.Params().Load(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	x := []float32{0.1, -0.2, 0.3, 1, 2, 3}
	pa, pb := a.Predict(x, 2, nil), b.Predict(x, 2, nil)
	for i := range pa {
		if pa[i] != pb[i] {
			t.Fatalf("loaded network predicts %v, saved one %v", pb, pa)
		}
	}
	other, _ := NewMLP(MLPConfig{In: 3, Hidden: []int{4, 6}, Out: 2})
	for name, tc := range map[string]struct {
		p    Params
		data []byte
	}{
		"truncated":   {b.Params(), data[:len(data)-3]},
		"header":      {b.Params(), append([]byte("XX"), data[2:]...)},
		"trailing":    {b.Params(), append(append([]byte(nil), data...), 0)},
		"other shape": {other.Params(), data},
		"empty":       {b.Params(), nil},
	} {
		if err := tc.p.Load(bytes.NewReader(tc.data)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// BenchmarkTrainerStep is one training step of a 6→50→3 MLP at batch 64
// (the RL helper's Q-network size).
func BenchmarkTrainerStep(b *testing.B) {
	m, _ := NewMLP(MLPConfig{In: 6, Hidden: []int{50}, Out: 3, Seed: 1})
	tr, err := NewTrainer(m, TrainConfig{Loss: MSE, Batch: 64, LR: 1e-3})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float32, 64*6), make([]float32, 64*3)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	for i := range y {
		y[i] = float32(rng.NormFloat64())
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Step(x, y, nil, 64); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewTrainer is building and compiling the training graph of a
// 1→128→128→128→1 MLP (the SMO network), paid once per training.
func BenchmarkNewTrainer(b *testing.B) {
	m, _ := NewMLP(MLPConfig{In: 1, Hidden: []int{128, 128, 128}, Out: 1, Seed: 1})
	b.ReportAllocs()
	for b.Loop() {
		tr, err := NewTrainer(m, TrainConfig{Loss: MSE, Batch: 40, LR: 1e-3})
		if err != nil {
			b.Fatal(err)
		}
		tr.Close()
	}
}

// TestPredictNoAllocation checks the contract's "no allocation when dst
// has room" for a network whose products run on one goroutine.
func TestPredictNoAllocation(t *testing.T) {
	m, _ := NewMLP(MLPConfig{In: 6, Hidden: []int{50, 50}, Out: 3, Dropout: 0.1, Seed: 1})
	x := make([]float32, 16*6)
	dst := make([]float32, 16*3)
	rng := rand.New(rand.NewPCG(1, 1))
	m.Predict(x, 16, dst) // fills the scratch pools
	if n := testing.AllocsPerRun(100, func() { m.Predict(x, 16, dst) }); n != 0 {
		t.Errorf("Predict: %v allocations per call", n)
	}
	if n := testing.AllocsPerRun(100, func() { m.PredictDropout(x, 16, rng, dst) }); n != 0 {
		t.Errorf("PredictDropout: %v allocations per call", n)
	}
}

// TestPredictRowsIndependent checks that a row's prediction does not
// depend on the other rows predicted with it (bit for bit).
func TestPredictRowsIndependent(t *testing.T) {
	m, _ := NewMLP(MLPConfig{In: 4, Hidden: []int{40}, Out: 2, Seed: 3})
	rng := rand.New(rand.NewPCG(2, 2))
	x := make([]float32, 37*4)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	all := m.Predict(x, 37, nil)
	for i := 0; i < 37; i++ {
		one := m.Predict(x[i*4:(i+1)*4], 1, nil)
		if one[0] != all[2*i] || one[1] != all[2*i+1] {
			t.Fatalf("row %d alone %v, in the batch %v", i, one, all[2*i:2*i+2])
		}
	}
}
