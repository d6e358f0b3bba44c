package surrogate

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func linearData(n int, seed uint64) ([][]float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		y[i] = 2 + 3*x[i][0] - x[i][1] + 0.5*rng.NormFloat64()
	}
	return x, y
}

func TestBayesRidgeRecovers(t *testing.T) {
	x, y := linearData(500, 1)
	m, err := BayesRidge{}.FitRidge(x, y)
	if err != nil {
		t.Fatal(err)
	}
	// Truth: w = (3, -1, 0), intercept 2, noise variance 0.25.
	for j, w := range []float64{3, -1, 0} {
		if math.Abs(m.w[j]-w) > 0.1 {
			t.Errorf("w[%d] = %v, want %v ± 0.1", j, m.w[j], w)
		}
	}
	if got := m.Predict([]float64{0, 0, 0}); math.Abs(got-2) > 0.1 {
		t.Errorf("intercept %v, want 2 ± 0.1", got)
	}
	if got := m.Noise(); math.Abs(got-0.25) > 0.05 {
		t.Errorf("noise variance %v, want 0.25 ± 0.05", got)
	}
}

// TestBayesRidgeFixedPoint checks the evidence fixed point (Bishop 2006,
// eqs. 3.92 and 3.95): alpha m^T m = gamma and beta |y - X m|^2 = n - gamma,
// with gamma = M - alpha tr(S) (eq. 3.91 rewritten).
func TestBayesRidgeFixedPoint(t *testing.T) {
	for _, n := range []int{8, 40, 300} {
		x, y := linearData(n, uint64(n))
		m, err := BayesRidge{}.FitRidge(x, y)
		if err != nil {
			t.Fatal(err)
		}
		d := len(m.w)
		var tr, ww, rss float64
		for j := 0; j < d; j++ {
			tr += m.cov.At(j, j)
			ww += m.w[j] * m.w[j]
		}
		for i := range x {
			r := y[i] - m.Predict(x[i])
			rss += r * r
		}
		gamma := float64(d) - m.Alpha*tr
		beta := 1 / m.Noise()
		if math.Abs(m.Alpha*ww-gamma) > 1e-4*gamma {
			t.Errorf("n=%d: alpha m^T m = %v, gamma = %v", n, m.Alpha*ww, gamma)
		}
		if math.Abs(beta*rss-(float64(n)-gamma)) > 1e-4*float64(n) {
			t.Errorf("n=%d: beta rss = %v, n - gamma = %v", n, beta*rss, float64(n)-gamma)
		}
	}
}

func TestBayesRidgeVariance(t *testing.T) {
	x, y := linearData(50, 2)
	m, err := BayesRidge{}.FitRidge(x, y)
	if err != nil {
		t.Fatal(err)
	}
	// Variance is c^T S c with c = x - mean(x): compare with gonum's Inner.
	for _, q := range [][]float64{{0, 0, 0}, {1, -2, 0.5}, {10, 10, 10}} {
		c := make([]float64, 3)
		for j := range c {
			c[j] = q[j] - m.xMean[j]
		}
		v := mat.NewVecDense(3, c)
		want := mat.Inner(v, m.cov, v)
		if got := m.Variance(q); math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Errorf("Variance(%v) = %v, want %v", q, got, want)
		}
	}
	if far, near := m.Variance([]float64{10, 10, 10}), m.Variance(m.xMean); far <= near {
		t.Errorf("variance far from the data %v <= at the data mean %v", far, near)
	}
	x2, y2 := linearData(500, 2)
	m2, _ := BayesRidge{}.FitRidge(x2, y2)
	if a, b := m.Variance([]float64{1, 1, 1}), m2.Variance([]float64{1, 1, 1}); b >= a {
		t.Errorf("variance with 500 points %v >= with 50 points %v", b, a)
	}
}

func TestBayesRidgeErrors(t *testing.T) {
	cases := []struct {
		name string
		x    [][]float64
		y    []float64
	}{
		{"one row", [][]float64{{1}}, []float64{1}},
		{"ragged", [][]float64{{1, 2}, {1}}, []float64{1, 2}},
		{"nan input", [][]float64{{1}, {math.NaN()}}, []float64{1, 2}},
		{"inf target", [][]float64{{1}, {2}}, []float64{1, math.Inf(1)}},
		{"length mismatch", [][]float64{{1}, {2}}, []float64{1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := (BayesRidge{}).FitRidge(c.x, c.y); err == nil {
				t.Error("want an error")
			}
		})
	}
}
