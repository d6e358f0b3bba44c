package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdam32MatchesKernel checks that adam32 (AVX where available) gives
// the scalar Go kernel's results bit for bit, over several steps, lengths
// with and without a tail, and values spanning zero gradients, tiny and
// large magnitudes.
func TestAdam32MatchesKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 8, 9, 64, 1000, 4099} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w1 := make([]float32, n)
			for i := range w1 {
				w1[i] = float32(rng.NormFloat64())
			}
			m1, v1 := make([]float32, n), make([]float32, n)
			w2, m2, v2 := append([]float32(nil), w1...), make([]float32, n), make([]float32, n)
			for step := 1; step <= 5; step++ {
				g := make([]float32, n)
				for i := range g {
					switch i % 4 {
					case 0:
						g[i] = 0
					case 1:
						g[i] = float32(1e-6 * rng.NormFloat64())
					default:
						g[i] = float32(10 * rng.NormFloat64())
					}
				}
				bc1, bc2 := 1-math.Pow(0.9, float64(step)), 1-math.Pow(0.999, float64(step))
				lr, wd := 1e-3/bc1, float32(1e-5)
				rbc2 := float32(1 / math.Sqrt(bc2))
				AdamKernel(w1, g, m1, v1, float32(lr), wd, rbc2)
				Adam32(w2, g, m2, v2, float32(lr), wd, rbc2)
				for i := range w1 {
					if math.Float32bits(w1[i]) != math.Float32bits(w2[i]) || m1[i] != m2[i] || v1[i] != v2[i] {
						t.Fatalf("step %d, element %d: w %v/%v m %v/%v v %v/%v (kernel/adam32)", step, i, w1[i], w2[i], m1[i], m2[i], v1[i], v2[i])
					}
				}
			}
		})
	}
}

// TestAdamKernelStep checks one step against the closed form: at step 1
// with zero state, m = (1−β1)g, v = (1−β2)g², so with step = lr/(1−β1)
// and rbc2 = 1/√(1−β2) the update is lr·g/(|g| + ε) ≈ lr·sign(g) (the
// Adam paper's first step), here with wd = 0.
func TestAdamKernelStep(t *testing.T) {
	for _, g := range []float64{3, -0.5, 1e-3} {
		w, m, v := []float64{1}, []float64{0}, []float64{0}
		AdamKernel(w, []float64{g}, m, v, 0.1/(1-0.9), 0, 1/math.Sqrt(1-0.999))
		want := 1 - 0.1*g/(math.Abs(g)+1e-8)
		if math.Abs(w[0]-want) > 1e-12 {
			t.Errorf("g=%v: w=%v, want %v", g, w[0], want)
		}
	}
}

// BenchmarkAdam32 is one Adam step over the tower's 2,048×1,024 layer.
func BenchmarkAdam32(b *testing.B) {
	const n = 2048 * 1024
	w, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range g {
		g[i] = float32(i%7) - 3
	}
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"go", func() { AdamKernel(w, g, m, v, 1e-4, 1e-5, 1) }},
		{"adam32", func() { Adam32(w, g, m, v, 1e-4, 1e-5, 1) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(n * 4 * 7)
			for i := 0; i < b.N; i++ {
				c.fn()
			}
		})
	}
}
