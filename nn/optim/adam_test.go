package optim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/deup-screening/deup/nn/optim"
)

// TestAdamFirstStep: at step 1 with zero moments m = (1−β1)g and
// v = (1−β2)g², so the bias-corrected m/√v is sign(g) (up to ε): every
// coordinate moves by lr against its gradient's sign (Kingma & Ba 2015,
// section 2.1), in float32 and float64, with and without the AVX path's
// eight-lane blocks (lengths 3 and 19).
func TestAdamFirstStep(t *testing.T) {
	for _, n := range []int{3, 19} {
		g := make([]float64, n)
		for i := range g {
			g[i] = float64(i%5-2) + 0.5 // ±0.5 … ±2.5, never 0
		}
		t.Run(fmt.Sprint("float64/", n), func(t *testing.T) {
			w := make([]float64, n)
			optim.NewAdam[float64](0.1, 0).Step(w, g)
			for i := range w {
				if want := -0.1 * math.Copysign(1, g[i]); math.Abs(w[i]-want) > 1e-6 {
					t.Errorf("w[%d] = %v, want %v", i, w[i], want)
				}
			}
		})
		t.Run(fmt.Sprint("float32/", n), func(t *testing.T) {
			w, g32 := make([]float32, n), make([]float32, n)
			for i := range g {
				g32[i] = float32(g[i])
			}
			optim.NewAdam[float32](0.1, 0).Step(w, g32)
			for i := range w {
				if want := -0.1 * math.Copysign(1, g[i]); math.Abs(float64(w[i])-want) > 1e-6 {
					t.Errorf("w[%d] = %v, want %v", i, w[i], want)
				}
			}
		})
	}
}

// TestAdamWeightDecay: with a zero loss gradient, PyTorch's coupled decay
// makes the gradient wd·w, so the first step moves w by lr against sign(w).
func TestAdamWeightDecay(t *testing.T) {
	w := []float64{2, -3}
	optim.NewAdam[float64](0.01, 0.1).Step(w, []float64{0, 0})
	if math.Abs(w[0]-1.99) > 1e-9 || math.Abs(w[1]+2.99) > 1e-9 {
		t.Errorf("w = %v, want [1.99 -2.99]", w)
	}
}

// TestAdamMinimizesQuadratic: f(p) = Σ c_i (p_i − t_i)² from 0 reaches t
// (ill-conditioned: c spans two decades).
func TestAdamMinimizesQuadratic(t *testing.T) {
	c := []float64{1, 10, 0.1}
	target := []float64{3, -2, 0.5}
	p, g := make([]float64, 3), make([]float64, 3)
	opt := optim.NewAdam[float64](0.05, 0)
	for step := 0; step < 3000; step++ {
		for i := range p {
			g[i] = 2 * c[i] * (p[i] - target[i])
		}
		opt.Step(p, g)
	}
	for i := range p {
		if math.Abs(p[i]-target[i]) > 1e-3 {
			t.Errorf("p[%d] = %g, want %g", i, p[i], target[i])
		}
	}
	if opt.Steps() != 3000 {
		t.Errorf("Steps = %d, want 3000", opt.Steps())
	}
	opt.Reset()
	if opt.Steps() != 0 {
		t.Errorf("Steps after Reset = %d", opt.Steps())
	}
}

// TestAdamStepCounts: two parameters stepped a different number of times
// keep their own bias corrections: stepping b once more after a leaves
// b where a fresh Adam stepped the same number of times leaves it.
func TestAdamStepCounts(t *testing.T) {
	a, b := optim.NewAdam[float32](0.01, 0), optim.NewAdam[float32](0.01, 0)
	wa, wb := []float32{1}, []float32{1}
	for i := 0; i < 5; i++ {
		a.Step(wa, []float32{0.3})
		if i%2 == 0 {
			b.Step(wb, []float32{0.3})
		}
	}
	ref, wr := optim.NewAdam[float32](0.01, 0), []float32{1}
	for i := 0; i < 3; i++ {
		ref.Step(wr, []float32{0.3})
	}
	if a.Steps() != 5 || b.Steps() != 3 || wb[0] != wr[0] {
		t.Errorf("steps %d, %d; w %v vs %v", a.Steps(), b.Steps(), wb[0], wr[0])
	}
}

func ExampleAdam() {
	// Minimize (w − 3)² for one scalar parameter.
	w := []float64{0}
	opt := optim.NewAdam[float64](0.1, 0)
	for i := 0; i < 500; i++ {
		opt.Step(w, []float64{2 * (w[0] - 3)})
	}
	fmt.Printf("%.3f after %d steps\n", w[0], opt.Steps())
	// Output: 3.000 after 500 steps
}

// TestStepRowsSameAsStep: StepRows, with the gradient handed out a block
// of rows at a time, moves the parameter and the moments exactly as Step
// with the whole gradient, step after step (float32 with the AVX path,
// float64; rows of 1,024 in blocks of 32 shared among the workers, and
// short odd rows).
func TestStepRowsSameAsStep(t *testing.T) {
	for _, sh := range []struct{ rows, cols int }{{70, 1024}, {9000, 3}, {5, 7}} {
		t.Run(fmt.Sprintf("float32/%dx%d", sh.rows, sh.cols), func(t *testing.T) { stepRowsSame[float32](t, sh.rows, sh.cols) })
		t.Run(fmt.Sprintf("float64/%dx%d", sh.rows, sh.cols), func(t *testing.T) { stepRowsSame[float64](t, sh.rows, sh.cols) })
	}
}

func stepRowsSame[T float32 | float64](t *testing.T, rows, cols int) {
	n := rows * cols
	w1, w2, g := make([]T, n), make([]T, n), make([]T, n)
	for i := range w1 {
		w1[i] = T(math.Sin(float64(i)))
		w2[i] = w1[i]
	}
	a1, a2 := optim.NewAdam[T](1e-3, 1e-2), optim.NewAdam[T](1e-3, 1e-2)
	for step := 0; step < 4; step++ {
		for i := range g {
			g[i] = T(math.Cos(float64(i*(step+1)))) * T(1+i%3)
		}
		a1.Step(w1, g)
		a2.StepRows(w2, cols, func(gb []T, r0, r1 int) {
			if len(gb) != (r1-r0)*cols {
				t.Errorf("block of rows %d…%d: %d elements", r0, r1, len(gb))
			}
			copy(gb, g[r0*cols:r1*cols])
		})
	}
	for i := range w1 {
		if w1[i] != w2[i] {
			t.Fatalf("after 4 steps w[%d]: Step %v, StepRows %v", i, w1[i], w2[i])
		}
	}
	if a1.Steps() != a2.Steps() {
		t.Errorf("steps %d and %d", a1.Steps(), a2.Steps())
	}
}
