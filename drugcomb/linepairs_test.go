package drugcomb

import (
	"slices"
	"testing"
)

// TestPanelLines: the model's lines matched to the screen's by name
// (IndexName ignores case), in model-line order, missing ones
// skipped; only keeps one screen line. Expected values worked by hand from
// the names.
func TestPanelLines(t *testing.T) {
	screen := []string{"PC-3", "MCF7", "A549"}
	model := []string{"a549", "HT29", "PC-3"}
	for _, tc := range []struct {
		only int
		want []LinePair
	}{
		{-1, []LinePair{{Screen: 2, Model: 0}, {Screen: 0, Model: 2}}},
		{0, []LinePair{{Screen: 0, Model: 2}}},
		{1, nil},
	} {
		if got := PanelLines(screen, model, tc.only); !slices.Equal(got, tc.want) {
			t.Errorf("only %d: %v, want %v", tc.only, got, tc.want)
		}
	}
}

// TestModelLines: a one-line model takes the given screen line as its line
// 0; a panel model's lines are PanelLines' (the cases above), all of them
// or the given line's alone.
func TestModelLines(t *testing.T) {
	screen := []string{"PC-3", "MCF7", "A549"}
	for _, tc := range []struct {
		model []string
		cell  int
		only  bool
		want  []LinePair
	}{
		{nil, 1, false, []LinePair{{Screen: 1, Model: 0}}},
		{[]string{"A549"}, 1, true, []LinePair{{Screen: 1, Model: 0}}},
		{[]string{"a549", "HT29", "PC-3"}, 0, false, []LinePair{{Screen: 2, Model: 0}, {Screen: 0, Model: 2}}},
		{[]string{"a549", "HT29", "PC-3"}, 0, true, []LinePair{{Screen: 0, Model: 2}}},
		{[]string{"a549", "HT29", "PC-3"}, 1, true, nil},
	} {
		if got := ModelLines(screen, tc.model, tc.cell, tc.only); !slices.Equal(got, tc.want) {
			t.Errorf("model %v, cell %d, only %v: %v, want %v", tc.model, tc.cell, tc.only, got, tc.want)
		}
	}
}
