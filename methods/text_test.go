package methods

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/uq"
)

func TestHoldoutWriteText(t *testing.T) {
	tests := []struct {
		name string
		h    Holdout
		frac float64
		want string
	}{
		{"no calibration, 70/30", Holdout{Rest: []int{0, 1, 2, 3, 4}, Split: drugcomb.Split{Train: []int{0, 1, 2}, Val: []int{3, 4}}}, 0,
			"calibration: none (--calibration 0): the model gives no intervals (deup predict --coverage)\n" +
				"split 70/30 (seed 7) of the other 5 pairs: 3 in-sample (mu fitted), 2 out-of-sample (sigma path, early stopping)\n"},
		{"calibration and a test part", Holdout{Cal: []int{5}, Rest: []int{0, 1, 2, 3, 4}, Split: drugcomb.Split{Train: []int{0, 1}, Val: []int{2, 3}, Test: []int{4}}}, 0.1,
			"calibration: 1 of 6 pairs (--calibration 0.1, seed 7) held out before the split, never seen by mu or sigma\n" +
				"split 70/30 (seed 7): train 2, validation 2 (sigma path, early stopping), test 1 (never seen in training)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := tc.h.WriteText(&b, "70/30", tc.frac, 7); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
}

func TestReportWriteText(t *testing.T) {
	mc, err := Default().New(MCDropout, Config{Passes: 4, Dropout: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	sf, err := deupnet.ParseSigmaFeatures("density,counts")
	if err != nil {
		t.Fatal(err)
	}
	deup, err := Default().New(DEUP, Config{DEUP: deupnet.Options{SigmaFeatures: sf}})
	if err != nil {
		t.Fatal(err)
	}
	// 3 epochs in 1.5 s: 0.500 s/epoch.
	fit := func(name string) string {
		return "trained " + name + ": 3 epochs in all (last run: 3, best epoch 2) in 1.5s (0.500 s/epoch, BLAS " + model.BLAS() + ")\n"
	}
	plain := Holdout{Split: drugcomb.Split{Train: []int{0, 1}, Val: []int{2, 3}}}
	bench := Holdout{Split: drugcomb.Split{Train: []int{0}, Val: []int{1, 2}, Test: []int{3, 4, 5}}}
	// A plain conformal calibrator whose scores are all 0.5: mu ± 0.5 at
	// 90 %, in the score's units; a scale calibrator with scale 1: mu ±
	// z_0.95 = 1.645 sigma_total.
	scores := make([]float64, 20)
	for i := range scores {
		scores[i] = 0.5
	}
	cal := &uq.Calibrator{Method: uq.MethodConformal, N: 20, Scores: scores}
	scale := &uq.Calibrator{Method: uq.MethodScale, N: 20, Scale: 1}
	tests := []struct {
		name string
		m    model.Method
		h    Holdout
		r    Report
		want string
	}{
		{"out-of-sample, no replicates", mc, plain, Report{Epochs: 3, LastEpoch: 3, BestEpoch: 2, FitTime: 1500 * time.Millisecond, ValRMSE: 1.5, ValRefs: Refs{MeanRMSE: 2, NoiseSD: math.NaN()}},
			fit("mcdropout") + "out-of-sample RMSE 1.5 on 2 pairs; trivial references: predicting the in-sample mean 2, replicate noise unknown (no pair measured twice)\n" +
				"note: the out-of-sample pairs chose the stopping epoch, so this RMSE is slightly optimistic; --split 40/30/30 gives an unseen test score\n" +
				mc.AleatoricNote() + "\n"},
		{"benchmark with replicates", mc, bench, Report{Epochs: 3, LastEpoch: 3, BestEpoch: 2, FitTime: 1500 * time.Millisecond, ValRMSE: 1.25, ValRefs: Refs{MeanRMSE: 2, NoiseSD: 0.5, ReplPairs: 4}, TestRMSE: 1.75, TestMeanRMSE: 2.5, TestCorr: 0.25},
			fit("mcdropout") + "validation RMSE 1.25 on 2 pairs; trivial references: predicting the in-sample mean 2, replicate noise sd 0.5 (4 pairs measured more than once)\n" +
				"test RMSE 1.75 on 3 pairs (predicting the training mean: 2.5); corr(sigma_total, |residual|) on test 0.250\n" +
				mc.AleatoricNote() + "\n"},
		{"calibration and test intervals", mc, bench, Report{Epochs: 3, LastEpoch: 3, BestEpoch: 2, FitTime: 1500 * time.Millisecond, ValRMSE: 1, ValRefs: Refs{MeanRMSE: 2, NoiseSD: math.NaN()}, TestRMSE: 1, TestMeanRMSE: 2, TestCorr: 0.5,
			Calibration: cal, TestIntervals: &uq.IntervalMetrics{N: 3, Coverage: 66.7, Width: 1, WorstQuintileCoverage: 50}},
			fit("mcdropout") + "validation RMSE 1 on 2 pairs; trivial references: predicting the in-sample mean 2, replicate noise unknown (no pair measured twice)\n" +
				"test RMSE 1 on 3 pairs (predicting the training mean: 2); corr(sigma_total, |residual|) on test 0.500\n" +
				mc.AleatoricNote() + "\n" +
				"calibration stored: " + cal.String() + "; at 90% coverage the interval is mu ± 0.5 (deup predict --coverage 0.9)\n" +
				"test: the stored 90% interval covers 66.7% of the 3 test pairs (mean width 1; worst sigma-quintile coverage 50.0%)\n"},
		{"scale calibration, in sigma_total", mc, plain, Report{Epochs: 3, LastEpoch: 3, BestEpoch: 2, FitTime: 1500 * time.Millisecond, ValRMSE: 1, ValRefs: Refs{MeanRMSE: 2, NoiseSD: math.NaN()}, Calibration: scale},
			fit("mcdropout") + "out-of-sample RMSE 1 on 2 pairs; trivial references: predicting the in-sample mean 2, replicate noise unknown (no pair measured twice)\n" +
				"note: the out-of-sample pairs chose the stopping epoch, so this RMSE is slightly optimistic; --split 40/30/30 gives an unseen test score\n" +
				mc.AleatoricNote() + "\n" +
				"calibration stored: " + scale.String() + "; at 90% coverage the interval is mu ± 1.645 sigma_total (deup predict --coverage 0.9)\n"},
		{"DEUP names its sigma features", deup, plain, Report{Epochs: 3, LastEpoch: 3, BestEpoch: 2, FitTime: 1500 * time.Millisecond, ValRMSE: 1, ValRefs: Refs{MeanRMSE: 2, NoiseSD: math.NaN()}},
			fit("deup") + "sigma features: " + sf.String() + ", relative to the 2 in-sample pairs (docs/sigma-features.md)\n" +
				"out-of-sample RMSE 1 on 2 pairs; trivial references: predicting the in-sample mean 2, replicate noise unknown (no pair measured twice)\n" +
				"note: the out-of-sample pairs chose the stopping epoch, so this RMSE is slightly optimistic; --split 40/30/30 gives an unseen test score\n" +
				deup.AleatoricNote() + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := tc.r.WriteText(&b, tc.m, tc.h); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}
