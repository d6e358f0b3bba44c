package plotstyle

import (
	"image/color"
	"testing"
)

// On [174.9, 175.1] gonum's DefaultTicks labels "174.9", "175.0",
// "175.1" (gonum/plot v0.15.2); a count axis shows "175" alone.
func TestCountTicksNarrow(t *testing.T) {
	var labels []string
	for _, tk := range (CountTicks{}).Ticks(174.9, 175.1) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if len(labels) != 1 || labels[0] != "175" {
		t.Errorf("labels %q, want [175]", labels)
	}
	if got := (CountTicks{}).Ticks(175, 175); len(got) != 1 || got[0].Label != "175" {
		t.Errorf("flat range: %v", got)
	}
}

func TestCountTicks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		min, max float64
	}{
		{"narrow range", 171, 179},
		{"campaign", 144, 444},
		{"small", 0, 3},
		{"large", 0, 150000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			labels := 0
			for _, tk := range (CountTicks{}).Ticks(tc.min, tc.max) {
				if tk.Label == "" {
					continue
				}
				labels++
				if tk.Value != float64(int64(tk.Value)) {
					t.Errorf("labelled tick at %g", tk.Value)
				}
				for _, c := range tk.Label {
					if c == '.' || c == 'e' {
						t.Errorf("label %q of %g", tk.Label, tk.Value)
					}
				}
			}
			if labels < 1 {
				t.Errorf("%d labelled ticks on [%g, %g]", labels, tc.min, tc.max)
			}
		})
	}
}

// The palette's colours must differ clearly: every pair at least 60 apart
// in RGB distance (plotutil's default palette has two reds, its colours 0
// (241,90,96) and 5 (206,112,88), 42 apart; Okabe–Ito's closest pair,
// orange and vermillion, is 67 apart).
func TestColorsDistinct(t *testing.T) {
	dist := func(a, b color.Color) float64 {
		r1, g1, b1, _ := a.RGBA()
		r2, g2, b2, _ := b.RGBA()
		d := func(x, y uint32) float64 { return float64(int(x>>8) - int(y>>8)) }
		return d(r1, r2)*d(r1, r2) + d(g1, g2)*d(g1, g2) + d(b1, b2)*d(b1, b2)
	}
	for i := 0; i < NumColors; i++ {
		for j := i + 1; j < NumColors; j++ {
			if d := dist(Color(i), Color(j)); d < 60*60 {
				t.Errorf("colours %d and %d too close (squared distance %g)", i, j, d)
			}
		}
	}
	if Color(NumColors) != Color(0) {
		t.Error("Color does not cycle")
	}
}

// TestMeanBand: the line runs through the means at x0, x0+1, …; the band
// goes out along mean+se and back along mean−se.
func TestMeanBand(t *testing.T) {
	poly, l, err := MeanBand(1, []float64{2, 4, 3}, []float64{0.5, 1, 0}, Color(0))
	if err != nil {
		t.Fatal(err)
	}
	wantLine := [][2]float64{{1, 2}, {2, 4}, {3, 3}}
	for k, w := range wantLine {
		if x, y := l.XYs[k].X, l.XYs[k].Y; x != w[0] || y != w[1] {
			t.Errorf("line[%d] = (%v, %v), want %v", k, x, y, w)
		}
	}
	wantBand := [][2]float64{{1, 2.5}, {2, 5}, {3, 3}, {3, 3}, {2, 3}, {1, 1.5}}
	ring := poly.XYs[0]
	if len(ring) != len(wantBand) {
		t.Fatalf("band has %d points, want %d", len(ring), len(wantBand))
	}
	for k, w := range wantBand {
		if x, y := ring[k].X, ring[k].Y; x != w[0] || y != w[1] {
			t.Errorf("band[%d] = (%v, %v), want %v", k, x, y, w)
		}
	}
}
