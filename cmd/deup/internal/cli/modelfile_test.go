package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/methods"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/trained"
)

// TestEveryMethodEveryCommand trains each method briefly (one or two epochs
// on a 20-drug generated screen) with deup train and passes its file through
// the one loader of every command that takes a model: predict (the model's
// own drugs by default, --screen, --drugs), suggest, the TUI's model load and
// campaign init --from-model.
func TestEveryMethodEveryCommand(t *testing.T) {
	screen := campaignScreenDir(t)
	sc, err := drugcomb.Open(screen)
	if err != nil {
		t.Fatal(err)
	}
	n := len(sc.Drugs)
	dir := t.TempDir()
	// A catalogue in a layout public data sets use (name,pubchemid,isosmiles)
	// holding the screen's drugs under other ids plus one without a structure.
	var cat strings.Builder
	cat.WriteString("name,pubchemid,isosmiles\n")
	for i, d := range sc.Drugs {
		cat.WriteString(d.Name + "," + itoa(900000+i) + "," + d.SMILES + "\n")
	}
	cat.WriteString("nostructure,999999,\n")
	catPath := writeTrainFile(t, dir, "catalogue.csv", cat.String())

	for _, method := range []string{"deup", "ensemble", "ensemble-nll", "mcdropout", "due"} {
		t.Run(method, func(t *testing.T) {
			mp := filepath.Join(dir, method+".model")
			out, serr, code := run(t, "train", "--screen", screen, "--method", method, "--members", "2", "--epochs", "2", "--patience", "2", "--seed", "2", "--out", mp)
			if code != 0 {
				t.Fatalf("train exit %d: %s", code, serr)
			}
			if !strings.Contains(out, "in-sample (mu fitted)") || !strings.Contains(out, "predicting the in-sample mean") {
				t.Errorf("train output:\n%s", out)
			}
			tm, err := trained.ReadFile(mp, methods.Default().Load)
			if err != nil {
				t.Fatal(err)
			}
			if tm.Meta == nil || tm.Meta.Method != method || len(tm.Meta.Drugs) != n || tm.Meta.Screen.CellLine != sc.CellLines[0] ||
				tm.Meta.Calibration == nil || tm.Meta.Training.InSample+tm.Meta.Training.OutOfSample+tm.Meta.Calibration.N != tm.Meta.Screen.Pairs || tm.Meta.Screen.Pairs != len(sc.Pairs) {
				t.Fatalf("metadata %+v", tm.Meta)
			}

			// predict: by default the model's own drugs.
			pred := filepath.Join(dir, method+"-all.csv")
			out, serr, code = run(t, "predict", "--model", mp, "--all-pairs", "--out", pred)
			if code != 0 {
				t.Fatalf("predict exit %d: %s", code, serr)
			}
			if want := itoa(n*(n-1)/2) + " pairs of " + itoa(n) + " drugs"; !strings.Contains(out, want) {
				t.Errorf("predict output %q lacks %q", out, want)
			}
			if rows := readCSVRows(t, pred); len(rows) != n*(n-1)/2+1 {
				t.Errorf("predict wrote %d rows", len(rows)-1)
			}
			// predict --drugs: another catalogue, its own ids, one drug skipped.
			predCat := filepath.Join(dir, method+"-cat.csv")
			out, serr, code = run(t, "predict", "--model", mp, "--all-pairs", "--drugs", catPath, "--out", predCat)
			if code != 0 {
				t.Fatalf("predict --drugs exit %d: %s", code, serr)
			}
			rows := readCSVRows(t, predCat)
			if len(rows) != n*(n-1)/2+1 || rows[1][0] != "900000" || !strings.Contains(serr, "1 of 21 drugs have no usable structure") {
				t.Errorf("predict --drugs: %d rows, first %v, stderr %q", len(rows)-1, rows[1], serr)
			}
			// Same drugs, same model: the same names, cell line, score and
			// predictions whatever the ids (columns 2 to 9); measured is
			// not looked up with --drugs.
			own := readCSVRows(t, pred)
			if strings.Join(own[1][2:10], ",") != strings.Join(rows[1][2:10], ",") || strings.Join(rows[1][10:], ",") != "false," {
				t.Errorf("pair 1 scored %v by default and %v through --drugs", own[1][2:], rows[1][2:])
			}

			// predict --coverage: the stored calibration's interval around mu.
			predCov := filepath.Join(dir, method+"-cov.csv")
			if _, serr, code = run(t, "predict", "--model", mp, "--all-pairs", "--coverage", "0.9", "--out", predCov); code != 0 {
				t.Fatalf("predict --coverage exit %d: %s", code, serr)
			}
			c := readPredColumns(t, predCov, "mu", "lower", "upper")
			for i := range c[0] {
				if !(c[1][i] < c[0][i] && c[0][i] < c[2][i]) {
					t.Fatalf("predict --coverage row %d: mu %v, [%v, %v]", i, c[0][i], c[1][i], c[2][i])
				}
			}

			// suggest: the model's screen, cell line and score by default,
			// with the interval at 90%.
			sug := filepath.Join(dir, method+"-next.csv")
			out, serr, code = run(t, "suggest", "--model", mp, "--batch", "5", "--out", sug)
			if code != 0 || !strings.Contains(out, "wrote 5 suggestions") || !strings.Contains(out, "intervals: lower and upper at 90% coverage") {
				t.Fatalf("suggest exit %d: %s %s", code, out, serr)
			}

			// The TUI's model load: every pair of the model's screen scored.
			var stderr bytes.Buffer
			tab, err := loadTUITable(context.Background(), Env{Stderr: &stderr}, tuiInputs{modelPath: mp, kappa: 1})
			if err != nil {
				t.Fatalf("tui model load: %v", err)
			}
			if tab.Len() != n*(n-1)/2 {
				t.Errorf("tui table has %d pairs, want %d", tab.Len(), n*(n-1)/2)
			}

			// campaign init --from-model: the model's screen and cell line.
			camp := filepath.Join(dir, method+"-camp")
			out, serr, code = run(t, "campaign", "init", "--from-model", mp, "--model", "bayes-ridge", "--batch", "3", camp)
			if code != 0 || !strings.Contains(out, screen) || !strings.Contains(serr, "from "+mp) {
				t.Fatalf("campaign init --from-model exit %d: %s %s", code, out, serr)
			}
		})
	}
}

