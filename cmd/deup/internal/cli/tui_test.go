package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/tui"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/tui/pairs"
)

func TestTUITableFromPredictions(t *testing.T) {
	sc, err := data.Synth(data.DefaultSynth(synthSeed))
	if err != nil {
		t.Fatal(err)
	}
	// predictions for three pairs of the synthetic default on its second
	// cell line: one measured there (if any), two arbitrary
	var b strings.Builder
	b.WriteString("drug_a,drug_b,cell_line,mu,sigma_total,sigma_epistemic,sigma_aleatoric\n")
	cl := sc.CellLines[1]
	b.WriteString(sc.Drugs[0].ID + "," + sc.Drugs[1].ID + "," + cl + ",1,2,1,1.5\n")
	b.WriteString(sc.Drugs[2].Name + "," + sc.Drugs[0].ID + "," + cl + ",-1,2,1,1.5\n")
	path := filepath.Join(t.TempDir(), "p.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	tab, err := loadTUITable(context.Background(), Env{Stderr: &stderr}, tuiInputs{predPath: path, kappa: 1})
	if err != nil {
		t.Fatal(err)
	}
	// every measured pair, plus the predicted pairs the screen did not measure
	extra := 0
	for i := range tab.Len() {
		if r := tab.Row(i); !r.IsMeasured() {
			extra++
		}
	}
	if tab.Len() != len(sc.Pairs)+extra || extra > 2 {
		t.Fatalf("%d rows (%d unmeasured) for %d measured pairs and 2 predictions", tab.Len(), extra, len(sc.Pairs))
	}
	if tab.Info().Acquisition != "μ + 1·σ_epistemic" {
		t.Fatalf("acquisition %q", tab.Info().Acquisition)
	}
	// without a cell_line column the screen's two cell lines are ambiguous
	os.WriteFile(path, []byte("drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\n"+sc.Drugs[0].ID+","+sc.Drugs[1].ID+",1,1,1,1\n"), 0o644)
	if _, err := loadTUITable(context.Background(), Env{Stderr: &stderr}, tuiInputs{predPath: path, kappa: 1}); err == nil || !strings.Contains(err.Error(), "no cell line") {
		t.Fatalf("err = %v, want the ambiguous cell line named", err)
	}
}

func TestTUIWithDrugs(t *testing.T) {
	sc, err := data.Synth(data.DefaultSynth(synthSeed))
	if err != nil {
		t.Fatal(err)
	}
	n := len(sc.Drugs)
	path := filepath.Join(t.TempDir(), "more.csv")
	// one drug already in the screen (by ID), two new ones
	csv := "id,smiles\n" + sc.Drugs[3].ID + ",CCO\n2244,CC(=O)Oc1ccccc1C(=O)O\n3672,CC(C)Cc1ccc(C(C)C(=O)O)cc1\n"
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	tab, err := loadTUITable(context.Background(), Env{Stderr: &stderr}, tuiInputs{drugsPath: path, kappa: 1})
	if err != nil {
		t.Fatal(err)
	}
	info := tab.Info()
	if len(info.Drugs) != n+2 || info.Drugs[n].ID != "2244" || info.Drugs[n+1].ID != "3672" || info.Drugs[3].SMILES == "CCO" {
		t.Fatalf("%d drugs (want %d), added %v; the screen's drug 3 must keep its own entry", len(info.Drugs), n+2, info.Drugs[n:])
	}
	if len(sc.Drugs) != n {
		t.Fatal("the screen was modified")
	}
}

// loadTUITable opens the screen (extended with --drugs) and builds the
// table of pairs the UI browses, with predictions from a model, a file, or
// none.
func loadTUITable(ctx context.Context, env Env, in tuiInputs) (*pairs.Table, error) {
	sc, err := loadTUIScreen(env, methods.Default(), &in)
	if err != nil {
		return nil, err
	}
	return tuiTable(ctx, env, sc, in)
}

// TestTUIExportDigits: the UI's export writes predictions with deup
// predict's 7 significant digits, not the float32-to-float64 widening's
// noise (issue 43: -71.66678619384766 where predict writes -71.66679).
func TestTUIExportDigits(t *testing.T) {
	w := func(x float32) float64 { return float64(x) }
	pick := tui.Pick{Rank: 1, DrugA: drugcomb.Drug{ID: "a", Name: "A"}, DrugB: drugcomb.Drug{ID: "b", Name: "B"}, CellLine: "PC-3",
		Mu: w(-71.66679), SigmaTotal: w(52.44225), SigmaEpistemic: w(38.70914), SigmaAleatoric: w(35.38068),
		Interval: &tui.Bounds{Lower: w(-120.0564), Upper: w(107.8424)}, Acquisition: w(5.75), Reason: "r"}
	if s := strconv.FormatFloat(pick.Mu, 'g', -1, 64); s != "-71.66678619384766" {
		t.Fatalf("the widened value prints %s; the test needs the noisy form", s)
	}
	path := filepath.Join(t.TempDir(), "b.csv")
	if err := (suggestFiles{}).Export(path, []tui.Pick{pick}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, row, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	const want = "1,a,A,,,b,B,,,PC-3,-71.66679,52.44225,38.70914,35.38068,-120.0564,107.8424,5.75,r"
	if row != want {
		t.Errorf("exported row\n %s\nwant\n %s", row, want)
	}
}
