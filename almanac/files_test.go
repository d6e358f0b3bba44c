package almanac

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
)

// ReadSources reads NCI's SDF and names file (104 structures and 105
// names, as TestCompoundsAndNames counts them) and the ALMANAC catalogue
// (87 drugs, shared data README); a missing file is an error naming its
// flag, and the optional ones may be left out.
func TestReadSources(t *testing.T) {
	sdf := shareddata.Path(t, "almanac_raw", "ComboCompoundSet.sdf")
	names := shareddata.Path(t, "almanac_raw", "ComboCompoundNames_small.txt")
	cat := shareddata.Path(t, "almanac", "drugs.csv")
	missing := filepath.Join(t.TempDir(), "none")
	for _, c := range []struct {
		compounds, names, cat string
		wantNames, wantCat    int
		err                   string
	}{
		{sdf, names, cat, 105, 87, ""},
		{sdf, "", "", 0, 0, ""},
		{missing, names, cat, 0, 0, "import: compounds file: "},
		{sdf, missing, cat, 0, 0, "import: names file: "},
		{sdf, names, missing, 0, 0, "import: catalogue file: "},
	} {
		src, err := ReadSources(c.compounds, c.names, c.cat)
		if c.err != "" {
			var se *SourceError
			if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("ReadSources(%s, %s, %s): error %v, want %q", c.compounds, c.names, c.cat, err, c.err)
			}
			continue
		}
		nCat := 0
		if src.Catalogue != nil {
			nCat = len(src.Catalogue.Drugs)
		}
		if err != nil || len(src.Compounds) != 104 || len(src.Names) != c.wantNames || nCat != c.wantCat {
			t.Errorf("ReadSources(%q, %q, %q): %d compounds, %d names, %d catalogue drugs, err %v; want 104, %d, %d",
				c.compounds, c.names, c.cat, len(src.Compounds), len(src.Names), nCat, err, c.wantNames, c.wantCat)
		}
	}
}

// SaveScreen writes the screen with its report and comboscore.csv as
// WriteComboScores writes it.
func TestSaveScreen(t *testing.T) {
	scores := []ComboScore{{NSC1: 1, NSC2: 2, Cell: "L1", Sums: []float64{10}, Score: 10, Plates: 1, Wells: 9}}
	src := Sources{Compounds: map[int]*Compound{1: {NSC: 1, SMILES: "CCO"}, 2: {NSC: 2, SMILES: "c1ccccc1"}}}
	rep := &Report{}
	s, err := BuildScreen("t", scores, src, rep)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "s")
	if err := SaveScreen(dir, s, rep.ScreenReport(s), scores); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, ComboScoreFile))
	if want := "nsc1,nsc2,cell_line,combo_score,n_wells\n1,2,L1,10.0,9\n"; err != nil || string(got) != want {
		t.Errorf("%s: %q, %v; want %q", ComboScoreFile, got, err, want)
	}
	back, err := drugcomb.Open(dir)
	if err != nil || len(back.Pairs) != 1 || !drugcomb.IsScreenDir(dir) {
		t.Fatalf("screen: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, drugcomb.ReportFile)); err != nil {
		t.Error(err)
	}
}
