package active

import (
	"math"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/uq"
)

// TestUnmeasuredCandidates: 3 kept drugs (screen indices 4, 1, 7) on two
// lines, one pair measured: 3 × 2 − 1 = 5 candidates, each with its
// feature rows and model line.
func TestUnmeasuredCandidates(t *testing.T) {
	table := TableOracle{NewPairOnLine(4, 1, 0): 1}
	cands, mp := UnmeasuredCandidates([]int{4, 1, 7}, []drugcomb.LinePair{{Screen: 0, Model: 2}, {Screen: 1, Model: 0}}, table)
	if len(cands) != 5 || len(mp) != 5 {
		t.Fatalf("%d candidates, %d model pairs; want 5", len(cands), len(mp))
	}
	if cands[0] != NewPairOnLine(4, 1, 1) || mp[0] != (model.PairRef{A: 0, B: 1, Line: 0}) {
		t.Errorf("first: %v %v, want (1,4)@1 rows 0,1 line 0", cands[0], mp[0])
	}
	if cands[4] != NewPairOnLine(1, 7, 1) || mp[4] != (model.PairRef{A: 1, B: 2, Line: 0}) {
		t.Errorf("last: %v %v, want (1,7)@1 rows 1,2 line 0", cands[4], mp[4])
	}
}

// TestRank: greedy scores are mu; the batch is the highest, best first.
func TestRank(t *testing.T) {
	acq, err := ParseAcquisition("greedy")
	if err != nil {
		t.Fatal(err)
	}
	cands := []PairOnLine{{0, 1, 0}, {0, 2, 0}, {1, 2, 0}, {2, 3, 0}}
	preds := []SurrogatePrediction{{Mu: 1, SigmaTotal: 1}, {Mu: 4, SigmaTotal: 1}, {Mu: 3, SigmaTotal: 1}, {Mu: -2, SigmaTotal: 1}}
	pick, scores, err := Rank(acq, cands, preds, TableOracle{{0, 3, 0}: 5}, 2, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(pick) != 2 || pick[0] != 1 || pick[1] != 2 || scores[1] != 4 {
		t.Errorf("pick %v scores %v, want [1 2] with score 4 first", pick, scores)
	}
}

// TestCalibrated: a scale calibration fitted on residuals ±2 of sigma 1
// has scale 2 (the ML scale, sqrt(mean(z²))); the 90 % interval is
// mu ± 1.645 × 2 and the calibrated sigmas are twice the model's.
func TestCalibrated(t *testing.T) {
	y, mu, sd := make([]float64, 20), make([]float64, 20), make([]float64, 20)
	for i := range y {
		y[i], sd[i] = 2-4*float64(i%2), 1 // 20 residuals ±2: enough for 90 %
	}
	cal, err := uq.FitScale(y, mu, sd)
	if err != nil {
		t.Fatal(err)
	}
	preds := []SurrogatePrediction{{Mu: 10, SigmaTotal: 1, SigmaEpistemic: 0.5, SigmaAleatoric: 0.5}}
	in, iv, bad, err := Calibrated(preds, &cal, 0.9, true)
	if err != nil || bad != -1 {
		t.Fatal(err, bad)
	}
	half := 1.6448536269514722 * 2 // Phi^-1(0.95) × scale
	if math.Abs(iv[0].Upper-10-half) > 1e-9 || math.Abs(10-iv[0].Lower-half) > 1e-9 {
		t.Errorf("interval %+v, want 10 ± %.6f", iv[0], half)
	}
	if math.Abs(in[0].SigmaTotal-2) > 1e-9 || math.Abs(in[0].SigmaEpistemic-1) > 1e-9 || in[0].Mu != 10 {
		t.Errorf("calibrated %+v, want sigmas doubled", in[0])
	}
	in, _, _, _ = Calibrated(preds, &cal, 0.9, false)
	if &in[0] != &preds[0] {
		t.Errorf("without scale: %+v, want the model's", in[0])
	}
}
