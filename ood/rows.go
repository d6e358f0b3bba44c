package ood

import (
	"context"
	"errors"
	"fmt"

	"github.com/deup-screening/deup/deup"
)

// RowFitter adapts deup's learners to Fitter for examples that are rows of
// Inputs: Learner fits the main predictor on the training rows (val is not
// used: deup's learners do not early-stop), and its model variance comes
// from Variance, or, when Variance is nil, from the fitted predictor itself
// if it implements deup.VarianceModel (a GP, a deup.Ensemble). The seed is
// not used: deup's learners carry theirs in their configuration.
type RowFitter struct {
	Inputs   [][]float64
	Learner  deup.Learner
	Variance deup.VarianceLearner
	Targets  []float64
}

// Fit implements Fitter.
func (r RowFitter) Fit(_ context.Context, train, _ []int, _ uint64) (MainModel, error) {
	if r.Learner == nil {
		return nil, errors.New("ood: RowFitter has no learner")
	}
	x, y, err := r.rows(train)
	if err != nil {
		return nil, err
	}
	h, err := r.Learner.Fit(x, y)
	if err != nil {
		return nil, err
	}
	var v deup.VarianceModel
	if r.Variance != nil {
		if v, err = r.Variance.FitVariance(x, y); err != nil {
			return nil, err
		}
	} else {
		vm, ok := h.(deup.VarianceModel)
		if !ok {
			return nil, errors.New("ood: RowFitter: the main predictor has no Variance method and no variance learner is set")
		}
		v = vm
	}
	return rowModel{r.Inputs, h, v}, nil
}

func (r RowFitter) rows(idx []int) ([][]float64, []float64, error) {
	x := make([][]float64, len(idx))
	y := make([]float64, len(idx))
	for k, i := range idx {
		if i < 0 || i >= len(r.Inputs) || i >= len(r.Targets) {
			return nil, nil, fmt.Errorf("ood: example %d out of range of %d inputs", i, len(r.Inputs))
		}
		x[k], y[k] = r.Inputs[i], r.Targets[i]
	}
	return x, y, nil
}

type rowModel struct {
	inputs [][]float64
	h      deup.Predictor
	v      deup.VarianceModel
}

func (m rowModel) Predict(idx []int) (mean, variance []float64, err error) {
	mean, variance = make([]float64, len(idx)), make([]float64, len(idx))
	for k, i := range idx {
		if i < 0 || i >= len(m.inputs) {
			return nil, nil, fmt.Errorf("ood: example %d out of range of %d inputs", i, len(m.inputs))
		}
		mean[k], variance[k] = m.h.Predict(m.inputs[i]), m.v.Variance(m.inputs[i])
	}
	return mean, variance, nil
}

// RowKDE is a DensityFitter for examples that are rows of Inputs: a
// Gaussian product-kernel density (deup.FitKDE) of the training rows.
type RowKDE struct {
	Inputs    [][]float64
	Bandwidth deup.Bandwidth
}

// FitDensity implements DensityFitter.
func (r RowKDE) FitDensity(train []int) (Density, error) {
	x := make([][]float64, len(train))
	for k, i := range train {
		if i < 0 || i >= len(r.Inputs) {
			return nil, fmt.Errorf("ood: example %d out of range of %d inputs", i, len(r.Inputs))
		}
		x[k] = r.Inputs[i]
	}
	kde, err := deup.FitKDE(x, r.Bandwidth)
	if err != nil {
		return nil, err
	}
	return rowKDE{r.Inputs, kde}, nil
}

type rowKDE struct {
	inputs [][]float64
	kde    *deup.KDE
}

func (d rowKDE) LogDensity(idx []int) ([]float64, error) {
	out := make([]float64, len(idx))
	for k, i := range idx {
		if i < 0 || i >= len(d.inputs) {
			return nil, fmt.Errorf("ood: example %d out of range of %d inputs", i, len(d.inputs))
		}
		out[k] = d.kde.LogDensity(d.inputs[i])
	}
	return out, nil
}
