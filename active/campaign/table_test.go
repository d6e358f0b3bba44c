package campaign

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/trained"
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
		wantSetting                Setting // Unnamed: no error
	}{
		{"one line", "zip", "b", "", []int{1}, "B", 3, 0, Unnamed},
		{"all lines", "", "", "all", []int{0, 1, 2}, "A,B,C", 8, 1, Unnamed},
		{"a list, in its order, once each", "zip", "", "C, a,,C", []int{2, 0}, "C,A", 5, 1, Unnamed},
		{"no such line", "zip", "D", "", nil, "", 0, 0, CellLine},
		{"no such line in the list", "zip", "", "A,D", nil, "", 0, 0, CellLines},
		{"both", "zip", "A", "all", nil, "", 0, 0, LineChoice},
		{"no such score", "bliss", "A", "", nil, "", 0, 0, Score},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Select(sc, tc.score, tc.cellLine, tc.cellLines)
			var se *SettingError
			if tc.wantSetting != Unnamed {
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
			if y := tab.Oracle[active.NewPairOnLine(0, 1, tc.wantLines[0])]; y != float64(10*tc.wantLines[0]+1) {
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
		got := FromModel(tc.id, Target{Dir: tc.dir, CellLine: tc.cellLine, Score: tc.score})
		dir, cl, sco := got.Dir, got.CellLine, got.Score
		if dir != tc.wantDir || cl != tc.wantLine || sco != tc.wantSco {
			t.Errorf("%s: %q %q %q, want %q %q %q", tc.name, dir, cl, sco, tc.wantDir, tc.wantLine, tc.wantSco)
		}
	}
}

// TestScreensTable: a drug whose SMILES cannot be fingerprinted is left out
// with its pairs, named and counted among the screen's drugs, also when the
// settings are refused; the synthetic default ("") is kept whole.
func TestScreensTable(t *testing.T) {
	sc, err := data.Synth(data.DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	broken := sc.WithDrugs(nil)                                           // a copy of the drugs
	broken.Drugs[4].Name, broken.Drugs[4].SMILES = "Methotrexate", "CC(C" // as in cli's TestCampaignBrokenSMILES
	screens := Screens{Open: func(dir string) (*drugcomb.Screen, error) {
		if dir == "" {
			return sc, nil
		}
		return broken, nil
	}}
	for _, tc := range []struct {
		name, dir, cellLine string
		wantLeft            int // drugs left out, of len(sc.Drugs)
		wantSetting         Setting
	}{
		{"synthetic default", "", sc.CellLines[0], 0, Unnamed},
		{"a broken SMILES", "broken", sc.CellLines[0], 1, Unnamed},
		{"a broken SMILES and no such line", "broken", "NOPE", 1, CellLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, un, err := screens.Table(tc.dir, "", tc.cellLine, "")
			if len(un.Left) != tc.wantLeft || un.Drugs != len(sc.Drugs) {
				t.Errorf("left out %d of %d drugs (%v), want %d of %d", len(un.Left), un.Drugs, un.Left, tc.wantLeft, len(sc.Drugs))
			}
			if tc.wantLeft > 0 && !strings.HasPrefix(un.Left[0], "drug Methotrexate (") {
				t.Errorf("left out %q, want Methotrexate named", un.Left[0])
			}
			var se *SettingError
			if tc.wantSetting != Unnamed {
				if !errors.As(err, &se) || se.Setting != tc.wantSetting {
					t.Errorf("error %v, want a SettingError for %s", err, tc.wantSetting)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(tab.Screen.Drugs), len(sc.Drugs)-tc.wantLeft; got != want {
				t.Errorf("table on %d drugs, want %d", got, want)
			}
		})
	}
}

// TestFromModelFile: a model file gives its screen, cell line and score
// (FromModel's rule); a bare method file, which does not record them, is
// trained.ErrNoMeta; a missing file says so.
func TestFromModelFile(t *testing.T) {
	sc, err := data.Synth(data.SynthConfig{Seed: 5, Drugs: 12, CellLines: 1, Pairs: 50, ReplicateFrac: 0.2, MaxReplicates: 2,
		LatentDim: 2, Scale: 5, NoiseMin: 1, NoiseMax: 2, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := features.Build(sc.Drugs, features.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := model.NewDataset(sc, f, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := deupnet.New(deupnet.Config{Config: model.Config{TowerHidden: 8, TowerOut: 4, CombHidden: 4, SigmaHidden: 4, MaxEpochs: 1, Seed: 1}})
	if err := m.Fit(t.Context(), ds, drugcomb.SplitRandom(len(ds.Pairs), [3]float64{0.7, 0.3, 0}, 1), nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	meta := &trained.Meta{Method: "deup", Drugs: trained.NewDrugs(sc.Drugs),
		Screen:   trained.Screen{Name: sc.Name, SynthSeed: 5, CellLine: sc.CellLines[0], Score: sc.ScoreNames[0], Pairs: len(sc.Pairs), Digest: trained.PairsDigest(sc, 0, 0)},
		Training: trained.Training{Split: "70/30", Seed: 1, InSample: 35, OutOfSample: 15, ValRMSE: trained.Float(1.5), NoiseSD: trained.Float(math.NaN())}}
	withMeta := filepath.Join(dir, "m.bin")
	if err := trained.WriteFile(withMeta, &trained.Bundle{Method: m, Meta: meta}); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.bin")
	fb, err := os.Create(bare)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Save(fb); err != nil {
		t.Fatal(err)
	}
	fb.Close()

	got, err := FromModelFile(withMeta, methods.Default().Load, Target{Score: "zip"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Dir != "" || got.CellLine != sc.CellLines[0] || got.Score != "zip" || got.Model.Meta.Screen.Pairs != len(sc.Pairs) {
		t.Errorf("settings %q %q %q, %d pairs; want the synthetic default, %q, zip (given), %d", got.Dir, got.CellLine, got.Score,
			got.Model.Meta.Screen.Pairs, sc.CellLines[0], len(sc.Pairs))
	}
	if _, err := FromModelFile(bare, methods.Default().Load, Target{}); !errors.Is(err, trained.ErrNoMeta) {
		t.Errorf("bare method file: %v, want ErrNoMeta", err)
	}
	if _, err := FromModelFile(filepath.Join(dir, "none.bin"), methods.Default().Load, Target{}); err == nil || errors.Is(err, trained.ErrNoMeta) {
		t.Errorf("missing file: %v", err)
	}
}

// TestCheckInit: the settings Init refuses for its table and mode, and
// their messages (deup campaign init names the flags instead: the cli's
// TestHints).
func TestCheckInit(t *testing.T) {
	one, many := &Table{Lines: []int{0}}, &Table{Lines: []int{0, 1}}
	for _, tc := range []struct {
		name       string
		mode       string
		perLine    int
		tab        *Table
		initN      int
		candidates string
		want       string // "": accepted
	}{
		{"a cap per line on one line", active.Live, 2, one, 0, "", "a cap per cell line needs several cell lines (a campaign across several cell lines)"},
		{"a cap per line on two lines", active.Live, 2, many, 0, "", ""},
		{"candidates for a retrospective campaign", active.Retrospective, 0, one, 0, "c.csv", "a candidates file is for live campaigns (a retrospective campaign's candidates are the screen's pairs)"},
		{"candidates for a live campaign", active.Live, 0, one, 0, "c.csv", ""},
		{"an initial set for a live campaign", active.Live, 0, one, 10, "", "an initial set is for retrospective campaigns (a live campaign starts from every measured pair)"},
		{"an initial set for a retrospective campaign", active.Retrospective, 0, one, 10, "", ""},
	} {
		err := CheckInit(active.Config{Mode: tc.mode, MaxPerLine: tc.perLine}, tc.tab, tc.initN, tc.candidates)
		var se *SettingError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (!errors.As(err, &se) || err.Error() != tc.want):
			t.Errorf("%s: %v, want the SettingError %q", tc.name, err, tc.want)
		}
	}
}
