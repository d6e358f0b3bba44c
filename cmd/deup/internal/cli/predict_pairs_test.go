package cli

import (
	"encoding/csv"
	"fmt"
	"github.com/deup-screening/deup/active"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	tuipairs "github.com/deup-screening/deup/tui/pairs"
)

// TestPredictPairsByNameWithExtraColumns is issue 18's check: deup predict
// --pairs p.csv, p.csv holding drug names (and a PubChem CID) and two extra
// columns, writes those columns back with the drugs' names, the cell line
// and the measured values, on a tiny generated screen whose drug names
// differ from their ids (the measured mean is read from the screen itself).
func TestPredictPairsByNameWithExtraColumns(t *testing.T) {
	sc, err := data.Synth(data.SynthConfig{Seed: 5, Drugs: 14, CellLines: 1, Pairs: 90, ReplicateFrac: 0.2, MaxReplicates: 3,
		LatentDim: 3, Scale: 10, NoiseMin: 1, NoiseMax: 3, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range sc.Drugs {
		sc.Drugs[i].Name = fmt.Sprintf("Compound %c", 'A'+i)
		sc.Drugs[i].PubChemCID = int64(1000 + i)
	}
	dir := t.TempDir()
	screen := filepath.Join(dir, "screen")
	if err := drugcomb.Save(screen, sc); err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(dir, "m.deup")
	if _, serr, code := run(t, "train", "--screen", screen, "--epochs", "1", "--seed", "1", "--out", mp); code != 0 {
		t.Fatalf("train exit %d: %s", code, serr)
	}
	// A measured pair and an unmeasured one.
	mp0 := sc.Pairs[0]
	measured := map[[2]int]bool{}
	for _, p := range sc.Pairs {
		measured[[2]int{p.A, p.B}], measured[[2]int{p.B, p.A}] = true, true
	}
	ua, ub := -1, -1
	for a := 0; a < len(sc.Drugs) && ua < 0; a++ {
		for b := a + 1; b < len(sc.Drugs); b++ {
			if !measured[[2]int{a, b}] {
				ua, ub = a, b
				break
			}
		}
	}
	if ua < 0 {
		t.Fatal("every pair measured")
	}
	d := sc.Drugs
	body := "well,drug_a,drug_b,notes\n" +
		"A1," + strings.ToUpper(d[mp0.A].Name) + "," + strconv.FormatInt(d[mp0.B].PubChemCID, 10) + ",\"repeat, check\"\n" +
		"A2," + d[ua].Name + "," + d[ub].ID + ",new\n"
	pairs := writeTrainFile(t, dir, "p.csv", body)
	out := filepath.Join(dir, "x.csv")
	if _, serr, code := run(t, "predict", "--model", mp, "--pairs", pairs, "--out", out); code != 0 {
		t.Fatalf("predict exit %d: %s", code, serr)
	}
	fh, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(fh).ReadAll()
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := "drug_a_id,drug_b_id,drug_a_name,drug_b_name,cell_line,score,mu,sigma_total,sigma_epistemic,sigma_aleatoric,measured,measured_mean,well,notes"; len(rows) != 3 || strings.Join(rows[0], ",") != want {
		t.Fatalf("output %v, want header %s and 2 rows", rows, want)
	}
	for i, want := range [][]string{
		{d[mp0.A].ID, d[mp0.B].ID, d[mp0.A].Name, d[mp0.B].Name, sc.CellLines[0], sc.ScoreNames[0], "true", strconv.FormatFloat(mp0.Mean[0], 'g', -1, 64), "A1", "repeat, check"},
		{d[ua].ID, d[ub].ID, d[ua].Name, d[ub].Name, sc.CellLines[0], sc.ScoreNames[0], "false", "", "A2", "new"},
	} {
		r := rows[1+i]
		got := append(append([]string{}, r[:6]...), r[10:]...)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("row %d: %q, want %q", i+1, got, want)
		}
		if mu, err := strconv.ParseFloat(r[6], 64); err != nil || mu != mu {
			t.Errorf("row %d: mu %q", i+1, r[6])
		}
	}

	// Parquet and Arrow carry the same columns; deup tui's reader reads them
	// back and names the ones it does not show, the passed-through ones last.
	for _, ext := range []string{"parquet", "arrow"} {
		out := filepath.Join(dir, "x."+ext)
		if _, serr, code := run(t, "predict", "--model", mp, "--pairs", pairs, "--out", out); code != 0 {
			t.Fatalf("predict %s exit %d: %s", ext, code, serr)
		}
		bl, err := tuipairs.NewBuilder(sc, 0, active.DefaultKappa)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := bl.ReadPredictions(out, -1); err != nil || n != 2 {
			t.Fatalf("%s: read %d, %v", ext, n, err)
		}
		if got, want := strings.Join(bl.Unused(), ","), "drug_a_name,drug_b_name,score,measured,measured_mean,well,notes"; got != want {
			t.Errorf("%s: unused columns %s, want %s", ext, got, want)
		}
	}

	// A name no drug has is refused with the file, line and column.
	bad := writeTrainFile(t, dir, "bad.csv", "drug_a,drug_b,well\n"+d[0].Name+",Methotrexate,B1\n")
	if _, serr, code := run(t, "predict", "--model", mp, "--pairs", bad, "--out", filepath.Join(dir, "y.csv")); code == 0 || !strings.Contains(serr, `bad.csv:2: column drug_b: unknown drug "Methotrexate"`) {
		t.Errorf("exit %d, stderr %q", code, serr)
	}
	// An extra column that clashes with a prediction column is refused.
	clash := writeTrainFile(t, dir, "clash.csv", "drug_a,drug_b,mu\n"+d[0].Name+","+d[1].Name+",3\n")
	if _, serr, code := run(t, "predict", "--model", mp, "--pairs", clash, "--out", filepath.Join(dir, "z.csv")); code == 0 || !strings.Contains(serr, `column "mu" is also a prediction column`) {
		t.Errorf("exit %d, stderr %q", code, serr)
	}
}
