package bench

import (
	"math"
	"testing"

	"github.com/deup-screening/deup/model"
)

// TestSummarizeEpistemic checks EpiSummary by hand: drugs 0 and 1 are in
// training pairs. Test pairs (0,1), (0,2), (2,3), (3,3) have 0, 1, 2 and 1
// unseen drugs (a drug with itself counts once); σ_epi 1, 2, 6, 0: means
// 1, (2+0)/2 = 1, 6; one zero of four; σ_total 5, 5, 70, 1: σ_epi below
// a tenth of it for the third (6 < 7) and the zero, two small of four. With a truth (noise sd 1 each,
// |y−μ| = 1, 3, 9, 2: excess 0, 2, 8, 1, ranks 1, 3, 4, 2 against σ_epi
// ranks 2, 3, 4, 1) Spearman = 1 − 6·Σd²/(n(n²−1)) = 1 − 6·2/60 = 0.8.
// A split by drug (no test pair without an unseen drug) takes unseen0
// from the validation pairs with two training drugs.
func TestSummarizeEpistemic(t *testing.T) {
	seen := map[int]bool{0: true, 1: true}
	pairs := []model.PairRef{{A: 0, B: 1}, {A: 0, B: 2}, {A: 2, B: 3}, {A: 3, B: 3}}
	pred := []model.Prediction{{Mu: 0, SigmaEpistemic: 1, SigmaTotal: 5}, {Mu: 0, SigmaEpistemic: 2, SigmaTotal: 5}, {Mu: 0, SigmaEpistemic: 6, SigmaTotal: 70}, {Mu: 0, SigmaEpistemic: 0, SigmaTotal: 1}}
	y := []float64{1, -3, 9, 2}
	s := summarizeEpistemic(pred, pairs, y, []float64{1, 1, 1, 1}, nil, nil, seen, 1e-9)
	if s.Unseen != [3]float64{1, 1, 6} || s.N != [3]int{1, 2, 1} || s.ZeroFraction != 0.25 || s.SmallFraction != 0.5 || s.FromVal {
		t.Errorf("got %+v", s)
	}
	if math.Abs(s.ExcessSpearman-0.8) > 1e-12 {
		t.Errorf("excess spearman %v, want 0.8", s.ExcessSpearman)
	}
	val := []model.Prediction{{SigmaEpistemic: 3}, {SigmaEpistemic: 5}, {SigmaEpistemic: 100}}
	vp := []model.PairRef{{A: 0, B: 1}, {A: 1, B: 1}, {A: 1, B: 2}}
	s = summarizeEpistemic(pred[1:], pairs[1:], y[1:], nil, val, vp, seen, 1e-9)
	if s.Unseen[0] != 4 || s.N[0] != 2 || !s.FromVal || !math.IsNaN(s.ExcessSpearman) {
		t.Errorf("split by drug: got %+v; want unseen0 = (3+5)/2 from 2 validation pairs", s)
	}
}
