package methods

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/deup-screening/deup/model"
)

func TestNew(t *testing.T) {
	c := Config{Members: 2, Passes: 3, Dropout: 0.1}
	for _, name := range Default().Names() {
		m, err := Default().New(name, c)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if m == nil {
			t.Fatalf("New(%q) = nil", name)
		}
	}
	if _, err := Default().New("svm", c); !errors.Is(err, ErrUnknownMethod) {
		t.Errorf("New(svm): %v, want ErrUnknownMethod", err)
	}
	if _, err := Default().New(Ensemble, Config{}); err == nil {
		t.Error("ensemble of 0 members: no error")
	}
	if _, err := Default().New(MCDropout, Config{Passes: 1, Dropout: 0.1}); err == nil {
		t.Error("MC-Dropout with 1 pass: no error")
	}
}

func TestNewHoldout(t *testing.T) {
	h, err := NewHoldout(150, 0.1, [3]float64{40, 30, 30}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// 15 held out, then 40/30/30 of 135 (the counts deup train prints).
	if len(h.Cal) != 15 || len(h.Rest) != 135 || len(h.Split.Train) != 54 || len(h.Split.Val) != 41 || len(h.Split.Test) != 40 || !h.Benchmark() {
		t.Fatalf("sizes cal %d rest %d split %d/%d/%d", len(h.Cal), len(h.Rest), len(h.Split.Train), len(h.Split.Val), len(h.Split.Test))
	}
	seen := map[int]bool{}
	for _, part := range [][]int{h.Cal, h.Split.Train, h.Split.Val, h.Split.Test} {
		for _, i := range part {
			if seen[i] || i < 0 || i >= 150 {
				t.Fatalf("pair %d twice or out of range", i)
			}
			seen[i] = true
		}
	}
	if len(seen) != 150 || !slices.IsSorted(h.Cal) || !slices.IsSorted(h.Rest) {
		t.Fatalf("not a sorted partition of 0..149")
	}
	again, _ := NewHoldout(150, 0.1, [3]float64{40, 30, 30}, 1)
	if !slices.Equal(h.Cal, again.Cal) || !slices.Equal(h.Split.Test, again.Split.Test) {
		t.Error("same seed, different hold-out")
	}
	none, err := NewHoldout(10, 0, [3]float64{70, 30, 0}, 1)
	if err != nil || len(none.Cal) != 0 || len(none.Rest) != 10 || none.Benchmark() {
		t.Errorf("frac 0: %v, cal %d rest %d", err, len(none.Cal), len(none.Rest))
	}
	var he *HoldoutError
	if _, err := NewHoldout(50, 0.1, [3]float64{70, 30, 0}, 1); !errors.As(err, &he) || he.K != 5 || he.Need == 0 {
		t.Errorf("5 calibration pairs: %v", err)
	}
	if _, err := NewHoldout(20, 0.9, [3]float64{70, 30, 0}, 1); !errors.As(err, &he) || he.Need != 0 {
		t.Errorf("2 pairs left: %v", err)
	}
}

func TestTrivialReferences(t *testing.T) {
	nan := math.NaN()
	d := &model.Dataset{Y: []float64{1, 3, 5, 9}, N: []int{1, 3, 2, 1}, Var: []float64{nan, 4, 1, nan}}
	r := TrivialReferences(d, []int{0, 1}, []int{2, 3}) // mean 2; residuals 3 and 7
	if want := math.Sqrt((9 + 49) / 2.0); math.Abs(r.MeanRMSE-want) > 1e-12 {
		t.Errorf("MeanRMSE %v, want %v", r.MeanRMSE, want)
	}
	// Pooled: (2*4 + 1*1) / (2 + 1) = 3.
	if r.ReplPairs != 2 || math.Abs(r.NoiseSD-math.Sqrt(3)) > 1e-12 {
		t.Errorf("noise %v over %d pairs, want sqrt(3) over 2", r.NoiseSD, r.ReplPairs)
	}
	if r := TrivialReferences(&model.Dataset{Y: []float64{1}, N: []int{1}, Var: []float64{nan}}, []int{0}, []int{0}); !math.IsNaN(r.NoiseSD) || r.ReplPairs != 0 {
		t.Errorf("no replicates: %+v", r)
	}
}

// TestReportTraining: the model file's record of a fit takes the split's
// sizes from the holdout, and the test RMSE only under a benchmark split;
// a NaN reference (no replicates) is left out (trained.Float).
func TestReportTraining(t *testing.T) {
	r := &Report{Epochs: 12, BestEpoch: 7, ValRMSE: 2.5, TestRMSE: 3, ValRefs: Refs{MeanRMSE: 4, NoiseSD: math.NaN()}}
	for _, tc := range []struct {
		fracs    [3]float64
		test     int
		testRMSE bool
	}{{[3]float64{70, 30, 0}, 0, false}, {[3]float64{40, 30, 30}, 30, true}} {
		h, err := NewHoldout(100, 0, tc.fracs, 1)
		if err != nil {
			t.Fatal(err)
		}
		tr := r.Training("x", 9, h)
		if tr.Split != "x" || tr.Seed != 9 || tr.InSample != len(h.Split.Train) || tr.OutOfSample != len(h.Split.Val) || tr.Test != tc.test ||
			tr.Epochs != 12 || tr.BestEpoch != 7 || *tr.ValRMSE != 2.5 || *tr.MeanRMSE != 4 || tr.NoiseSD != nil || (tr.TestRMSE != nil) != tc.testRMSE {
			t.Errorf("fracs %v: %+v", tc.fracs, tr)
		}
	}
}

// TestFitValidationScorer: a method whose model keeps its validation
// pairs (neighbors) reports the RMSE it measured on them before they
// joined its memory, not the in-memory RMSE of its final predictions.
func TestFitValidationScorer(t *testing.T) {
	d := tinyDataset(t)
	var h Holdout
	for i := range d.Pairs {
		if i%3 == 0 {
			h.Split.Val = append(h.Split.Val, i)
		} else {
			h.Split.Train = append(h.Split.Train, i)
		}
	}
	m, err := Default().New(Neighbors, Config{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Fit(context.Background(), m, d, h, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in, _, err := rmseOn(m, d, h.Split.Val)
	if err != nil {
		t.Fatal(err)
	}
	want := m.(validationScorer).ValidationRMSE()
	if r.ValRMSE != want || want == in {
		t.Errorf("reported validation RMSE %v, want the method's %v (in memory: %v)", r.ValRMSE, want, in)
	}
}
