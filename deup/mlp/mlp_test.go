package mlp

import (
	"math"
	"math/rand/v2"
	"testing"
)

func sinData(n int, seed uint64) ([][]float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = []float64{3*rng.Float64() - 1}
		y[i] = math.Sin(3 * x[i][0])
	}
	return x, y
}

func TestTrainFits(t *testing.T) {
	x, y := sinData(40, 1)
	for _, tc := range []struct {
		name string
		cfg  Config
		tol  float64
	}{
		{"paper 3x128 full batch", Config{Seed: 1}, 1e-3},
		{"minibatch 16 two layers", Config{Hidden: []int{32, 32}, BatchSize: 16, Epochs: 400, LR: 3e-3, Seed: 2}, 5e-3},
		{"dropout 0.3", Config{Dropout: 0.3, Seed: 3}, 2e-2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net, err := Train(x, y, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			mse := 0.0
			for i := range x {
				d := net.Predict(x[i]) - y[i]
				mse += d * d
			}
			mse /= float64(len(x))
			// sin(3x) on [-1, 2] has variance ~0.5: an MSE under tol means
			// the net learned it (a constant predictor scores ~0.5).
			if mse > tc.tol {
				t.Errorf("training MSE %.4g > %.4g", mse, tc.tol)
			}
		})
	}
}

func TestSeededReproducible(t *testing.T) {
	x, y := sinData(20, 2)
	cfg := Config{Hidden: []int{16, 16}, Dropout: 0.2, Epochs: 50, Seed: 9}
	a, _ := Train(x, y, cfg)
	b, _ := Train(x, y, cfg)
	c, _ := Train(x, y, Config{Hidden: []int{16, 16}, Dropout: 0.2, Epochs: 50, Seed: 10})
	p := []float64{0.3}
	if a.Predict(p) != b.Predict(p) {
		t.Errorf("same seed, different predictions %v %v", a.Predict(p), b.Predict(p))
	}
	if a.Predict(p) == c.Predict(p) {
		t.Errorf("different seeds, same prediction %v", a.Predict(p))
	}
	r1, r2 := rand.New(rand.NewPCG(4, 4)), rand.New(rand.NewPCG(4, 4))
	if s1, s2 := a.PredictSample(p, r1), a.PredictSample(p, r2); s1 != s2 {
		t.Errorf("MC-dropout samples with the same rng differ: %v %v", s1, s2)
	}
	// MC-dropout passes differ from each other with p = 0.2.
	seen := map[float64]bool{}
	for i := 0; i < 10; i++ {
		seen[a.PredictSample(p, r1)] = true
	}
	if len(seen) < 2 {
		t.Error("MC-dropout passes are all equal")
	}
}

func TestTrainErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    [][]float64
		y    []float64
		cfg  Config
	}{
		{"empty", nil, nil, Config{}},
		{"length mismatch", [][]float64{{1}}, []float64{1, 2}, Config{}},
		{"ragged", [][]float64{{1}, {1, 2}}, []float64{1, 2}, Config{}},
		{"nan input", [][]float64{{math.NaN()}}, []float64{1}, Config{}},
		{"inf target", [][]float64{{1}}, []float64{math.Inf(1)}, Config{}},
		{"dropout 1", [][]float64{{1}}, []float64{1}, Config{Dropout: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Train(tc.x, tc.y, tc.cfg); err == nil {
				t.Error("no error")
			}
		})
	}
}

func BenchmarkTrainPaperNet(b *testing.B) {
	x, y := sinData(56, 3)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Train(x, y, Config{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
