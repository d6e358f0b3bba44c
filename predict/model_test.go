package predict

import (
	"errors"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/trained"
)

// savedScreen saves a two-line, three-drug screen whose one measured pair
// per line is (a, b): 2 on L0, 5 on L1; it returns the directory, the
// screen and a model's metadata naming it (trained on L0, score s).
func savedScreen(t *testing.T) (string, *drugcomb.Screen, *trained.Meta) {
	t.Helper()
	sc := &drugcomb.Screen{Name: "t", Drugs: []drugcomb.Drug{{ID: "a", SMILES: "C"}, {ID: "b", SMILES: "CC"}, {ID: "c", SMILES: "CCC"}},
		CellLines: []string{"L0", "L1"}, ScoreNames: []string{"s"},
		Pairs: []drugcomb.Pair{
			{A: 0, B: 1, CellLine: 0, N: 1, Mean: []float64{2}, Var: []float64{math.NaN()}},
			{A: 0, B: 1, CellLine: 1, N: 1, Mean: []float64{5}, Var: []float64{math.NaN()}},
		}}
	dir := filepath.Join(t.TempDir(), "screen")
	if err := drugcomb.Save(dir, sc); err != nil {
		t.Fatal(err)
	}
	meta, err := trained.NewMeta(sc, dir, 0, 0, "deup", nil)
	if err != nil {
		t.Fatal(err)
	}
	return dir, sc, meta
}

