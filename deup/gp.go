package deup

import (
	"fmt"

	"github.com/deup-screening/deup/gp"
	"gonum.org/v1/gonum/mat"
)

// GP adapts the exact GP of package gp (hyperparameters by marginal
// likelihood, Config) to Learner and VarianceLearner. Its fitted predictor
// is a GPModel, which also serves the v feature when it is the main
// predictor. As the error predictor of the paper, use
// LogErrors{Learner: GP{...}}: a GP on log losses, output through exp.
type GP struct{ Config gp.FitConfig }

// GPModel is a fitted GP: Predict is the posterior mean, Variance the
// posterior variance of the latent function.
type GPModel struct{ GP *gp.GP }

// Fit implements Learner.
func (g GP) Fit(x [][]float64, y []float64) (Predictor, error) {
	m, err := g.fit(x, y)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// FitVariance implements VarianceLearner.
func (g GP) FitVariance(x [][]float64, y []float64) (VarianceModel, error) {
	m, err := g.fit(x, y)
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (g GP) fit(x [][]float64, y []float64) (GPModel, error) {
	X, err := Matrix(x)
	if err != nil {
		return GPModel{}, err
	}
	m, err := gp.Fit(X, y, g.Config)
	if err != nil {
		return GPModel{}, err
	}
	return GPModel{m}, nil
}

// Predict is the posterior mean at x.
func (m GPModel) Predict(x []float64) float64 { mu, _ := m.GP.Predict(x); return mu }

// Variance is the posterior variance of the latent function at x.
func (m GPModel) Variance(x []float64) float64 { _, v := m.GP.Predict(x); return v }

// Matrix copies rows into an n×d matrix; ragged or empty input is an error.
func Matrix(x [][]float64) (*mat.Dense, error) {
	if len(x) == 0 || len(x[0]) == 0 {
		return nil, fmt.Errorf("deup: empty input matrix")
	}
	d := len(x[0])
	m := mat.NewDense(len(x), d, nil)
	for i, r := range x {
		if len(r) != d {
			return nil, fmt.Errorf("deup: row %d has %d columns, want %d", i, len(r), d)
		}
		m.SetRow(i, r)
	}
	return m, nil
}
