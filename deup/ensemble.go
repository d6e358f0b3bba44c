package deup

import (
	"errors"
	"fmt"
)

// Ensemble is a Learner (and VarianceLearner) of independently fitted
// members, for example MLPs with different seeds (a Deep Ensemble): its
// fitted model predicts the members' mean and, as Variance, their
// population variance — the ensemble form of the v feature.
type Ensemble struct{ Members []Learner }

// EnsembleModel is a fitted Ensemble.
type EnsembleModel struct{ Members []Predictor }

// Fit implements Learner.
func (e Ensemble) Fit(x [][]float64, y []float64) (Predictor, error) {
	return e.fit(x, y)
}

// FitVariance implements VarianceLearner.
func (e Ensemble) FitVariance(x [][]float64, y []float64) (VarianceModel, error) {
	return e.fit(x, y)
}

func (e Ensemble) fit(x [][]float64, y []float64) (*EnsembleModel, error) {
	if len(e.Members) < 2 {
		return nil, errors.New("deup: an ensemble needs at least 2 members")
	}
	m := &EnsembleModel{Members: make([]Predictor, len(e.Members))}
	for i, l := range e.Members {
		p, err := l.Fit(x, y)
		if err != nil {
			return nil, fmt.Errorf("deup: ensemble member %d: %w", i, err)
		}
		m.Members[i] = p
	}
	return m, nil
}

// Predict is the members' mean at x.
func (m *EnsembleModel) Predict(x []float64) float64 {
	mean, _ := m.stats(x)
	return mean
}

// Variance is the members' population variance at x.
func (m *EnsembleModel) Variance(x []float64) float64 {
	_, v := m.stats(x)
	return v
}

func (m *EnsembleModel) stats(x []float64) (mean, variance float64) {
	n := float64(len(m.Members))
	p := make([]float64, len(m.Members))
	for i, q := range m.Members {
		p[i] = q.Predict(x)
		mean += p[i] / n
	}
	for _, v := range p {
		variance += (v - mean) * (v - mean) / n
	}
	return mean, variance
}
