package doseresp

import (
	"math"
	"testing"

	"gonum.org/v1/plot/palette/moreland"
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
