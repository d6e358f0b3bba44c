package deuptest_test

import (
	"math"
	"testing"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/deup/deuptest"
	"github.com/deup-screening/deup/deup/mlp"
	"github.com/deup-screening/deup/gp"
)

func gpConfig(restarts int) deup.GP {
	return deup.GP{Config: gp.FitConfig{Family: gp.Matern52, Standardize: true, Restarts: restarts, Seed: 1}}
}

// paperConfig is Fig. 1's DEUP: a GP main predictor, its log variance as the
// only feature, a GP error predictor on log squared errors.
func paperConfig() deup.Config {
	return deup.Config{
		Main:     gpConfig(2),
		Features: deup.Featurizer{Set: deup.FeatV},
		Error:    deup.LogErrors{Learner: gpConfig(2)},
	}
}

func TestFig1GPUnderCovers(t *testing.T) {
	// The premise of the paper's Figure 1: the GP's own 2-sigma band misses
	// the truth in the gap.
	p := deuptest.Fig1(1)
	m, err := gpConfig(2).Fit(p.TrainX, p.TrainY)
	if err != nil {
		t.Fatal(err)
	}
	g := m.(deup.GPModel)
	cov := deuptest.Coverage(p.Truth, func(x float64) (float64, float64) {
		return g.Predict([]float64{x}), math.Sqrt(g.Variance([]float64{x}))
	}, p.GapGrid(41), 2)
	t.Logf("GP 2-sigma coverage in the gap: %.2f", cov)
	if cov > 0.5 {
		t.Errorf("GP covers %.2f of the gap; the toy needs a GP that under-covers (<= 0.5)", cov)
	}
}

func TestCheckFixed(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  deup.Config
	}{
		{"gp main, v, gp errors", paperConfig()},
		{"gp main, xv, gp errors", func() deup.Config {
			c := paperConfig()
			c.Features.Set = deup.FeatX | deup.FeatV
			return c
		}()},
		{"gp main, dv, gp errors", func() deup.Config {
			c := paperConfig()
			c.Features.Set = deup.FeatD | deup.FeatV
			return c
		}()},
		{"mlp main, xv from a gp, gp errors (paper SMO 1-D)", deup.Config{
			Main:     mlp.Learner{Config: mlp.Config{Seed: 1}},
			Features: deup.Featurizer{Set: deup.FeatX | deup.FeatV, Variance: gpConfig(2)},
			Error:    deup.LogErrors{Learner: gpConfig(2)},
		}},
		{"gp main, v, mlp errors", func() deup.Config {
			c := paperConfig()
			c.Error = deup.LogErrors{Learner: mlp.Learner{Config: mlp.Config{Hidden: []int{32, 32}, Epochs: 300, Seed: 2}}}
			return c
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) { deuptest.CheckFixed(t, tc.cfg) })
	}
}

func TestCheckLoop(t *testing.T) { deuptest.CheckLoop(t, paperConfig(), 8) }

func TestCheckAleatoric(t *testing.T) { deuptest.CheckAleatoric(t, deup.Linear{}) }

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; panic(r) }
func (r *recorder) Helper()               {}

type constErr struct{ v float64 }

func (c constErr) FitErrors([][]float64, []float64) (deup.Predictor, error) { return c, nil }
func (c constErr) Predict([]float64) float64                                { return c.v }

// TestChecksCanFail: an error predictor that ignores D_e and predicts the
// GP's typical in-data error everywhere must fail CheckFixed.
func TestChecksCanFail(t *testing.T) {
	c := paperConfig()
	c.Error = constErr{1e-6}
	r := &recorder{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil && p != r {
				panic(p)
			}
		}()
		deuptest.CheckFixed(r, c)
	}()
	if !r.failed {
		t.Error("CheckFixed passed a constant error predictor")
	}
}
