package tui

import "testing"

// TestChooseCellLine: the name typed after L picks the line of that name
// (any case), else the first line it starts, else the first it is part of.
func TestChooseCellLine(t *testing.T) {
	lines := []string{"PC-3", "MCF7", "MCF10A", "A549", "NCI-H23", "HOP-62"}
	for _, tc := range []struct {
		name string
		want int
	}{
		{"", -1},
		{"mcf7", 1},   // exact, any case
		{"MCF", 1},    // first prefix
		{"mcf10", 2},  // prefix
		{"549", 3},    // part of A549
		{"h23", 4},    // part of NCI-H23
		{"-", 0},      // part of PC-3, the first that holds it
		{"HeLa", -1},  // none
		{"PC-3 ", -1}, // the caller trims; a trailing space matches nothing
		{"hop-62", 5}, // exact
	} {
		if got := ChooseCellLine(lines, tc.name); got != tc.want {
			t.Errorf("ChooseCellLine(%q) = %d, want %d", tc.name, got, tc.want)
		}
	}
}
