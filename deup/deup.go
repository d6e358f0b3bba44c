package deup

import (
	"errors"
	"fmt"
	"math"
)

// Learner fits a predictor on a data set. Fit must not keep or modify x or y
// after it returns (it may copy them). Learners are used many times on
// different subsets (Alg. 2), so Fit must not mutate the Learner itself.
type Learner interface {
	Fit(x [][]float64, y []float64) (Predictor, error)
}

// Predictor maps an input to a scalar prediction.
type Predictor interface {
	Predict(x []float64) float64
}

// VarianceLearner fits a model of predictive variance (a GP posterior, an
// ensemble) on a data set; it provides the v feature.
type VarianceLearner interface {
	FitVariance(x [][]float64, y []float64) (VarianceModel, error)
}

// VarianceModel returns a model variance at x (must be > 0 or the feature
// is floored, see Featurizer.VarFloor).
type VarianceModel interface {
	Variance(x []float64) float64
}

// ErrorLearner fits the error predictor e on stationarizing features phi and
// observed losses (the D_e data set). LogErrors turns any Learner into one.
type ErrorLearner interface {
	FitErrors(phi [][]float64, loss []float64) (Predictor, error)
}

// Example is one entry of the error predictor's training set D_e: the
// stationarizing features of the training set at x, and the loss of the main
// predictor at x.
type Example struct {
	Phi  []float64
	Loss float64
	// OutOfSample is false for the optional in-sample entries (the paper
	// adds them so the error predictor learns that errors are low on seen
	// points).
	OutOfSample bool
}

// Loss is l(y, yhat); nil in a Config means the squared error (y-yhat)^2.
type Loss func(y, yhat float64) float64

// SquaredError is (y - yhat)^2, the loss of the paper's regression tasks.
func SquaredError(y, yhat float64) float64 { d := y - yhat; return d * d }

// Config wires the pieces of DEUP together. Main, Features and Error are
// required; Aleatoric and Loss may be nil (a(x) = 0, squared error).
type Config struct {
	Main      Learner
	Features  Featurizer
	Error     ErrorLearner
	Aleatoric Predictor // a(x); nil means a(x) = 0 (noiseless oracle)
	Loss      Loss
}

func (c *Config) loss(y, yhat float64) float64 {
	if c.Loss == nil {
		return SquaredError(y, yhat)
	}
	return c.Loss(y, yhat)
}

func (c *Config) check() error {
	switch {
	case c.Main == nil:
		return errors.New("deup: config has no main learner")
	case c.Error == nil:
		return errors.New("deup: config has no error learner")
	}
	return c.Features.check()
}

// Fitted is a fitted DEUP model: the main predictor h, the stationarizing
// features phi of its training set, the error predictor e and the aleatoric
// estimate a. The epistemic uncertainty is u(x) = e(phi(x)) - a(x).
type Fitted struct {
	Main      Predictor
	Features  *FeatureMap
	Error     Predictor
	Aleatoric Predictor // nil means 0
}

// Estimate is DEUP's output at one input.
type Estimate struct {
	Mean      float64 // h(x)
	Error     float64 // e(phi(x)): predicted expected loss (total uncertainty)
	Aleatoric float64 // a(x), 0 when no estimator is set
	Epistemic float64 // Error - Aleatoric; may be negative (not clipped)
}

// Predict returns h(x), e(phi(x)), a(x) and u(x) = e - a. NaN inputs give
// NaN outputs.
func (m *Fitted) Predict(x []float64) Estimate {
	var est Estimate
	est.Mean = m.Main.Predict(x)
	est.Error = m.Error.Predict(m.Features.Features(nil, x))
	if m.Aleatoric != nil {
		est.Aleatoric = m.Aleatoric.Predict(x)
	}
	est.Epistemic = est.Error - est.Aleatoric
	return est
}

// Sigma returns sqrt(max(u(x), 0)) together with the mean: the standard
// deviation of the Gaussian that DEUP-EI plugs into Expected Improvement
// when the loss is the squared error.
func (m *Fitted) Sigma(x []float64) (mean, sigma float64) {
	est := m.Predict(x)
	return est.Mean, math.Sqrt(math.Max(est.Epistemic, 0))
}

// fitModel fits h and phi on (x, y): one "Fit predictor h_D and features
// phi_D on D" line of Algorithms 2 and 3.
func fitModel(c *Config, x [][]float64, y []float64) (Predictor, *FeatureMap, error) {
	if len(x) != len(y) {
		return nil, nil, fmt.Errorf("deup: %d inputs but %d targets", len(x), len(y))
	}
	if len(x) == 0 {
		return nil, nil, errors.New("deup: empty training set")
	}
	h, err := c.Main.Fit(x, y)
	if err != nil {
		return nil, nil, fmt.Errorf("deup: fit main predictor: %w", err)
	}
	phi, err := c.Features.Fit(x, y, h)
	if err != nil {
		return nil, nil, err
	}
	return h, phi, nil
}

// ErrorSet splits D_e into features and losses for FitErrors.
func ErrorSet(de []Example) (phi [][]float64, loss []float64) {
	phi = make([][]float64, len(de))
	loss = make([]float64, len(de))
	for i, e := range de {
		phi[i], loss[i] = e.Phi, e.Loss
	}
	return phi, loss
}
