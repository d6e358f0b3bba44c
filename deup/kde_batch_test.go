package deup

import (
	"math"
	"math/rand/v2"
	"testing"
)

// LogDensityInto must equal LogDensity (the two-pass log-sum-exp of
// kde.go) on the same KDE, near and far from the data.
func TestLogDensityIntoMatchesLogDensity(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([][]float64, 300)
	for i := range x {
		x[i] = []float64{rng.NormFloat64(), 2 * rng.NormFloat64(), rng.Float64()}
	}
	for _, rule := range []Bandwidth{Scott, LikelihoodCV} {
		k, err := FitKDE(x, rule)
		if err != nil {
			t.Fatal(err)
		}
		q := [][]float64{{0, 0, 0.5}, {1, -3, 0.1}, {40, 40, 40}, x[7]}
		got := k.LogDensityInto(nil, q)
		for i := range q {
			want := k.LogDensity(q[i])
			if math.Abs(got[i]-want) > 1e-8 {
				t.Errorf("%v row %d: LogDensityInto %v, LogDensity %v", rule, i, got[i], want)
			}
		}
		if n := testing.AllocsPerRun(10, func() { k.LogDensityInto(got, q) }); n != 0 {
			t.Errorf("%v: %v allocations per call with room in dst", rule, n)
		}
	}
}

// One centre in one dimension: log N(x; c, h²) by hand.
func TestNewKDE(t *testing.T) {
	k, err := NewKDE([][]float64{{1}}, []float64{2})
	if err != nil {
		t.Fatal(err)
	}
	// log N(2; 1, 4) = −½·(1/2)² − log 2 − ½ log 2π.
	want := -0.125 - math.Log(2) - 0.5*math.Log(2*math.Pi)
	if got := k.LogDensityInto(nil, [][]float64{{2}})[0]; math.Abs(got-want) > 1e-12 {
		t.Errorf("log density %v, want %v", got, want)
	}
	for name, c := range map[string]struct {
		x [][]float64
		h []float64
	}{
		"no points":     {nil, []float64{1}},
		"zero h":        {[][]float64{{1}}, []float64{0}},
		"NaN h":         {[][]float64{{1}}, []float64{math.NaN()}},
		"short row":     {[][]float64{{1, 2}, {1}}, []float64{1, 1}},
		"infinite data": {[][]float64{{math.Inf(1)}}, []float64{1}},
	} {
		if _, err := NewKDE(c.x, c.h); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// expNeg against math.Exp on [−50, 0].
func TestExpNeg(t *testing.T) {
	worst := 0.0
	for i := 0; i <= 200000; i++ {
		x := -50 * float64(i) / 200000
		want := math.Exp(x)
		worst = math.Max(worst, math.Abs(expNeg(x)/want-1))
	}
	if worst > 3e-10 {
		t.Errorf("largest relative error %g, want < 3e-10", worst)
	}
}

func BenchmarkLogDensityInto(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([][]float64, 1000)
	for i := range x {
		x[i] = make([]float64, 6)
		for j := range x[i] {
			x[i][j] = rng.NormFloat64()
		}
	}
	k, err := FitKDE(x[:300], LikelihoodCV)
	if err != nil {
		b.Fatal(err)
	}
	k, _ = NewKDE(x, k.Bandwidths())
	q := x[:64]
	dst := make([]float64, len(q))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k.LogDensityInto(dst, q)
	}
}
