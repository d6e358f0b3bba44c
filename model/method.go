package model

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/deup-screening/deup/drugcomb"
)

// Prediction is one pair's prediction in the units of the training target.
// SigmaTotal² = SigmaEpistemic² + SigmaAleatoric² (epistemic clipped at 0).
type Prediction struct {
	Mu             float64
	SigmaTotal     float64 // predictive standard deviation of a measurement like the training targets
	SigmaEpistemic float64
	SigmaAleatoric float64 // 0 when the method has no aleatoric estimate (see AleatoricNote)
}

// Progress is sent after every epoch, and once at the end of each network's
// training with Done set (Epoch = epochs run, BestEpoch = the one kept).
// Losses are in standardized target units; RMSEs in original units.
type Progress struct {
	Method    string
	Member    int // ensemble member (0-based); 0 for single models
	Members   int // number of members (1 for single models)
	Epoch     int // 1-based epochs completed
	MaxEpochs int
	TrainLoss float64 // mean training loss of the epoch (NLL or MSE)
	OutLoss   float64 // DEUP: mean out-of-sample (σ_out) NLL of the epoch; NaN otherwise
	ValRMSE   float64 // μ on the validation split
	BestEpoch int
	Elapsed   time.Duration
	Done      bool
}

// Detail is the epoch's losses, validation RMSE and best epoch, as a
// progress bar shows them (DEUP's out-of-sample loss when it has one).
func (p Progress) Detail() string {
	if math.IsNaN(p.TrainLoss) && math.IsNaN(p.OutLoss) { // no loss: a grid search (neighbors' K)
		return fmt.Sprintf("val-rmse %.3g best %d", p.ValRMSE, p.BestEpoch)
	}
	if math.IsNaN(p.OutLoss) {
		return fmt.Sprintf("loss %.3f val-rmse %.3g best %d", p.TrainLoss, p.ValRMSE, p.BestEpoch)
	}
	return fmt.Sprintf("loss %.3f out %.3f val-rmse %.3g best %d", p.TrainLoss, p.OutLoss, p.ValRMSE, p.BestEpoch)
}

// Method is the interface DEUP and the baselines share. The benchmark, the
// active-learning loop, the CLI and the TUI use only this.
//
// Fit trains from scratch on d using split.Train (and split.Val where the
// method needs it: DEUP's out-of-sample set and early stopping); it never
// reads split.Test. progress may be nil; cancelling ctx stops training with
// ctx.Err(). Predict is safe for concurrent use after Fit; pairs index rows
// of f, which must be built with the same FeatureConfig as the training
// features. Save writes the trained model; Load reads any method back.
type Method interface {
	Name() string
	Fit(ctx context.Context, d *Dataset, split drugcomb.Split, progress func(Progress)) error
	Predict(f *Features, pairs []PairRef) ([]Prediction, error)
	Save(w io.Writer) error
	// FeatureConfig is the configuration of the training features.
	FeatureConfig() FeatureConfig
	// AleatoricNote says where SigmaAleatoric comes from, or why it is 0.
	AleatoricNote() string
}

// CheckPredict checks a Predict call of a method: trained, features of
// the configuration want, pairs of drugs of f on one of the model's lines
// (at most 1: line 0 only).
func CheckPredict(trained bool, want FeatureConfig, lines int, f *Features, pairs []PairRef) error {
	if !trained {
		return fmt.Errorf("model: predict: model is not trained")
	}
	if f == nil {
		return fmt.Errorf("model: predict: no features")
	}
	if f.Config != want {
		return fmt.Errorf("model: predict: features %+v, model trained on %+v", f.Config, want)
	}
	nd := f.NumDrugs()
	for i, p := range pairs {
		if p.A < 0 || p.A >= nd || p.B < 0 || p.B >= nd {
			return fmt.Errorf("model: predict: pair %d references drug (%d, %d) of %d", i, p.A, p.B, nd)
		}
		if p.Line < 0 || p.Line >= max(lines, 1) {
			return fmt.Errorf("model: predict: pair %d references cell line %d; the model knows %d", i, p.Line, max(lines, 1))
		}
	}
	return nil
}
