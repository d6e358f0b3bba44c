package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/model"
)

// figureResult is a hand-made result of two methods whose sigmas live on
// scales ten times apart (as an ensemble's and DEUP's do on PC-3), with 120
// test pairs.
func figureResult() *Result {
	r := &Result{Seeds: []uint64{1}, TestPairs: 120, Rows: []Row{{Method: "wide"}, {Method: "narrow"}}}
	for i := 0; i < 120; i++ {
		y := float64(i%17) - 8
		r.Predictions = append(r.Predictions,
			PairPrediction{Seed: 1, Method: "wide", Pair: i, Y: y, Prediction: model.Prediction{Mu: 0, SigmaTotal: 10 + float64(i%7)}},
			PairPrediction{Seed: 1, Method: "narrow", Pair: i, Y: y, Prediction: model.Prediction{Mu: 1, SigmaTotal: 1 + 0.1*float64(i%5)}})
	}
	return r
}

// TestResidualPanelsShareAxes: every residual panel spans the same sigma
// and |residual| ranges, from 0 to the largest over all methods (16 and 9
// here), and names the dashed line in its legend.
func TestResidualPanelsShareAxes(t *testing.T) {
	panels, err := figureResult().residualPanels()
	if err != nil {
		t.Fatal(err)
	}
	if len(panels) != 2 {
		t.Fatalf("%d panels", len(panels))
	}
	for _, p := range panels {
		if p.X.Min != 0 || p.X.Max != 16 || p.Y.Min != 0 || p.Y.Max != 9 {
			t.Errorf("%s: x [%g, %g], y [%g, %g]; want [0, 16], [0, 9]", p.Title.Text, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
		}
	}
	dir := t.TempDir()
	if _, err := figureResult().WriteFigures(dir); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, FigResiduals+".svg"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(svg), "|residual| = sigma"); n != 2 {
		t.Errorf("residuals.svg names the line %d times, want once per panel (2)", n)
	}
}

// TestPairPanelsSayHowMany: the pairs figure says it shows 50 of the 120
// test pairs.
func TestPairPanelsSayHowMany(t *testing.T) {
	panels, err := figureResult().pairPanels(50)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range panels {
		if !strings.HasPrefix(p.X.Label.Text, "50 of 120 test pairs (seed 1)") {
			t.Errorf("%s: x label %q", p.Title.Text, p.X.Label.Text)
		}
	}
}
