package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
)

// updateData rewrites the golden files of the deup data import, inspect,
// synth and fetch commands (go test ./internal/cli -run Data -update-data).
var updateData = flag.Bool("update-data", false, "rewrite testdata/data_* golden files of import/inspect/synth/fetch")

func dataRun(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

func dataGolden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *updateData {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update-data to create)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", p, got, want)
	}
}

func TestDataHelp(t *testing.T) {
	for _, cmd := range []string{"import", "inspect", "synth", "fetch", "synergy"} {
		t.Run(cmd, func(t *testing.T) {
			out, errOut, code := dataRun(t, "data", cmd, "-h")
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			dataGolden(t, "data_"+cmd+"_help.stderr", out) // help goes to stdout
		})
	}
}

// importPC3 imports the shared ALMANAC PC-3 table into a temporary screen
// directory and returns it with the command's standard output.
func importPC3(t *testing.T) (dir, stdout string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "pc3")
	pairs := shareddata.Path(t, "almanac", "synergy_PC-3.csv")
	drugs := shareddata.Path(t, "almanac", "drugs.csv")
	out, errOut, code := dataRun(t, "data", "import", "--format", "almanac", "--pairs", pairs, "--drugs", drugs, "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	shared := filepath.Dir(filepath.Dir(pairs))
	out = strings.ReplaceAll(out, shared, "$SHARED")
	out = strings.ReplaceAll(out, dir, "$OUT")
	return dir, out
}

// TestDataImportAlmanacPC3 is the done-when: 1,474 measurements of
// 1,440 unordered pairs, 80 drugs, 1 cell line, and inspect --json says so.
func TestDataImportAlmanacPC3(t *testing.T) {
	dir, out := importPC3(t)
	dataGolden(t, "data_import_pc3.stdout", out)
	js, errOut, code := dataRun(t, "data", "inspect", dir, "--json")
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, errOut)
	}
	dataGolden(t, "data_inspect_pc3.json", js)
	var got struct {
		Drugs, Pairs, Measurements, CellLines int
	}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(js, "cell_lines", "CellLines")), &got); err != nil {
		t.Fatal(err)
	}
	if got.Pairs != 1440 || got.Measurements != 1474 || got.Drugs != 80 || got.CellLines != 1 {
		t.Errorf("inspect: %+v; want 1440 pairs, 1474 measurements, 80 drugs, 1 cell line", got)
	}
	// report.json is beside the screen and matches.
	b, err := os.ReadFile(filepath.Join(dir, drugcomb.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var rep drugcomb.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.RowsRead != 1474 || rep.Pairs != 1440 || rep.ReplicatedPairs != 34 {
		t.Errorf("report.json: %+v", rep)
	}
	text, _, _ := dataRun(t, "data", "inspect", dir)
	dataGolden(t, "data_inspect_pc3.stdout", strings.ReplaceAll(text, dir, "$OUT"))
}

func TestDataImportErrors(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.csv", "a,b,cell,score\nx,y,c,1\n")
	semi := write("semi.csv", "a;b;cell;score\nx;y;c;1\n")
	trunc := write("trunc.csv", "a,b,cell,score\nx,y,c,1\nx,z")
	text := write("text.csv", "a,b,cell,score\nx,y,c,1\nx,z,c,high\n")
	empty := write("empty.csv", "a,b,cell,score\n")
	cat := write("cat.csv", "name,smiles\nx,CCO\ny,CCN\n")
	table := []string{"--drug-a", "a", "--drug-b", "b", "--cell-line", "cell", "--score", "score"}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"no out", append([]string{good}, table...), 2, "--out DIR is required"},
		{"no input", append([]string{"--out", filepath.Join(tmp, "o1")}, table...), 2, "no input file"},
		{"table without map", []string{good, "--out", filepath.Join(tmp, "o2")}, 2, "needs --drug-a, --drug-b and --score"},
		{"almanac without drugs", []string{"--format", "almanac", "--pairs", good, "--out", filepath.Join(tmp, "o3")}, 2, "needs --drugs"},
		{"unknown format", []string{"--format", "xlsx", good, "--out", filepath.Join(tmp, "o4")}, 2, `unknown --format "xlsx"`},
		{"bad delimiter", append([]string{good, "--delimiter", "ab", "--out", filepath.Join(tmp, "o5")}, table...), 2, "--delimiter"},
		{"missing column", []string{good, "--drug-a", "a", "--drug-b", "b", "--score", "synergy", "--out", filepath.Join(tmp, "o6")}, 1, good + `:1: missing column "synergy"`},
		{"wrong delimiter", append([]string{semi, "--delimiter", "comma", "--out", filepath.Join(tmp, "o7")}, table...), 1, "is the delimiter right?"},
		{"truncated", append([]string{trunc, "--out", filepath.Join(tmp, "o8")}, table...), 1, trunc + ":3:4: wrong number of fields"},
		{"non-numeric score", append([]string{text, "--out", filepath.Join(tmp, "o9")}, table...), 1, text + `:3:7: column "score": not a number: "high"`},
		{"missing file", append([]string{filepath.Join(tmp, "nope.csv"), "--out", filepath.Join(tmp, "o10")}, table...), 1, "nope.csv does not exist"},
		{"header only", append([]string{empty, "--out", filepath.Join(tmp, "o11")}, table...), 1, "the pairs file is empty: it has a header but no rows (" + empty + ")"},
		{"header only, with a catalogue", append([]string{empty, "--drugs", cat, "--out", filepath.Join(tmp, "o12")}, table...), 1, "the pairs file is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := dataRun(t, append([]string{"data", "import"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d (want %d), stderr:\n%s\nwant it to contain %q", code, tc.code, errOut, tc.want)
			}
		})
	}
	// --lenient turns the bad row into a counted one.
	out, errOut, code := dataRun(t, append([]string{"data", "import", text, "--lenient", "--out", filepath.Join(tmp, "ok")}, table...)...)
	if code != 0 || !strings.Contains(out, "unparsable score") || !strings.Contains(out, text+":3: not a number") {
		t.Errorf("lenient: exit %d\n%s%s", code, out, errOut)
	}
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
	out, errOut, code := dataRun(t, "data", "import", p, "--drug-a", "compound one", "--drug-b", "COMPOUND TWO", "--cell-line", "cell", "--score", "synergy (bliss)", "--out", dir)
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

