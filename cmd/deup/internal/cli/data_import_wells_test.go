package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/almanac"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
)

var wellsTiming = regexp.MustCompile(`(?m)^deup data import: \d+ wells read and scored in [0-9.]+ s \(\d+ wells/s\); [0-9.]+ s in all`)

// TestImportWellsSynthetic imports a small hand-written wells file with two
// structures of this package's tests (ethanol NSC 85, pyridine NSC 1234)
// and checks comboscore.csv byte for byte (NCI's rule by hand: expected
// 80*90/100 = 72, score 72 - 70 = 2; the reverse order 72 - 60 = 12), the
// screen (one unordered pair, two replicates) and the report.
func TestImportWellsSynthetic(t *testing.T) {
	dir := t.TempDir()
	wells := filepath.Join(dir, "wells.csv")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(wells, "STUDY,PLATE,NSC1,CONC1,CONCUNIT1,NSC2,CONC2,CONCUNIT2,PERCENTGROWTH,EXPECTEDGROWTH,SCORE,VALID,CELLNAME\n"+
		"S,A,85,1e-6,M,,,,80,,,Y,PC-3\n"+
		"S,A,1234,1e-6,M,,,,90,,,Y,PC-3\n"+
		"S,A,1234,1e-5,M,,,,10,,,Y,PC-3\n"+
		"S,A,85,1e-6,M,1234,1e-6,M,70,72,2,Y,PC-3\n"+
		"S,A,1234,1e-6,M,85,1e-6,M,60,72,12,Y,PC-3\n"+
		"S,A,85,1e-6,M,1234,1e-4,M,60,,,Y,PC-3\n")
	sdf := filepath.Join(dir, "c.sdf")
	write(sdf, sdfEthanol+sdfPyridine)
	names := filepath.Join(dir, "names.txt")
	write(names, "IX\tDrug\n85\tEthanol\n1234\tPyridine")
	out := filepath.Join(dir, "scr")
	stdout, stderr, code := runMain(t, "", "data", "import", "--format", "almanac-wells", "--wells", wells, "--compounds", sdf, "--names", names, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	got, err := os.ReadFile(filepath.Join(out, almanac.ComboScoreFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := "nsc1,nsc2,cell_line,combo_score,n_wells\n85,1234,PC-3,2.0,1\n1234,85,PC-3,12.0,1\n"; string(got) != want {
		t.Errorf("comboscore.csv\n%s\nwant\n%s", got, want)
	}
	for _, w := range []string{"missing partner                      1", "single-agent only                    1", "wells read           6"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("report lacks %q:\n%s", w, stdout)
		}
	}
	if !wellsTiming.MatchString(stderr) {
		t.Errorf("no timing line on stderr: %q", stderr)
	}
	s, err := drugcomb.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Pairs) != 1 || s.Pairs[0].N != 2 || s.Pairs[0].Mean[0] != 7 || len(s.Drugs) != 2 || s.Drugs[0].SMILES == "" {
		t.Errorf("screen: drugs %+v pairs %+v", s.Drugs, s.Pairs)
	}
	var rep map[string]any
	b, _ := os.ReadFile(filepath.Join(out, drugcomb.ReportFile))
	if err := json.Unmarshal(b, &rep); err != nil || rep["format"] != "almanac-wells" || rep["rows_read"] != 6.0 || rep["measurements"] != 4.0 {
		t.Errorf("report.json: %v %v", err, rep)
	}
	// usage errors
	if _, stderr, code := runMain(t, "", "data", "import", "--format", "almanac-wells", "--wells", wells, "--out", out); code != 2 || !strings.Contains(stderr, "--compounds") {
		t.Errorf("without --compounds: exit %d %q", code, stderr)
	}
}

// TestImportWellsSampleBlocks is the check at the command level:
// on ComboDrugGrowth_sample_blocks.csv every one of the 152 ComboScores in
// comboscore.csv equals the sum of the file's SCORE over its block (summed
// here independently of the importer), and the screen trains-ready (drugs
// with SMILES from the SDF).
func TestImportWellsSampleBlocks(t *testing.T) {
	raw := shareddata.Path(t, "almanac_raw", "ComboDrugGrowth_sample_blocks.csv")
	sdf := shareddata.Path(t, "almanac_raw", "ComboCompoundSet.sdf")
	names := shareddata.Path(t, "almanac_raw", "ComboCompoundNames_small.txt")
	out := filepath.Join(t.TempDir(), "scr")
	stdout, stderr, code := runMain(t, "", "data", "import", "--format", "almanac-wells", "--wells", raw, "--compounds", sdf, "--names", names, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// the file's SCORE summed per (NSC1, NSC2, CELLNAME)
	f, err := os.Open(raw)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	want := map[string]float64{}
	for _, r := range rows[1:] {
		if r[col["NSC2"]] == "" {
			continue
		}
		v, err := strconv.ParseFloat(r[col["SCORE"]], 64)
		if err != nil {
			t.Fatal(err)
		}
		want[r[col["NSC1"]]+","+r[col["NSC2"]]+","+r[col["CELLNAME"]]] += v
	}
	cs, err := os.ReadFile(filepath.Join(out, almanac.ComboScoreFile))
	if err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(strings.NewReader(string(cs))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 153 || len(want) != 152 {
		t.Fatalf("%d comboscore.csv rows (want 152 and a header), %d blocks in the file", len(got)-1, len(want))
	}
	for _, r := range got[1:] {
		v, _ := strconv.ParseFloat(r[3], 64)
		if w, ok := want[r[0]+","+r[1]+","+r[2]]; !ok || math.Abs(v-w) > 0 || r[4] != "9" {
			t.Errorf("%v: want ComboScore %g over 9 wells", r, w)
		}
	}
	s, err := drugcomb.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.Drugs {
		if d.SMILES == "" {
			t.Errorf("drug %s (%s) without SMILES", d.ID, d.Name)
		}
	}
	if len(s.Drugs) != 10 || len(s.Pairs) != 152 || len(s.CellLines) != 5 {
		t.Errorf("screen: %d drugs, %d pairs, %d lines", len(s.Drugs), len(s.Pairs), len(s.CellLines))
	}
	// it trains, predicts and benches like any other screen (few epochs:
	// the point is that the commands take it)
	mp := filepath.Join(t.TempDir(), "m.model")
	mustRun(t, "train", "--screen", out, "--cell-line", "PC-3", "--epochs", "2", "--patience", "2", "--calibration", "0", "--out", mp)
	mustRun(t, "predict", "--model", mp, "--all-pairs", "--out", filepath.Join(t.TempDir(), "p.csv"))
	mustRun(t, "bench", "--screen", out, "--seeds", "1", "--methods", "deup", "--epochs", "2", "--split-by", "cell-lines", "--out", filepath.Join(t.TempDir(), "bench"))
}

// TestImportWellsSampleRows imports the breadth sample, whose wells mostly
// lack their same-plate single agents: it must not fail and must report
// the gaps.
func TestImportWellsSampleRows(t *testing.T) {
	raw := shareddata.Path(t, "almanac_raw", "ComboDrugGrowth_sample_rows.csv")
	sdf := shareddata.Path(t, "almanac_raw", "ComboCompoundSet.sdf")
	out := filepath.Join(t.TempDir(), "scr")
	stdout, stderr, code := runMain(t, "", "data", "import", "--format", "almanac-wells", "--wells", raw, "--compounds", sdf, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "missing partner") || !strings.Contains(stdout, "wells read           22198") {
		t.Errorf("report:\n%s", stdout)
	}
}

// TestImportWellsRefusedStructure uses NCI's SDF, where cisplatin (NSC
// 119875) is drawn with bonds RDKit refuses: the report names it, and a
// catalogue (--drugs) supplies its SMILES.
func TestImportWellsRefusedStructure(t *testing.T) {
	sdf := shareddata.Path(t, "almanac_raw", "ComboCompoundSet.sdf")
	names := shareddata.Path(t, "almanac_raw", "ComboCompoundNames_small.txt")
	dir := t.TempDir()
	wells := filepath.Join(dir, "w.csv")
	os.WriteFile(wells, []byte("STUDY,PLATE,NSC1,CONC1,CONCUNIT1,NSC2,CONC2,CONCUNIT2,PERCENTGROWTH,CELLNAME\n"+
		"S,A,119875,1e-6,M,,,,80,PC-3\nS,A,740,1e-6,M,,,,90,PC-3\nS,A,119875,1e-6,M,740,1e-6,M,70,PC-3\n"), 0o644)
	cat := filepath.Join(dir, "drugs.csv")
	os.WriteFile(cat, []byte("name,smiles\nCisplatin,N.N.Cl[Pt]Cl\n"), 0o644)
	for _, c := range []struct {
		args   []string
		smiles string
	}{{nil, ""}, {[]string{"--drugs", cat}, "N.N.Cl[Pt]Cl"}} {
		out := filepath.Join(dir, fmt.Sprint("scr", len(c.args)))
		args := append([]string{"data", "import", "--format", "almanac-wells", "--wells", wells, "--compounds", sdf, "--names", names, "--out", out}, c.args...)
		stdout, stderr, code := runMain(t, "", args...)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		if !strings.Contains(stdout, "structure refused") || !strings.Contains(stdout, "NSC 119875 (Cisplatin)") {
			t.Errorf("report does not name the refused structure:\n%s", stdout)
		}
		s, err := drugcomb.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		if d := s.Drugs[s.DrugIndex("119875")]; d.SMILES != c.smiles {
			t.Errorf("%v: cisplatin's SMILES %q, want %q", c.args, d.SMILES, c.smiles)
		}
	}
}
