package deup

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestParseFeatures(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want FeatureSet
		err  bool
	}{
		{"xdvb", FeatX | FeatD | FeatV | FeatB, false},
		{"v", FeatV, false},
		{"x,v", FeatX | FeatV, false},
		{"bx", FeatX | FeatB, false},
		{"", 0, true},
		{"xx", 0, true},
		{"xq", 0, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseFeatures(tc.in)
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error %v", err, tc.err)
			}
			if got != tc.want {
				t.Errorf("got %v want %v", got, tc.want)
			}
		})
	}
	if s := (FeatB | FeatX | FeatV).String(); s != "xvb" {
		t.Errorf("String = %q, want xvb", s)
	}
}

func TestKDE(t *testing.T) {
	x := [][]float64{{0}, {2}}
	// Derivation: sample sd of {0, 2} is sqrt(2); Scott h = sqrt(2) 2^(-1/5);
	// Silverman h = Scott h * (4/3)^(1/5). At x = 1 both kernels contribute
	// N(1; 0, h^2), so log q(1) = -1/(2h^2) - log h - log(2 pi)/2.
	for _, tc := range []struct {
		name string
		rule Bandwidth
		h    float64
	}{
		{"scott", Scott, math.Sqrt2 * math.Pow(2, -0.2)},
		{"silverman", Silverman, math.Sqrt2 * math.Pow(2, -0.2) * math.Pow(4.0/3, 0.2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := FitKDE(x, tc.rule)
			if err != nil {
				t.Fatal(err)
			}
			if got := k.Bandwidths()[0]; math.Abs(got-tc.h) > 1e-12 {
				t.Errorf("bandwidth %v want %v", got, tc.h)
			}
			want := -1/(2*tc.h*tc.h) - math.Log(tc.h) - 0.5*math.Log(2*math.Pi)
			if got := k.LogDensity([]float64{1}); math.Abs(got-want) > 1e-12 {
				t.Errorf("log density %v want %v", got, want)
			}
			// Far away the log-density stays finite (log-sum-exp).
			if got := k.LogDensity([]float64{1e4}); math.IsInf(got, 0) || math.IsNaN(got) {
				t.Errorf("far log density %v", got)
			}
		})
	}
	t.Run("lcv beats scott on its own criterion", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		var pts [][]float64
		for i := 0; i < 40; i++ {
			c := 0.0
			if i%2 == 1 {
				c = 10
			}
			pts = append(pts, []float64{c + 0.1*rng.NormFloat64(), rng.NormFloat64()})
		}
		loo := func(k *KDE) float64 {
			s := 0.0
			for i := range k.pts {
				s += k.logDensity(k.pts[i], i)
			}
			return s
		}
		sc, _ := FitKDE(pts, Scott)
		cv, _ := FitKDE(pts, LikelihoodCV)
		if loo(cv) < loo(sc) {
			t.Errorf("LOO log-likelihood lcv %v < scott %v", loo(cv), loo(sc))
		}
		// Two tight clusters 10 apart: Scott oversmooths coordinate 0.
		if cv.Bandwidths()[0] >= sc.Bandwidths()[0] {
			t.Errorf("lcv bandwidth %v not below scott %v on bimodal data", cv.Bandwidths()[0], sc.Bandwidths()[0])
		}
	})
	t.Run("errors", func(t *testing.T) {
		for _, x := range [][][]float64{nil, {{1}, {1, 2}}, {{math.NaN()}}} {
			if _, err := FitKDE(x, Scott); err == nil {
				t.Errorf("FitKDE(%v): no error", x)
			}
		}
	})
}

// nearest is a 1-nearest-neighbour learner: zero in-sample error, positive
// out-of-sample error, which makes the bookkeeping of D_e visible.
type nearest struct{}

type nearestModel struct {
	x [][]float64
	y []float64
}

func (nearest) Fit(x [][]float64, y []float64) (Predictor, error) {
	return nearestModel{x, append([]float64(nil), y...)}, nil
}

func (m nearestModel) Predict(q []float64) float64 {
	best, by := math.Inf(1), 0.0
	for i, p := range m.x {
		d := 0.0
		for j := range p {
			d += (p[j] - q[j]) * (p[j] - q[j])
		}
		if d < best {
			best, by = d, m.y[i]
		}
	}
	return by
}

// Variance is the squared distance to the nearest training point, a stand-in
// for a model variance that grows away from the data.
func (m nearestModel) Variance(q []float64) float64 {
	best := math.Inf(1)
	for _, p := range m.x {
		d := 0.0
		for j := range p {
			d += (p[j] - q[j]) * (p[j] - q[j])
		}
		best = math.Min(best, d)
	}
	return best
}

func square(x [][]float64) []float64 {
	y := make([]float64, len(x))
	for i := range x {
		y[i] = x[i][0] * x[i][0]
	}
	return y
}

func testConfig(set FeatureSet) Config {
	return Config{Main: nearest{}, Features: Featurizer{Set: set}, Error: LogErrors{Learner: Linear{}}}
}

