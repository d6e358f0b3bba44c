package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
)

// importPC3 imports the shared ALMANAC PC-3 table into a temporary screen
// directory (testdata/script/data_import_pc3.txtar checks what it prints).
func importPC3(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pc3")
	pairs := shareddata.Path(t, "almanac", "synergy_PC-3.csv")
	drugs := shareddata.Path(t, "almanac", "drugs.csv")
	if _, errOut, code := run(t, "data", "import", "--format", "almanac", "--pairs", pairs, "--drugs", drugs, "--out", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	return dir
}

// TestDataImportUnseenFormat imports tables laid out unlike anything above,
// as a new user would: a gzip-compressed, pipe-delimited .dat file with
// CRLF line ends, a byte-order mark, quoted names holding the delimiter,
// columns in another case than the flags, unrelated extra columns, numbers
// in exponent form and NA spellings; nothing but the column-map flags.
func TestDataImportUnseenFormat(t *testing.T) {
	src := "\xef\xbb\xbfExperiment|Compound One|Compound Two|Cell|Synergy (Bliss)|Note\r\n" +
		"e1|\"Drug|A\"|DrugB|MCF7|1.5e1|ok\r\n" +
		"e2|DrugB|\"Drug|A\"|MCF7|5|\r\n" +
		"e3|DrugB|DrugC|MCF7|#N/A|\r\n" +
		"e4|DrugC|\"Drug|A\"|MCF7|-2.5E-1|\"multi\r\nline note\"\r\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(src))
	zw.Close()
	p := filepath.Join(t.TempDir(), "screen_export.dat.gz")
	if err := os.WriteFile(p, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "s")
	out, errOut, code := run(t, "data", "import", p, "--drug-a", "compound one", "--drug-b", "COMPOUND TWO", "--cell-line", "cell", "--score", "synergy (bliss)", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	s, err := drugcomb.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// (Drug|A, DrugB): 15 and 5: mean 10, variance 50; (Drug|A, DrugC): -0.25.
	if len(s.Pairs) != 2 || s.Measurements() != 3 || s.ScoreNames[0] != "Synergy (Bliss)" {
		t.Fatalf("pairs %d, measurements %d, scores %v", len(s.Pairs), s.Measurements(), s.ScoreNames)
	}
	if p := s.Pairs[0]; s.Drugs[p.A].ID != "Drug|A" || p.Mean[0] != 10 || p.Var[0] != 50 {
		t.Errorf("pair 0 = %+v (%s, %s)", p, s.Drugs[p.A].ID, s.Drugs[p.B].ID)
	}
	if !strings.Contains(out, "missing score") || !strings.Contains(out, "screen_export.dat.gz:4") {
		t.Errorf("report does not count line 4's #N/A:\n%s", out)
	}
}

// TestDataImportJSONReport: --json prints the report as one JSON object,
// the same one saved as report.json.
func TestDataImportJSONReport(t *testing.T) {
	tmp := t.TempDir()
	in := filepath.Join(tmp, "t.csv")
	os.WriteFile(in, []byte("a,b,cell,score\nx,y,c,1\ny,x,c,2\nx,x,c,3\n"), 0o644)
	dir := filepath.Join(tmp, "s")
	out, errOut, code := run(t, "data", "import", in, "--drug-a", "a", "--drug-b", "b", "--cell-line", "cell", "--score", "score", "--out", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep drugcomb.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if rep.RowsRead != 3 || rep.Measurements != 2 || rep.Pairs != 1 || len(rep.Dropped) != 1 || rep.Dropped[0].Reason != drugcomb.ReasonSelfPair {
		t.Errorf("report %+v", rep)
	}
	saved, _ := os.ReadFile(filepath.Join(dir, drugcomb.ReportFile))
	if strings.TrimSpace(string(saved)) != strings.TrimSpace(out) {
		t.Errorf("report.json differs from the printed report:\n%s\n%s", saved, out)
	}
}

// TestDataImportTwoFiles: PC-3 and MCF7 into one screen with two cell
// lines: 1,440 + 1,476 pairs (each file's own count, as imported alone)
// and 1,474 + 1,492 measurements, drugs the union.
func TestDataImportTwoFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "two")
	_, errOut, code := run(t, "data", "import", "--format", "almanac",
		"--pairs", shareddata.Path(t, "almanac", "synergy_PC-3.csv"), shareddata.Path(t, "almanac", "synergy_MCF7.csv"),
		"--drugs", shareddata.Path(t, "almanac", "drugs.csv"), "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	s, err := drugcomb.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.CellLines) != 2 || len(s.Pairs) != 1440+1476 || s.Measurements() != 1474+1492 {
		t.Errorf("cell lines %v, pairs %d, measurements %d; want 2, 2916, 2966", s.CellLines, len(s.Pairs), s.Measurements())
	}
	if len(s.Drugs) < 86 || len(s.Drugs) > 87 {
		t.Errorf("%d drugs, want the union of 80 and 86 (at most the catalogue's 87)", len(s.Drugs))
	}
}

// TestDataImportBrokenSMILES: a catalogue with a SMILES typo (an unbalanced
// branch, as in issue 30) imports with that drug left out and named, by name
// and id with the parser's position, in the printed report and in
// report.json; train on the result then succeeds on the other drugs.
func TestDataImportBrokenSMILES(t *testing.T) {
	tmp := t.TempDir()
	// 8 drugs, every pair of them measured once: drug d3 (Methotrexate,
	// CID 126941) has "CC(C" for SMILES; position 3 is its "(" (chem's
	// ParseError counts from 1).
	smiles := []string{"CCO", "CCN", "c1ccccc1", "CC(C", "CC(=O)O", "CCCl", "c1ccncc1", "OCCO"}
	var cat, pairs strings.Builder
	cat.WriteString("name,pubchem_cid,smiles\n")
	for i, s := range smiles {
		name, cid := fmt.Sprintf("drug%d", i), fmt.Sprint(1000+i)
		if i == 3 {
			name, cid = "Methotrexate", "126941"
		}
		fmt.Fprintf(&cat, "%s,%s,%s\n", name, cid, s)
	}
	cids := []string{"1000", "1001", "1002", "126941", "1004", "1005", "1006", "1007"}
	pairs.WriteString("drug_a_cid,drug_b_cid,cell_line,combo_score\n")
	n := 0
	for a := range cids {
		for b := a + 1; b < len(cids); b++ {
			fmt.Fprintf(&pairs, "%s,%s,PC-3,%d\n", cids[a], cids[b], (a*7+b*3)%20-10)
			n++
		}
	}
	catPath, pairsPath := filepath.Join(tmp, "drugs.csv"), filepath.Join(tmp, "pairs.csv")
	for p, body := range map[string]string{catPath: cat.String(), pairsPath: pairs.String()} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	screen := filepath.Join(tmp, "screen")
	out, serr, code := run(t, "data", "import", "--format", "almanac", "--pairs", pairsPath, "--drugs", catPath, "--out", screen)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, serr)
	}
	for _, want := range []string{
		"unusable SMILES                      7", // the 7 pairs of d3
		`Methotrexate (126941): smiles "CC(C": at position 3: unbalanced branch`,
		"drugs left out, SMILES unusable: 1 (with their rows)",
		"wrote " + screen + ": 21 pairs, 21 measurements, 7 drugs",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("import report lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(filepath.Join(screen, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep drugcomb.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.UnusableStructures) != 1 || rep.UnusableStructures[0].ID != "126941" || rep.UnusableStructures[0].Name != "Methotrexate" ||
		!strings.Contains(rep.UnusableStructures[0].Error, "at position 3") {
		t.Errorf("report.json unusable_structures = %+v, want Methotrexate (126941) at position 3", rep.UnusableStructures)
	}
	if rep.RowsRead != n || rep.Measurements+rep.DroppedRows() != n {
		t.Errorf("report: %d rows read, %d used + %d dropped; want %d read, all accounted for", rep.RowsRead, rep.Measurements, rep.DroppedRows(), n)
	}
	out, serr, code = run(t, "train", "--screen", screen, "--epochs", "2", "--calibration", "0", "--out", filepath.Join(tmp, "m.deup"))
	if code != 0 {
		t.Fatalf("train on the imported screen: exit %d\n%s%s", code, out, serr)
	}
	if strings.Contains(serr, "no usable structure") {
		t.Errorf("train left out a drug the import kept:\n%s", serr)
	}
}

// TestOldScreenBrokenSMILES: a screen saved before import checked
// structures (written here with drugcomb.Save) and holding a SMILES typo is
// not refused later: data inspect names the drug, and train leaves it out
// with its pairs, naming it by name and id with the parser's position.
func TestOldScreenBrokenSMILES(t *testing.T) {
	smiles := []string{"CCO", "CCN", "c1ccccc1", "CC(C", "CC(=O)O", "CCCl", "c1ccncc1", "OCCO"}
	b := drugcomb.NewBuilder("combo_score")
	var idx []int
	for i, s := range smiles {
		d := drugcomb.Drug{ID: fmt.Sprint(1000 + i), Name: fmt.Sprintf("drug%d", i), SMILES: s}
		if i == 3 {
			d.ID, d.Name = "126941", "Methotrexate"
		}
		idx = append(idx, b.Drug(d))
	}
	c := b.CellLine("PC-3")
	for a := range idx {
		for bb := a + 1; bb < len(idx); bb++ {
			if err := b.Measure(idx[a], idx[bb], c, []float64{float64((a*7+bb*3)%20 - 10)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	tmp := t.TempDir()
	screen := filepath.Join(tmp, "old")
	if err := drugcomb.Save(screen, b.Screen("old")); err != nil {
		t.Fatal(err)
	}
	out, serr, code := run(t, "data", "inspect", screen)
	if code != 0 || !strings.Contains(out, "drugs with unusable SMILES 1: 126941") {
		t.Errorf("inspect: exit %d, want the drug named:\n%s%s", code, out, serr)
	}
	out, serr, code = run(t, "train", "--screen", screen, "--epochs", "2", "--calibration", "0", "--out", filepath.Join(tmp, "m.deup"))
	if code != 0 {
		t.Fatalf("train refused the screen: exit %d\n%s%s", code, out, serr)
	}
	for _, want := range []string{
		"deup: 1 of 8 drugs have no usable structure and are left out with their pairs:",
		`drug Methotrexate (126941): smiles "CC(C": at position 3: unbalanced branch`,
		"deup: 21 of 28 pairs kept (both drugs usable)",
	} {
		if !strings.Contains(serr, want) {
			t.Errorf("train stderr lacks %q:\n%s", want, serr)
		}
	}
}
