package doseresp

import (
	"math"
	"testing"

	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/vg"
)

// TestHeatmapRange: the heat map draws a matrix whatever its range. The
// range -87.2512091167 to 6.8917211154 (a block of DrugComb's
// drugcomb_blocks_input.csv, `deup data synergy --plots 2`) made
// moreland's Palette(64) overshoot its maximum by a rounding error and
// panic; blueRed takes the colours at i/63 of the range instead.
func TestHeatmapRange(t *testing.T) {
	lo := math.Float64frombits(0xc055d013cf672bbf) // -87.2512091167
	hi := math.Float64frombits(0x401b911f570f2ebd) // 6.8917211154
	for _, tc := range []struct {
		name      string
		m         [][]float64
		symmetric bool
	}{
		{"drugcomb block range", [][]float64{{lo, 0}, {1, hi}}, false},
		{"symmetric", [][]float64{{lo, 0}, {1, hi}}, true},
		{"constant", [][]float64{{3, 3}, {3, 3}}, false},
		{"with NaN", [][]float64{{math.NaN(), 1}, {2, 5}}, false},
	} {
		b := &Block{DrugRow: "a", DrugCol: "b", ConcRow: []float64{0, 1}, ConcCol: []float64{0, 1}}
		if _, err := heatmap(b, tc.m, tc.name, tc.symmetric); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}

	pal, err := blueRed(64)
	if err != nil {
		t.Fatal(err)
	}
	cm := moreland.SmoothBlueRed()
	cm.SetMin(0)
	cm.SetMax(1)
	for _, i := range []int{0, 63} {
		want, _ := cm.At(float64(i) / 63)
		if pal[i] != want {
			t.Errorf("colour %d = %v, want moreland's %v", i, pal[i], want)
		}
	}
	if len(pal) != 64 {
		t.Errorf("%d colours, want 64", len(pal))
	}
}

// TestCurvesDegenerateDoses: the single-drug panel draws when its log axis
// would have no positive range. gonum widens a one-value range by ±1 (to 0
// for a dose of 1) and its log scale panics on values ≤ 0, which made
// WritePlots panic on a block whose drugs have one non-zero dose each (the
// same one); with no positive dose the axis is linear.
func TestCurvesDegenerateDoses(t *testing.T) {
	for _, tc := range []struct {
		name     string
		row, col []float64
	}{
		{"one dose each, the same", []float64{0, 1}, []float64{0, 1}},
		{"one dose each, different", []float64{0, 1}, []float64{0, 10}},
		{"no positive dose", []float64{0, 0}, []float64{0, 0}},
		{"a dose series", []float64{0, 0.1, 1}, []float64{0, 1, 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &Block{DrugRow: "a", DrugCol: "b", ConcRow: tc.row, ConcCol: tc.col}
			resp := make([][]float64, len(tc.row))
			for i := range resp {
				resp[i] = make([]float64, len(tc.col))
				for j := range resp[i] {
					resp[i][j] = float64(10 * (i + j))
				}
			}
			p, err := curves(b, &Result{Response: resp})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if e := recover(); e != nil {
					t.Fatalf("drawing panicked: %v", e)
				}
			}()
			if _, err := p.WriterTo(4*vg.Inch, 3*vg.Inch, "png"); err != nil {
				t.Fatal(err)
			}
		})
	}
}