func TestDataImportDrugComb(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dc")
	in := filepath.Join("..", "..", "..", "..", "drugcomb", "testdata", "drugcomb_summary_small.csv")
	out, errOut, code := dataRun(t, "data", "import", "--format", "drugcomb", in, "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	dataGolden(t, "data_import_drugcomb.stdout", strings.ReplaceAll(out, dir, "$OUT"))
}

// TestDataImportJSONReport: --json prints the report as one JSON object,
// the same one saved as report.json.
func TestDataImportJSONReport(t *testing.T) {
	tmp := t.TempDir()
	in := filepath.Join(tmp, "t.csv")
	os.WriteFile(in, []byte("a,b,cell,score\nx,y,c,1\ny,x,c,2\nx,x,c,3\n"), 0o644)
	dir := filepath.Join(tmp, "s")
	out, errOut, code := dataRun(t, "data", "import", in, "--drug-a", "a", "--drug-b", "b", "--cell-line", "cell", "--score", "score", "--out", dir, "--json")
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
	_, errOut, code := dataRun(t, "data", "import", "--format", "almanac",
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
	out, serr, code := dataRun(t, "data", "import", "--format", "almanac", "--pairs", pairsPath, "--drugs", catPath, "--out", screen)
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
	out, serr, code = runCLI(t, "train", "--screen", screen, "--epochs", "2", "--calibration", "0", "--out", filepath.Join(tmp, "m.deup"))
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
	out, serr, code := dataRun(t, "data", "inspect", screen)
	if code != 0 || !strings.Contains(out, "drugs with unusable SMILES 1: 126941") {
		t.Errorf("inspect: exit %d, want the drug named:\n%s%s", code, out, serr)
	}
	out, serr, code = runCLI(t, "train", "--screen", screen, "--epochs", "2", "--calibration", "0", "--out", filepath.Join(tmp, "m.deup"))
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