// TestModelWithoutMetadata: a model file from before models recorded their
// drugs still loads, and a command that needs the drugs says what to give.
func TestModelWithoutMetadata(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := t.TempDir()
	mp := filepath.Join(dir, "new.model")
	if _, serr, code := run(t, "train", "--screen", screen, "--epochs", "1", "--out", mp); code != 0 {
		t.Fatalf("train: %s", serr)
	}
	tm, err := trained.ReadFile(mp, methods.Default().Load)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.model")
	fh, err := os.Create(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := tm.Method.Save(fh); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	for _, args := range [][]string{
		{"predict", "--model", old, "--all-pairs", "--out", filepath.Join(dir, "x.csv")},
		{"suggest", "--model", old, "--out", filepath.Join(dir, "x.csv")},
	} {
		_, serr, code := run(t, args...)
		if code != 2 || !strings.Contains(serr, "does not record the drugs") || !strings.Contains(serr, "--screen DIR") {
			t.Errorf("%v: exit %d, stderr %q", args[0], code, serr)
		}
	}
	if _, serr, code := run(t, "predict", "--model", old, "--screen", screen, "--all-pairs", "--out", filepath.Join(dir, "y.csv")); code != 0 {
		t.Errorf("old model with --screen: %s", serr)
	}
	// It holds no calibration either: an interval is an error, not a guess.
	if _, serr, code := run(t, "predict", "--model", old, "--screen", screen, "--all-pairs", "--coverage", "0.9", "--out", filepath.Join(dir, "w.csv")); code != 2 || !strings.Contains(serr, "holds no calibration") {
		t.Errorf("old model with --coverage: exit %d, stderr %q", code, serr)
	}
	// A model whose screen directory is gone asks for --screen.
	moved := filepath.Join(dir, "moved")
	if err := os.Rename(screen, moved); err != nil {
		t.Fatal(err)
	}
	if _, serr, code := run(t, "suggest", "--model", mp, "--out", filepath.Join(dir, "z.csv")); code != 2 || !strings.Contains(serr, "which is not there") {
		t.Errorf("screen gone: exit %d, stderr %q", code, serr)
	}
	// The metadata's format is checked.
	b, _ := os.ReadFile(mp)
	b = bytes.Replace(b, []byte(`"format":1`), []byte(`"format":9`), 1)
	future := filepath.Join(dir, "future.model")
	os.WriteFile(future, b, 0o644)
	if _, err := trained.ReadFile(future, methods.Default().Load); err == nil || !strings.Contains(err.Error(), "newer than this deup reads") {
		t.Errorf("future format: %v", err)
	}
}

func readCSVRows(t *testing.T, path string) [][]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestFirstErrors: the errors a newcomer meets first say what to do next.
func TestFirstErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"predict", "--model", filepath.Join(dir, "none.model"), "--all-pairs", "--out", filepath.Join(dir, "x.csv")}, 1, "does not exist: train one with deup train --out"},
		{[]string{"train", "--screen", filepath.Join(dir, "pc3"), "--out", filepath.Join(dir, "m")}, 1, "does not exist: create it with deup data import --out"},
		{[]string{"tui", "--screen", dir}, 1, "is not a screen directory (no meta.json): screen directories are written by deup data import"},
		{[]string{"train", "--split", "70/20", "--out", filepath.Join(dir, "m")}, 2, "must add up to 100"},
		{[]string{"train", "--split", "60/40/0", "--out", filepath.Join(dir, "m")}, 2, "use IN/OUT"},
		{[]string{"train", "--split", "half", "--out", filepath.Join(dir, "m")}, 2, "want IN/OUT (e.g. 70/30) or TRAIN/VAL/TEST"},
		{[]string{"predict", "--model", filepath.Join(dir, "none.model"), "--all-pairs", "--drugs", writeTrainFile(t, dir, "d.csv", "cid,structure\n1,C\n"), "--out", filepath.Join(dir, "x.csv")}, 1, "does not exist"},
	} {
		_, serr, code := run(t, tc.args...)
		if code != tc.code || !strings.Contains(serr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, serr, tc.code, tc.want)
		}
	}
	// A catalogue without a SMILES column names its columns and the flag.
	if _, err := readDrugsCSV(Env{Stderr: new(bytes.Buffer)}, "predict", writeTrainFile(t, dir, "d2.csv", "cid,structure\n1,C\n"), "", ""); err == nil ||
		!strings.Contains(err.Error(), "no drug has a SMILES (SMILES column: none found; the file's columns: cid, structure): name the SMILES column with --smiles-col") {
		t.Errorf("catalogue without SMILES: %v", err)
	}
	if drugs, err := readDrugsCSV(Env{Stderr: new(bytes.Buffer)}, "predict", writeTrainFile(t, dir, "d3.csv", "cid,structure\n1,C\n"), "", "structure"); err != nil || len(drugs) != 1 || drugs[0].SMILES != "C" || drugs[0].ID != "1" {
		t.Errorf("--smiles-col structure: %v %+v", err, drugs)
	}
}

