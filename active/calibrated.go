package active

import (
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/uq"
	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a calibrated interval of one prediction.
type Interval struct{ Lower, Upper float64 }

// FromModel returns the model's predictions as the acquisitions read them.
func FromModel(preds []model.Prediction) []SurrogatePrediction {
	ap := make([]SurrogatePrediction, len(preds))
	for i, p := range preds {
		ap[i] = SurrogatePrediction{Mu: p.Mu, SigmaTotal: p.SigmaTotal, SigmaEpistemic: p.SigmaEpistemic, SigmaAleatoric: p.SigmaAleatoric}
	}
	return ap
}

// Calibrated returns the interval of each prediction at coverage from the
// calibration cal and, with scale, the predictions whose sigmas are scaled
// by CalibratedSigma (what the acquisition then reads); without scale it
// returns preds itself. The error names the index of the prediction whose
// interval failed (bad is that index, -1 for none).
func Calibrated(preds []SurrogatePrediction, cal *uq.Calibrator, coverage float64, scale bool) (acqIn []SurrogatePrediction, iv []Interval, bad int, err error) {
	acqIn, iv = preds, make([]Interval, len(preds))
	if scale {
		acqIn = make([]SurrogatePrediction, len(preds))
	}
	for i, p := range preds {
		lo, hi, err := cal.Interval(p.Mu, p.SigmaTotal, coverage)
		if err != nil {
			return nil, nil, i, err
		}
		iv[i] = Interval{Lower: lo, Upper: hi}
		if scale {
			acqIn[i] = CalibratedSigma(p, lo, hi, coverage)
		}
	}
	return acqIn, iv, -1, nil
}

// CalibratedSigma scales a prediction's sigmas by the calibration:
// f = (upper - lower)/(2 z sigma_total), z = Phi^-1((1 + coverage)/2), the
// factor making the Gaussian central interval of sigma_total the
// calibrated one.
func CalibratedSigma(p SurrogatePrediction, lo, hi, coverage float64) SurrogatePrediction {
	z := distuv.UnitNormal.Quantile((1 + coverage) / 2)
	f := (hi - lo) / (2 * z * p.SigmaTotal)
	p.SigmaTotal *= f
	p.SigmaEpistemic *= f
	p.SigmaAleatoric *= f
	return p
}
