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

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

// TestTrainPredict trains on the synthetic default for two epochs and
// predicts listed pairs (CSV) and all pairs (Parquet) with the saved model.
func TestTrainPredict(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "m.deup")
	out, serr, code := runCLI(t, "train", "--epochs", "2", "--seed", "3", "--out", mp)
	if code != 0 {
		t.Fatalf("train exit %d: %s", code, serr)
	}
	for _, want := range []string{"synthetic default", "trained deup: 4 epochs in all (last run: 2,", // 2 of the novelty fold's μ′, then 2 of the model
		"calibration: 91 of 909 pairs (--calibration 0.1, seed 3) held out before the split",
		"split 70/30 (seed 3) of the other 818 pairs: 573 in-sample (mu fitted), 245 out-of-sample", "calibration stored: conformal-normalized on 91 pairs",
		"out-of-sample RMSE", "predicting the in-sample mean", "replicate noise sd", "aleatoric from replicate variance", "remembers its 60 drugs"} {
		if !strings.Contains(out, want) {
			t.Errorf("train output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(serr, "train deup [") {
		t.Errorf("no progress bar on stderr: %q", serr)
	}

	// Pairs by id of the synthetic default's drugs.
	sc, _, err := loadScreen("")
	if err != nil {
		t.Fatal(err)
	}
	pairsCSV := filepath.Join(dir, "pairs.csv")
	body := "drug_a,drug_b\n" + sc.Drugs[0].ID + "," + sc.Drugs[1].ID + "\n" + sc.Drugs[1].ID + "," + sc.Drugs[0].ID + "\n" + sc.Drugs[2].ID + "," + sc.Drugs[5].ID + "\n"
	if err := os.WriteFile(pairsCSV, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	predCSV := filepath.Join(dir, "pred.csv")
	if _, serr, code := runCLI(t, "predict", "--model", mp, "--pairs", pairsCSV, "--out", predCSV); code != 0 {
		t.Fatalf("predict exit %d: %s", code, serr)
	}
	fh, _ := os.Open(predCSV)
	rows, err := csv.NewReader(fh).ReadAll()
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || strings.Join(rows[0], ",") != "drug_a_id,drug_b_id,drug_a_name,drug_b_name,cell_line,score,mu,sigma_total,sigma_epistemic,sigma_aleatoric,measured,measured_mean" {
		t.Fatalf("prediction CSV: %v", rows)
	}
	if strings.Join(rows[1][4:], ",") != strings.Join(rows[2][4:], ",") {
		t.Errorf("(a,b) and (b,a) differ: %v vs %v", rows[1], rows[2])
	}
	// measured and measured_mean against the screen itself.
	measured := map[[2]string]string{}
	for _, p := range sc.Pairs {
		if sc.CellLines[p.CellLine] == "SYNTH-1" {
			measured[[2]string{sc.Drugs[p.A].ID, sc.Drugs[p.B].ID}] = strconv.FormatFloat(p.Mean[0], 'g', -1, 64)
			measured[[2]string{sc.Drugs[p.B].ID, sc.Drugs[p.A].ID}] = strconv.FormatFloat(p.Mean[0], 'g', -1, 64)
		}
	}
	for _, r := range rows[1:] {
		y, ok := measured[[2]string{r[0], r[1]}]
		if r[4] != "SYNTH-1" || r[5] != sc.ScoreNames[0] || r[10] != strconv.FormatBool(ok) || r[11] != y {
			t.Errorf("row %v: want cell line SYNTH-1, score %s, measured %v, measured_mean %q", r, sc.ScoreNames[0], ok, y)
		}
		tot, _ := strconv.ParseFloat(r[7], 64)
		epi, _ := strconv.ParseFloat(r[8], 64)
		ale, _ := strconv.ParseFloat(r[9], 64)
		if !(tot > 0) || epi > tot || ale > tot {
			t.Errorf("row %v: sigmas inconsistent", r)
		}
	}

	predPQ := filepath.Join(dir, "all.parquet")
	out, serr, code = runCLI(t, "predict", "--model", mp, "--all-pairs", "--out", predPQ)
	if code != 0 {
		t.Fatalf("predict --all-pairs exit %d: %s", code, serr)
	}
	n := len(sc.Drugs)
	if want := strconv.Itoa(n*(n-1)/2) + " pairs"; !strings.Contains(out, want) {
		t.Errorf("output %q lacks %q", out, want)
	}
	pf, err := file.OpenParquetFile(predPQ, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if got := pf.NumRows(); got != int64(n*(n-1)/2) {
		t.Errorf("parquet has %d rows, want %d", got, n*(n-1)/2)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range schema.Fields() {
		got = append(got, f.Name+":"+f.Type.String())
	}
	if want := "drug_a_id:utf8,drug_b_id:utf8,drug_a_name:utf8,drug_b_name:utf8,cell_line:utf8,score:utf8,mu:float64,sigma_total:float64,sigma_epistemic:float64,sigma_aleatoric:float64,measured:bool,measured_mean:float64"; strings.Join(got, ",") != want {
		t.Errorf("schema %s, want %s", strings.Join(got, ","), want)
	}

	t.Run("errors", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.deup")
		data, _ := os.ReadFile(mp)
		data[len(data)/2] ^= 1
		os.WriteFile(bad, data, 0o644)
		for _, tc := range []struct {
			name string
			args []string
			code int
			want string
		}{
			{"no out", []string{"train"}, 2, "--out is required"},
			{"bad method", []string{"train", "--method", "svm", "--out", "x"}, 2, "unknown method"},
			{"bad features", []string{"train", "--features", "maccs", "--out", filepath.Join(dir, "x")}, 2, "unknown --features"},
			{"bad extension", []string{"predict", "--model", mp, "--all-pairs", "--out", "x.xlsx"}, 2, "extension"},
			{"pairs and all", []string{"predict", "--model", mp, "--all-pairs", "--pairs", pairsCSV, "--out", "x.csv"}, 2, "exactly one"},
			{"corrupted model", []string{"predict", "--model", bad, "--all-pairs", "--out", filepath.Join(dir, "y.csv")}, 1, "checksum mismatch"},
			{"unknown drug", []string{"predict", "--model", mp, "--pairs", writeTrainFile(t, dir, "p2.csv", "drug_a,drug_b\nnope,"+sc.Drugs[0].ID+"\n"), "--out", filepath.Join(dir, "z.csv")}, 1, "p2.csv:2: column drug_a: unknown drug \"nope\""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, serr, code := runCLI(t, tc.args...)
				if code != tc.code || !strings.Contains(serr, tc.want) {
					t.Errorf("exit %d, stderr %q; want exit %d and %q", code, serr, tc.code, tc.want)
				}
			})
		}
	})
}

func writeTrainFile(t *testing.T, dir, name, body string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTrainSigmaFeatures: deup train --sigma-features stores the features
// in the model file; predict reads them back (symmetric pairs); a bad list
// is a usage error naming the flag.
func TestTrainSigmaFeatures(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "m.deup")
	out, serr, code := runCLI(t, "train", "--epochs", "2", "--seed", "3", "--sigma-features", "counts,density", "--out", mp)
	if code != 0 {
		t.Fatalf("train exit %d: %s", code, serr)
	}
	if want := "sigma features: density,counts, relative to the 573 in-sample pairs"; !strings.Contains(out, want) {
		t.Errorf("train output lacks %q:\n%s", want, out)
	}
	sc, _, err := loadScreen("")
	if err != nil {
		t.Fatal(err)
	}
	pairsCSV := filepath.Join(dir, "pairs.csv")
	body := "drug_a,drug_b\n" + sc.Drugs[0].ID + "," + sc.Drugs[1].ID + "\n" + sc.Drugs[1].ID + "," + sc.Drugs[0].ID + "\n"
	if err := os.WriteFile(pairsCSV, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	predCSV := filepath.Join(dir, "pred.csv")
	if _, serr, code := runCLI(t, "predict", "--model", mp, "--pairs", pairsCSV, "--out", predCSV); code != 0 {
		t.Fatalf("predict exit %d: %s", code, serr)
	}
	fh, _ := os.Open(predCSV)
	rows, err := csv.NewReader(fh).ReadAll()
	fh.Close()
	if err != nil || len(rows) != 3 {
		t.Fatalf("prediction CSV: %v %v", rows, err)
	}
	if strings.Join(rows[1][4:], ",") != strings.Join(rows[2][4:], ",") {
		t.Errorf("(a,b) and (b,a) differ: %v vs %v", rows[1], rows[2])
	}
	for _, cmd := range []string{"train", "bench"} {
		_, serr, code = runCLI(t, cmd, "--sigma-features", "density,varience", "--out", filepath.Join(dir, "x"))
		if code != 2 || !strings.Contains(serr, "--sigma-features") || !strings.Contains(serr, `unknown feature "varience"`) {
			t.Errorf("%s with a bad --sigma-features: exit %d, %q", cmd, code, serr)
		}
		_, serr, code = runCLI(t, cmd, "--sigma-loss", "l1", "--out", filepath.Join(dir, "x"))
		if code != 2 || !strings.Contains(serr, `--sigma-loss "l1"`) {
			t.Errorf("%s with a bad --sigma-loss: exit %d, %q", cmd, code, serr)
		}
	}
}