// TestTrainBenchmarkSplit: --split 40/30/30 keeps a test part out of
// training and prints its score beside the trivial reference; the model
// file records the split.
func TestTrainBenchmarkSplit(t *testing.T) {
	screen := campaignScreenDir(t)
	mp := filepath.Join(t.TempDir(), "b.model")
	out, serr, code := run(t, "train", "--screen", screen, "--split", "40/30/30", "--epochs", "1", "--out", mp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, serr)
	}
	// 150 pairs: 15 held out for the calibration, then 40/30/30 of 135.
	for _, want := range []string{"calibration: 15 of 150 pairs", "split 40/30/30 (seed 1): train 54, validation 41 (sigma path, early stopping), test 40 (never seen in training)",
		"test: the stored 90% interval covers", "validation RMSE", "test RMSE", "(predicting the training mean:", "corr(sigma_total, |residual|) on test"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	tm, err := trained.ReadFile(mp, methods.Default().Load)
	if err != nil {
		t.Fatal(err)
	}
	if tr := tm.Meta.Training; tr.Split != "40/30/30" || tr.InSample != 54 || tr.OutOfSample != 41 || tr.Test != 40 || tr.TestRMSE == nil || tr.MeanRMSE == nil {
		t.Errorf("training record %+v", tr)
	}
}

// TestModelFileHint: the command layer adds to trained's errors what to
// type; the library's errors name no flag.
func TestModelFileHint(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.model")
	garbage := filepath.Join(dir, "garbage.model")
	if err := os.WriteFile(garbage, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, lib, cli string
	}{
		{"missing", missing, "model file " + missing + " does not exist", "model file " + missing + " does not exist: train one with deup train --out " + missing},
		{"a directory", dir, dir + " is a directory, not a model file", dir + " is a directory, not a model file: give the file deup train --out wrote"},
		{"not a model", garbage, garbage + `: model: not a valid model file: missing magic "DEUPMODEL\n"`,
			garbage + `: model: not a valid model file: missing magic "DEUPMODEL\n" (is it a file written by deup train --out? retrain it if it is from an incompatible version)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, lerr := trained.ReadFile(tc.path, methods.Default().Load)
			_, cerr := readModel(methods.Default(), tc.path)
			if lerr == nil || lerr.Error() != tc.lib || strings.Contains(lerr.Error(), "--") {
				t.Errorf("trained.ReadFile: %v\nwant %s", lerr, tc.lib)
			}
			if cerr == nil || cerr.Error() != tc.cli {
				t.Errorf("readModel: %v\nwant %s", cerr, tc.cli)
			}
		})
	}
}