// TestModelDrugs: the drugs of the screen given, else the model's own, else
// trained.ErrNoMeta.
func TestModelDrugs(t *testing.T) {
	dir, _, meta := savedScreen(t)
	own := &trained.Bundle{Meta: &trained.Meta{Drugs: []trained.Drug{{ID: "m1", SMILES: "C"}, {ID: "m2", SMILES: "O"}}}}
	gone := filepath.Join(t.TempDir(), "gone")
	for _, tc := range []struct {
		name    string
		tm      *trained.Bundle
		dir     string
		ids     []string
		own     bool
		err     error  // errors.Is target
		errText string // in the error
	}{
		{"screen given", own, dir, []string{"a", "b", "c"}, false, nil, ""},
		{"screen given, no metadata", &trained.Bundle{}, dir, []string{"a", "b", "c"}, false, nil, ""},
		{"the model's own", own, "", []string{"m1", "m2"}, true, nil, ""},
		{"the model's own, its screen's metadata", &trained.Bundle{Meta: meta}, "", []string{"a", "b", "c"}, true, nil, ""},
		{"no metadata", &trained.Bundle{}, "", nil, false, trained.ErrNoMeta, ""},
		{"screen given, missing", own, gone, nil, false, nil, "screen directory " + gone + " does not exist"}, // drugcomb.OpenDir
	} {
		t.Run(tc.name, func(t *testing.T) {
			drugs, own, err := ModelDrugs(tc.tm, tc.dir)
			switch {
			case tc.err != nil || tc.errText != "":
				if tc.err != nil && !errors.Is(err, tc.err) || err == nil || !strings.Contains(err.Error(), tc.errText) {
					t.Errorf("err %v, want %v %q", err, tc.err, tc.errText)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			var ids []string
			for _, d := range drugs {
				ids = append(ids, d.ID)
			}
			if !reflect.DeepEqual(ids, tc.ids) || own != tc.own {
				t.Errorf("drugs %v, own %v; want %v, %v", ids, own, tc.ids, tc.own)
			}
		})
	}
}

// TestTableForModel: the rows' lines are the model's panel or its one line,
// the score its column; the lines scored follow --cell-lines (Lines).
func TestTableForModel(t *testing.T) {
	oneLine := &trained.Bundle{Meta: &trained.Meta{Screen: trained.Screen{CellLine: "PC-3", Score: "css_ri"}}}
	panel := &trained.Bundle{Meta: &trained.Meta{Screen: trained.Screen{CellLine: "A", CellLines: []string{"A", "B", "C"}, Score: "zip"}}}
	for _, tc := range []struct {
		name      string
		tm        *trained.Bundle
		spec      string
		lines     []int
		one       string
		tabLines  []string
		score     string
		errString string
	}{
		{"no metadata", &trained.Bundle{}, "", []int{0}, "", []string{""}, "", ""},
		{"one line", oneLine, "", []int{0}, "PC-3", []string{"PC-3"}, "css_ri", ""},
		{"one line, named", oneLine, "pc-3", []int{0}, "PC-3", []string{"PC-3"}, "css_ri", ""},
		{"one line, another", oneLine, "MCF7", nil, "", nil, "", "cell lines MCF7: the model was trained on one cell line"},
		{"panel, all", panel, "", []int{0, 1, 2}, "A", []string{"A", "B", "C"}, "zip", ""},
		{"panel, two", panel, "C, a", []int{2, 0}, "A", []string{"A", "B", "C"}, "zip", ""},
		{"panel, unknown", panel, "D", nil, "", nil, "", `cell lines: the model knows no cell line "D" (it has A, B, C)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tab Table
			lines, one, err := tab.ForModel(tc.tm, tc.spec)
			if tc.errString != "" {
				if err == nil || err.Error() != tc.errString {
					t.Errorf("err %v, want %s", err, tc.errString)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(lines, tc.lines) || one != tc.one || !reflect.DeepEqual(tab.Lines, tc.tabLines) || tab.Score != tc.score {
				t.Errorf("lines %v, one %q, table lines %v, score %q; want %v, %q, %v, %q", lines, one, tab.Lines, tab.Score, tc.lines, tc.one, tc.tabLines, tc.score)
			}
		})
	}
}

// TestLookUpMeasured: the measured values come from the screen given, else
// the model's own (changed when its pairs are not those trained on); the
// model's own screen gone is missing (rows measured false), the screen
// given gone an error; a model without metadata looks nothing up.
func TestLookUpMeasured(t *testing.T) {
	dir, _, meta := savedScreen(t)
	gone := filepath.Join(t.TempDir(), "gone")
	with := func(edit func(*trained.Meta)) *trained.Bundle {
		m := *meta
		edit(&m)
		return &trained.Bundle{Meta: &m}
	}
	same := func(*trained.Meta) {}
	ab := drugcomb.PairKey{A: "a", B: "b"}
	both := []map[drugcomb.PairKey]float64{{ab: 2}, {ab: 5}} // savedScreen's (a, b) on L0 and L1
	for _, tc := range []struct {
		name     string
		tm       *trained.Bundle
		dir      string
		measured []map[drugcomb.PairKey]float64
		changed  bool
		missing  error // errors.Is target
		err      bool
	}{
		{"the model's own", with(same), "", both, false, nil, false},
		{"the model's own, pairs changed", with(func(m *trained.Meta) { m.Screen.Digest = "other" }), "", both, true, nil, false},
		{"the model's own, gone", with(func(m *trained.Meta) { m.Screen.Dir = gone }), "", nil, false, fs.ErrNotExist, false},
		{"screen given", with(func(m *trained.Meta) { m.Screen.Dir = gone }), dir, both, false, nil, false},
		{"screen given, gone", with(same), gone, nil, false, nil, true},
		{"no metadata", &trained.Bundle{}, dir, nil, false, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := Table{Lines: []string{"L0", "L1"}, Score: "s"}
			changed, missing, err := tab.LookUpMeasured(tc.tm, tc.dir)
			if (err != nil) != tc.err || !errors.Is(missing, tc.missing) || (missing == nil) != (tc.missing == nil) {
				t.Fatalf("missing %v, err %v; want missing %v, an error %v", missing, err, tc.missing, tc.err)
			}
			if !reflect.DeepEqual(tab.Measured, tc.measured) || changed != tc.changed {
				t.Errorf("measured %v, changed %v; want %v, %v", tab.Measured, changed, tc.measured, tc.changed)
			}
		})
	}
}

// TestMatchScreen (issue 43): a catalogue's drugs are found in the model's
// screen by id, else by PubChem CID (a CID two screen drugs share matches
// neither); a drug named by its id alone takes the screen's name. Expected
// values worked out by hand from those rules.
func TestMatchScreen(t *testing.T) {
	screen := []drugcomb.Drug{
		{ID: "s1", Name: "Methotrexate", PubChemCID: 126941},
		{ID: "s2", Name: "Busulfan", PubChemCID: 2478},
		{ID: "s3", Name: "Twin A", PubChemCID: 77},
		{ID: "s4", Name: "Twin B", PubChemCID: 77},
	}
	tab := &Table{Drugs: Drugs{
		IDs:   []string{"126941", "s2", "cat-9", "x77", "own"},
		Names: []string{"126941", "My busulfan", "cat-9", "x77", "Own name"},
		CIDs:  []int64{126941, 0, 999, 77, 2478},
	}}
	tab.MatchScreen(screen)
	if want := []string{"s1", "s2", "", "", "s2"}; !reflect.DeepEqual(tab.ScreenIDs, want) {
		t.Errorf("ScreenIDs %q, want %q", tab.ScreenIDs, want)
	}
	if want := []string{"Methotrexate", "My busulfan", "cat-9", "x77", "Own name"}; !reflect.DeepEqual(tab.Drugs.Names, want) {
		t.Errorf("names %q, want %q", tab.Drugs.Names, want)
	}
}

// TestOwnNames: a catalogue drug whose name is only its PubChem CID (DrugComb's
// drugs.csv has no name column) gets an empty name in the output columns,
// or its screen drug's name when the model's screen has it; named drugs
// keep their names (issue 43: the workflow's batch repeated ids as names).
func TestOwnNames(t *testing.T) {
	cat := []drugcomb.Drug{
		{ID: "2206", Name: "2206", PubChemCID: 2206},
		{ID: "126941", Name: "126941", PubChemCID: 126941},
		{ID: "doxorubicin", Name: "doxorubicin", PubChemCID: 443939},
		{ID: "7", Name: "7"}, // a name that is a number but no CID: kept
	}
	d := KeptDrugs(cat, []int{0, 1, 2, 3})
	if want := []string{"", "", "doxorubicin", "7"}; !reflect.DeepEqual(d.Names, want) {
		t.Fatalf("names %q, want %q", d.Names, want)
	}
	tab := &Table{Drugs: d}
	tab.MatchScreen([]drugcomb.Drug{{ID: "126941", Name: "Methotrexate", PubChemCID: 126941}, {ID: "9", Name: "9", PubChemCID: 9}})
	if want := []string{"", "Methotrexate", "doxorubicin", "7"}; !reflect.DeepEqual(tab.Drugs.Names, want) {
		t.Errorf("names after MatchScreen %q, want %q", tab.Drugs.Names, want)
	}
}
