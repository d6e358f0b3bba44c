package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
)

var updateTUI = flag.Bool("update-tui", false, "rewrite testdata/tui_* golden files")

func TestTUIHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"tui", "-h"}, Env{Stdout: &stdout, Stderr: &stderr})
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	path := filepath.Join("testdata", "tui_help.golden")
	if *updateTUI {
		if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-tui to create)", err)
	}
	if stdout.String() != string(want) {
		t.Fatalf("help differs from %s:\n%s", path, stdout.String())
	}
}

func TestTUIUsageErrors(t *testing.T) {
	dir := t.TempDir()
	preds := filepath.Join(dir, "p.csv")
	os.WriteFile(preds, []byte("drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\nNOPE,X,1,1,1,1\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"both sources", []string{"--model", "m", "--predictions", "p"}, 2, "at most one of --model and --predictions"},
		{"extra argument", []string{"x"}, 2, `unexpected argument "x"`},
		{"unknown cell line", []string{"--cell-line", "HeLa"}, 2, `no cell line "HeLa"`},
		{"bad kappa", []string{"--kappa", "NaN"}, 2, "--kappa must be finite"},
		{"bad coverage", []string{"--model", "m", "--coverage", "0"}, 2, "--coverage 0: want a probability in (0, 1)"},
		{"coverage without model", []string{"--coverage", "0.8"}, 2, "--coverage goes with --model"},
		{"missing screen", []string{"--screen", filepath.Join(dir, "none")}, 1, "none"},
		{"missing model", []string{"--model", filepath.Join(dir, "none.model")}, 1, "none.model"},
		{"bad predictions", []string{"--predictions", preds, "--cell-line", "SYNTH-1"}, 1, `p.csv: line 2: column drug_a: drug "NOPE" is not in the screen`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), append([]string{"tui"}, tc.args...), Env{Stdout: &stdout, Stderr: &stderr})
			if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr.String(), tc.code, tc.want)
			}
		})
	}
}

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
