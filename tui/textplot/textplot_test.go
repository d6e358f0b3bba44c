package textplot

import (
	"math"
	"testing"
	"unicode/utf8"
)

func TestPlots(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name, got, want string
	}{
		// 10 cells over [0, 10): value v lands in cell floor(v).
		{"histogram", Histogram([]float64{0.5, 1.5, 1.6, 9.9, nan, 3, 3.2, 3.4, 3.9}, 0, 10, 10), "▂▄ █     ▂"},
		{"histogram clamps", Histogram([]float64{-5, 15}, 0, 10, 4), "█  █"},
		{"interval", Interval(5, 2, 0, 10, 10), "   ├─●─┤  "},
		{"interval no sigma", Interval(5, nan, 0, 10, 10), "     ●    "},
		{"interval nan", Interval(nan, 1, 0, 10, 10), "          "},
		// [-5, 5) in 10 cells: zero in cell 5, μ=3 in cell 8, μ+σ=4 in cell 9
		{"bar positive", Bar(3, 1, -5, 5, 10), "     ████─"},
		// μ=−3 in cell 2, μ−σ=−4 in cell 1; the bar covers cells 2..5
		{"bar negative", Bar(-3, 1, -5, 5, 10), " ─████    "},
		{"bar nan", Bar(nan, 1, -5, 5, 10), "     │    "},
		// zero in cell floor(40/101·20) = 7, "61" in the last two cells
		{"axis", Axis(-40, 61, 20), "-40    0          61"},
		{"axis positive", Axis(2, 9, 12), "2          9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}

func TestWidth(t *testing.T) {
	for _, w := range []int{1, 2, 7, 80} {
		for _, s := range []string{Histogram([]float64{1, 2}, 0, 3, w), Interval(1, 5, 0, 3, w), Bar(-1, 9, -2, 3, w), Axis(-1000, 1000, w)} {
			if n := utf8.RuneCountInString(s); n != w {
				t.Errorf("width %d: %q has %d cells", w, s, n)
			}
		}
	}
}

func TestNumber(t *testing.T) {
	for x, want := range map[float64]string{12.345: "12.3", -225: "-225", 1234.5: "1234", 0.000123: "0.000123", 0: "0"} {
		if got := Number(x); got != want {
			t.Errorf("Number(%v) = %q, want %q", x, got, want)
		}
	}
}