func TestPrefill(t *testing.T) {
	x := [][]float64{{0}, {1}, {2}, {3}, {4}, {5}}
	y := square(x)
	for _, tc := range []struct {
		name string
		opt  PrefillOptions
		want int // |D_e|
		oos  int
	}{
		// Paper App. SMO: halves, roles swapped, repeated twice, plus
		// in-sample entries: 4 examples per initial point.
		{"paper smo", PrefillOptions{InSample: true}, 24, 12},
		{"defaults out-of-sample only", PrefillOptions{}, 12, 12},
		{"3 folds once", PrefillOptions{Folds: 3, Repeats: 1}, 6, 6},
		{"size forces more rounds", PrefillOptions{Folds: 2, Repeats: 1, Size: 20}, 24, 24},
	} {
		t.Run(tc.name, func(t *testing.T) {
			de, err := Prefill(testConfig(FeatX|FeatV|FeatB), x, y, tc.opt, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			oos := 0
			for _, e := range de {
				if e.OutOfSample {
					oos++
					if e.Loss == 0 || e.Phi[2] != 0 {
						t.Errorf("out-of-sample example %+v: want loss > 0 and seen bit 0", e)
					}
				} else if e.Loss != 0 || e.Phi[2] != 1 {
					t.Errorf("in-sample example %+v: want loss 0 and seen bit 1", e)
				}
			}
			if len(de) != tc.want || oos != tc.oos {
				t.Errorf("|D_e| = %d (%d out-of-sample), want %d (%d)", len(de), oos, tc.want, tc.oos)
			}
		})
	}
	if _, err := Prefill(testConfig(FeatX), x[:1], y[:1], PrefillOptions{}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("prefill with 1 point and 2 folds: no error")
	}
}

func TestLoopRecordsOutOfSampleLoss(t *testing.T) {
	x := [][]float64{{0}, {1}, {2}, {3}}
	loop, err := NewLoop(testConfig(FeatX|FeatD|FeatV), x, square(x))
	if err != nil {
		t.Fatal(err)
	}
	if err := loop.Observe([]float64{1}, 1); err == nil {
		t.Error("Observe before Fit: no error")
	}
	if _, err := loop.Fit(); err == nil {
		t.Error("Fit with empty D_e: no error")
	}
	if err := loop.Prefill(PrefillOptions{}, rand.New(rand.NewPCG(3, 3))); err != nil {
		t.Fatal(err)
	}
	n0 := len(loop.Examples())
	for step, q := range []float64{6, 4.5, -2} {
		m, err := loop.Fit()
		if err != nil {
			t.Fatal(err)
		}
		h := m.Main.Predict([]float64{q})
		y := q * q
		if err := loop.Observe([]float64{q}, y); err != nil {
			t.Fatal(err)
		}
		de := loop.Examples()
		last := de[len(de)-1]
		if len(de) != n0+step+1 || !last.OutOfSample {
			t.Fatalf("step %d: |D_e| = %d, want %d", step, len(de), n0+step+1)
		}
		// The loss is that of h_D, the predictor that chose x, before x
		// joined D (a 1-NN predictor would score 0 after).
		if want := (y - h) * (y - h); last.Loss != want || want == 0 {
			t.Errorf("step %d: loss %v want %v (> 0)", step, last.Loss, want)
		}
		if err := loop.Observe([]float64{q}, y); err == nil {
			t.Errorf("step %d: second Observe without Fit: no error", step)
		}
	}
	if xs, _ := loop.Data(); len(xs) != 7 {
		t.Errorf("|D| = %d want 7", len(xs))
	}
}

func TestReplicateVariance(t *testing.T) {
	for _, tc := range []struct {
		ys   []float64
		want float64
	}{
		// K/(K-1) * empirical variance = the unbiased sample variance.
		{[]float64{1, 3}, 2},
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 32.0 / 7},
	} {
		got, err := ReplicateVariance(tc.ys)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ReplicateVariance(%v) = %v, %v; want %v", tc.ys, got, err, tc.want)
		}
	}
	if _, err := ReplicateVariance([]float64{1}); err == nil {
		t.Error("one replicate: no error")
	}
}

func TestLogErrors(t *testing.T) {
	// A linear fit of log losses that are exactly linear in phi reproduces
	// them through exp.
	phi := [][]float64{{0}, {1}, {2}, {3}}
	loss := []float64{math.Exp(-4), math.Exp(-2), 1, math.Exp(2)}
	e, err := LogErrors{Learner: Linear{}, Floor: 1e-300}.FitErrors(phi, loss)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.Predict([]float64{4}), math.Exp(4); math.Abs(got-want)/want > 1e-6 {
		t.Errorf("e(4) = %v want %v", got, want)
	}
	if _, err := (LogErrors{Learner: Linear{}}).FitErrors(phi, []float64{1, -1, 1, 1}); err == nil {
		t.Error("negative loss: no error")
	}
}

type constLearner float64

func (c constLearner) Fit([][]float64, []float64) (Predictor, error) { return c, nil }
func (c constLearner) Predict([]float64) float64                     { return float64(c) }

func TestEnsemble(t *testing.T) {
	// Members predicting 1, 2, 6: mean 3, population variance (4+1+9)/3.
	e := Ensemble{Members: []Learner{constLearner(1), constLearner(2), constLearner(6)}}
	p, err := e.Fit([][]float64{{0}}, []float64{0})
	if err != nil {
		t.Fatal(err)
	}
	m := p.(*EnsembleModel)
	if m.Predict(nil) != 3 || math.Abs(m.Variance(nil)-14.0/3) > 1e-12 {
		t.Errorf("mean %v variance %v, want 3, 14/3", m.Predict(nil), m.Variance(nil))
	}
	// As the main predictor it also serves the v feature.
	cfg := Config{Main: e, Features: Featurizer{Set: FeatV}, Error: LogErrors{Learner: Linear{}}}
	_, phi, err := fitModel(&cfg, [][]float64{{0}, {1}}, []float64{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := phi.Features(nil, []float64{0.5})[0]; math.Abs(got-math.Log(14.0/3)) > 1e-12 {
		t.Errorf("v feature %v want log(14/3)", got)
	}
	if _, err := (Ensemble{Members: []Learner{constLearner(1)}}).Fit(nil, nil); err == nil {
		t.Error("one member: no error")
	}
}
