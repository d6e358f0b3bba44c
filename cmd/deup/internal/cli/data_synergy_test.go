package cli

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
)

// plateFixture is a small plate table: block 1 a 3×3 with a replicate well,
// block 2 a 3×3 of another pair, block 3 a drug's single-drug wells missing.
func plateFixture(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("block_id,drug1,drug2,cell_line_name,conc1,conc2,response,conc_unit\n")
	row := func(id, a, c string, x1, x2, y float64) {
		b.WriteString(id + "," + a + "," + c + ",L1," + strconv.FormatFloat(x1, 'g', -1, 64) + "," +
			strconv.FormatFloat(x2, 'g', -1, 64) + "," + strconv.FormatFloat(y, 'g', -1, 64) + ",uM\n")
	}
	f := func(x, e float64) float64 { return 100 / (1 + math.Pow(x/e, -1.3)) }
	for _, blk := range []struct{ id, a, c string }{{"1", "DrugA", "DrugB"}, {"2", "DrugA", "DrugC"}} {
		for _, x1 := range []float64{0, 0.5, 2} {
			for _, x2 := range []float64{0, 1, 4} {
				a, c := f(x1, 1), f(x2, 2)
				row(blk.id, blk.a, blk.c, x1, x2, a+c-a*c/100+x1*x2)
			}
		}
	}
	row("1", "DrugA", "DrugB", 2, 4, 90) // a replicate
	for _, x1 := range []float64{1, 2} {
		for _, x2 := range []float64{0, 1} {
			row("3", "DrugB", "DrugC", x1, x2, 10*x1+x2)
		}
	}
	p := filepath.Join(t.TempDir(), "plates.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestDataSynergy(t *testing.T) {
	in := plateFixture(t)
	dir := filepath.Join(t.TempDir(), "out")
	out, errOut, code := run(t, "data", "synergy", "--responses", in, "--out", dir, "--plots", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"block-1.png", "block-1.svg"} {
		if st, err := os.Stat(filepath.Join(dir, "plots", f)); err != nil || st.Size() < 1000 {
			t.Errorf("plot %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "plots", "block-2.png")); err == nil {
		t.Error("--plots 1 drew block 2")
	}
	for _, want := range []string{"3 blocks read, 2 scored", "drew 1 block(s)", "skipped 1 block(s): no single-drug wells", "blocks/s", "wrote " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	blocks := readCSVFile(t, filepath.Join(dir, "blocks.csv"))
	// The columns the issue fixes, in this order, then the fit quality.
	want := "block_id,drug_row,drug_col,cell_line,zip,loewe,hsa,bliss,ic50_row,ic50_col,ri_row,ri_col,css_row,css_col,css,s"
	if got := strings.Join(blocks[0][:16], ","); got != want {
		t.Errorf("blocks.csv columns %s, want %s", got, want)
	}
	if len(blocks) != 3 || blocks[1][0] != "1" || blocks[1][1] != "DrugA" || blocks[1][3] != "L1" {
		t.Errorf("blocks.csv rows: %v", blocks)
	}
	wells := readCSVFile(t, filepath.Join(dir, "wells.csv"))
	if got := strings.Join(wells[0][:8], ","); got != "block_id,conc_row,conc_col,response,zip,loewe,hsa,bliss" {
		t.Errorf("wells.csv columns %s", got)
	}
	if len(wells) != 1+18 {
		t.Errorf("wells.csv has %d rows, want 18", len(wells)-1)
	}
	for _, w := range wells[1:] {
		if w[0] == "1" && w[1] == "2.0" && w[2] == "4.0" && w[len(w)-1] != "2" {
			t.Errorf("replicated well: n = %s, want 2 (%v)", w[len(w)-1], w)
		}
	}
	for _, f := range []string{"blocks.parquet", "wells.parquet", "report.json"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Usage and input errors.
	if _, errOut, code := run(t, "data", "synergy", "--responses", in); code != 2 || !strings.Contains(errOut, "--out") {
		t.Errorf("no --out: exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, "data", "synergy", "--responses", in, "--out", dir, "--response", "percent"); code != 2 || !strings.Contains(errOut, "viability") {
		t.Errorf("bad --response: exit %d: %s", code, errOut)
	}
}

// On DrugComb's pipeline inputs the command writes the reference scores
// (doseresp's tests check every value; here one block through the files).
func TestDataSynergyReference(t *testing.T) {
	in := shareddata.Path(t, "doseresponse", "drugcomb_blocks_input.csv")
	dir := filepath.Join(t.TempDir(), "out")
	if _, errOut, code := run(t, "data", "synergy", "--responses", in, "--out", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	blocks := readCSVFile(t, filepath.Join(dir, "blocks.csv"))
	if len(blocks) != 8 {
		t.Fatalf("%d blocks, want 7", len(blocks)-1)
	}
	for _, b := range blocks[1:] {
		if b[0] != "64716" {
			continue
		}
		// drugcomb_reference_blocks.csv: zip 16.330929, css 28.305, S 12.738.
		for _, c := range []struct {
			col  int
			want float64
		}{{4, 16.330929}, {14, 28.305}, {15, 12.738}} {
			if got, _ := strconv.ParseFloat(b[c.col], 64); math.Abs(got-c.want) > 5e-3 {
				t.Errorf("block 64716 %s = %v, want %v", blocks[0][c.col], got, c.want)
			}
		}
		return
	}
	t.Error("block 64716 missing")
}

func TestDataImportDoseResponse(t *testing.T) {
	in := plateFixture(t)
	cat := filepath.Join(t.TempDir(), "drugs.csv")
	if err := os.WriteFile(cat, []byte("name,smiles\nDrugA,CCO\nDrugB,c1ccccc1\nDrugC,CC(=O)O\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "screen")
	out, errOut, code := run(t, "data", "import", "--format", "doseresponse", "--responses", in, "--drugs", cat, "--score", "zip", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	s, err := drugcomb.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Pairs) != 2 || len(s.Drugs) != 3 || drugcomb.IndexName(s.ScoreNames, "zip") != 0 {
		t.Fatalf("screen: %d pairs, %d drugs, scores %v", len(s.Pairs), len(s.Drugs), s.ScoreNames)
	}
	blocks := readCSVFile(t, filepath.Join(dir, "blocks", "blocks.csv"))
	zip1, _ := strconv.ParseFloat(blocks[1][4], 64)
	var got float64 = math.NaN()
	for _, p := range s.Pairs {
		if s.Drugs[p.A].Name == "DrugA" && s.Drugs[p.B].Name == "DrugB" || s.Drugs[p.A].Name == "DrugB" && s.Drugs[p.B].Name == "DrugA" {
			got = p.Mean[0]
		}
	}
	if math.Abs(got-zip1) > 1e-9 {
		t.Errorf("pair DrugA×DrugB target %v, want block 1's zip %v", got, zip1)
	}
	if _, errOut, code := run(t, "data", "import", "--format", "doseresponse", "--responses", in, "--drugs", cat, "--score", "dss", "--out", dir); code == 0 || !strings.Contains(errOut, "css") {
		t.Errorf("unknown score: exit %d: %s", code, errOut)
	}
}
