package campaign

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model/trained"
)

// panelScreen is a screen of 3 drugs on 3 cell lines: every pair measured
// on every line, but pair 0+2 on C without a score.
func panelScreen() *drugcomb.Screen {
	sc := &drugcomb.Screen{Name: "panel", Drugs: []drugcomb.Drug{{ID: "d0"}, {ID: "d1"}, {ID: "d2"}}, CellLines: []string{"A", "B", "C"},
		ScoreNames: []string{"zip", "loewe"}}
	for cl := range 3 {
		for a := range 3 {
			for b := a + 1; b < 3; b++ {
				zip := float64(10*cl + a + b)
				if cl == 2 && a == 0 && b == 2 {
					zip = math.NaN()
				}
				sc.Pairs = append(sc.Pairs, drugcomb.Pair{A: a, B: b, CellLine: cl, N: 1, Mean: []float64{zip, 1}, Var: []float64{math.NaN(), math.NaN()}})
			}
		}
	}
	return sc
}

// TestSelect: the lines and pairs a campaign runs on, for each way of
// naming them, and the settings refused.
func TestSelect(t *testing.T) {
	sc := panelScreen()
	for _, tc := range []struct {
		name                       string
		score, cellLine, cellLines string
		wantLines                  []int
		wantLabel                  string
		wantPairs, wantSkipped     int
		wantSetting                string // "": no error
	}{
		{"one line", "zip", "b", "", []int{1}, "B", 3, 0, ""},
		{"all lines", "", "", "all", []int{0, 1, 2}, "A,B,C", 8, 1, ""},
		{"a list, in its order, once each", "zip", "", "C, a,,C", []int{2, 0}, "C,A", 5, 1, ""},
		{"no such line", "zip", "D", "", nil, "", 0, 0, "--cell-line"},
		{"no such line in the list", "zip", "", "A,D", nil, "", 0, 0, "--cell-lines"},
		{"both", "zip", "A", "all", nil, "", 0, 0, "--cell-line and --cell-lines"},
		{"no such score", "bliss", "A", "", nil, "", 0, 0, "--score"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Select(sc, tc.score, tc.cellLine, tc.cellLines)
			var se *SettingError
			if tc.wantSetting != "" {
				if !errors.As(err, &se) || se.Setting != tc.wantSetting {
					t.Fatalf("error %v, want a SettingError for %s", err, tc.wantSetting)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tab.Lines, tc.wantLines) || tab.Label != tc.wantLabel || len(tab.Oracle) != tc.wantPairs || tab.Skipped != tc.wantSkipped {
				t.Errorf("lines %v %q, %d pairs, %d skipped; want %v %q, %d, %d", tab.Lines, tab.Label, len(tab.Oracle), tab.Skipped,
					tc.wantLines, tc.wantLabel, tc.wantPairs, tc.wantSkipped)
			}
			if y := tab.Oracle[active.NewPair(0, 1, tc.wantLines[0])]; y != float64(10*tc.wantLines[0]+1) {
				t.Errorf("pair d0+d1 on line %d: %v, want its zip score %d", tc.wantLines[0], y, 10*tc.wantLines[0]+1)
			}
		})
	}
}

// TestFromModel: a campaign runs on the model's screen, cell line and score
// unless the settings name others; on another screen only the directory
// given counts.
func TestFromModel(t *testing.T) {
	id := trained.Screen{Dir: "/s/pc3", CellLine: "PC-3", Score: "loewe"}
	synth := trained.Screen{CellLine: "SYNTH-1", Score: "synergy"}
	for _, tc := range []struct {
		name                       string
		id                         trained.Screen
		dir, cellLine, score       string
		wantDir, wantLine, wantSco string
	}{
		{"all from the model", id, "", "", "", "/s/pc3", "PC-3", "loewe"},
		{"the score given", id, "", "", "zip", "/s/pc3", "PC-3", "zip"},
		{"the same screen named", id, "/s/pc3", "DU-145", "", "/s/pc3", "DU-145", "loewe"},
		{"another screen", id, "/s/other", "", "", "/s/other", "", ""},
		{"the synthetic default", synth, "", "", "", "", "SYNTH-1", "synergy"},
		{"a screen instead of the synthetic default", synth, "/s/pc3", "", "", "/s/pc3", "", ""},
	} {
		dir, cl, sco := FromModel(tc.id, tc.dir, tc.cellLine, tc.score)
		if dir != tc.wantDir || cl != tc.wantLine || sco != tc.wantSco {
			t.Errorf("%s: %q %q %q, want %q %q %q", tc.name, dir, cl, sco, tc.wantDir, tc.wantLine, tc.wantSco)
		}
	}
}
