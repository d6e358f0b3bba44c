package cli

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/methods"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/deup-screening/deup/trained"
	"github.com/deup-screening/deup/uq"
)

// readPredColumns reads the named float columns of a prediction file in
// any of its formats (CSV, Arrow IPC, Parquet), failing when one is absent.
func readPredColumns(t *testing.T, path string, names ...string) [][]float64 {
	t.Helper()
	out := make([][]float64, len(names))
	switch filepath.Ext(path) {
	case ".csv":
		rows := readCSVRows(t, path)
		for k, name := range names {
			c := -1
			for i, h := range rows[0] {
				if h == name {
					c = i
				}
			}
			if c < 0 {
				t.Fatalf("%s: no column %s in %v", path, name, rows[0])
			}
			for _, r := range rows[1:] {
				v, err := strconv.ParseFloat(r[c], 64)
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				out[k] = append(out[k], v)
			}
		}
		return out
	case ".parquet":
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		defer pf.Close()
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := fr.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer tab.Release()
		for k, name := range names {
			idx := tab.Schema().FieldIndices(name)
			if len(idx) != 1 {
				t.Fatalf("%s: no column %s in %v", path, name, tab.Schema())
			}
			for _, ch := range tab.Column(idx[0]).Data().Chunks() {
				out[k] = append(out[k], ch.(*array.Float64).Float64Values()...)
			}
		}
		return out
	case ".arrow":
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		r, err := ipc.NewFileReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for i := 0; i < r.NumRecords(); i++ {
			rec, err := r.Record(i)
			if err != nil {
				t.Fatal(err)
			}
			for k, name := range names {
				idx := rec.Schema().FieldIndices(name)
				if len(idx) != 1 {
					t.Fatalf("%s: no column %s in %v", path, name, rec.Schema())
				}
				out[k] = append(out[k], rec.Column(idx[0]).(*array.Float64).Float64Values()...)
			}
		}
		return out
	}
	t.Fatalf("unknown extension of %s", path)
	return nil
}

// TestPredictCoverage: deup train stores a calibration (held-out pairs,
// sigma-normalized conformal), and deup predict --coverage 0.9 writes lower
// and upper in every format, equal to the interval of the stored
// calibration and with lower < mu < upper; DEUP and DUE (the two model file
// families; every method passes through TestEveryMethodEveryCommand).
func TestPredictCoverage(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := t.TempDir()
	for _, method := range []string{"deup", "due"} {
		t.Run(method, func(t *testing.T) {
			mp := filepath.Join(dir, method+".model")
			out, serr, code := run(t, "train", "--screen", screen, "--method", method, "--epochs", "2", "--patience", "2", "--seed", "4", "--out", mp)
			if code != 0 {
				t.Fatalf("train exit %d: %s", code, serr)
			}
			tm, err := trained.ReadFile(mp, methods.Default().Load)
			if err != nil {
				t.Fatal(err)
			}
			cal := tm.Meta.Calibration
			// 150 generated pairs, 10% held out (train's default).
			if cal == nil || cal.Method != uq.MethodConformalNormalized || cal.N != int(math.Round(0.1*float64(tm.Meta.Screen.Pairs))) {
				t.Fatalf("calibration %+v of %d pairs", cal, tm.Meta.Screen.Pairs)
			}
			if want := "calibration: " + itoa(cal.N) + " of " + itoa(tm.Meta.Screen.Pairs) + " pairs"; !strings.Contains(out, want) {
				t.Errorf("train output lacks %q:\n%s", want, out)
			}
			for _, ext := range []string{".csv", ".parquet", ".arrow"} {
				p := filepath.Join(dir, method+"-cov"+ext)
				_, serr, code := run(t, "predict", "--model", mp, "--all-pairs", "--coverage", "0.9", "--out", p)
				if code != 0 {
					t.Fatalf("predict exit %d: %s", code, serr)
				}
				if want := "lower and upper at 90% coverage from the calibration stored in " + mp + ": " + cal.String(); !strings.Contains(serr, want) {
					t.Errorf("stderr %q lacks %q", serr, want)
				}
				// deup tui --predictions reads such a file and says the
				// interval columns are not shown.
				var tuiErr bytes.Buffer
				if _, err := loadTUITable(context.Background(), Env{Stderr: &tuiErr}, tuiInputs{screenDir: screen, predPath: p, kappa: 1}); err != nil {
					t.Errorf("tui --predictions %s: %v", p, err)
				} else if !strings.Contains(tuiErr.String(), "score, lower, upper, measured, measured_mean are not shown") {
					t.Errorf("tui --predictions %s: stderr %q", p, tuiErr.String())
				}
				c := readPredColumns(t, p, "mu", "sigma_total", "lower", "upper")
				if n := 20 * 19 / 2; len(c[0]) != n {
					t.Fatalf("%s: %d rows, want %d", p, len(c[0]), n)
				}
				for i := range c[0] {
					mu, sigma, lo, hi := c[0][i], c[1][i], c[2][i], c[3][i]
					wlo, whi, err := cal.Interval(mu, sigma, 0.9)
					if err != nil {
						t.Fatal(err)
					}
					tol := 1e-5 * (1 + math.Abs(wlo) + math.Abs(whi)) // CSV keeps 7 digits
					if !(lo < mu && mu < hi) || math.Abs(lo-wlo) > tol || math.Abs(hi-whi) > tol {
						t.Fatalf("%s row %d: mu %v, [%v, %v], want [%v, %v] around mu", p, i, mu, lo, hi, wlo, whi)
					}
				}
			}
		})
	}
}

// TestCoverageErrors: every bad --coverage or --calibration is an error
// that says what to do, never a file with silent intervals.
func TestCoverageErrors(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := t.TempDir()
	withCal := filepath.Join(dir, "cal.model")
	noCal := filepath.Join(dir, "nocal.model")
	for _, a := range [][]string{
		{"--out", withCal},
		{"--calibration", "0", "--out", noCal},
		{"--split", "40/30/30", "--out", filepath.Join(dir, "bench.model")},
	} {
		args := append([]string{"train", "--screen", screen, "--epochs", "1", "--patience", "1", "--seed", "2"}, a...)
		out, serr, code := run(t, args...)
		switch {
		case code != 0:
			t.Fatalf("%v: exit %d: %s", args, code, serr)
		case a[0] == "--calibration" && !strings.Contains(out, "calibration: none (--calibration 0)"):
			t.Errorf("train --calibration 0 output:\n%s", out)
		case a[0] == "--split" && !strings.Contains(out, "test: the stored 90% interval covers"):
			t.Errorf("train --split 40/30/30 output lacks the test coverage:\n%s", out)
		}
	}
	tm, err := trained.ReadFile(noCal, methods.Default().Load)
	if err != nil || tm.Meta.Calibration != nil {
		t.Fatalf("--calibration 0 model: %v, calibration %+v", err, tm.Meta.Calibration)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"coverage 0", []string{"predict", "--model", withCal, "--all-pairs", "--coverage", "0"}, "--coverage 0: want a probability in (0, 1)"},
		{"coverage 1", []string{"predict", "--model", withCal, "--all-pairs", "--coverage", "1"}, "--coverage 1: want a probability in (0, 1)"},
		{"coverage 90", []string{"predict", "--model", withCal, "--all-pairs", "--coverage", "90"}, "e.g. 0.9 for a 90% interval"},
		{"coverage NaN", []string{"predict", "--model", withCal, "--all-pairs", "--coverage", "NaN"}, "want a probability in (0, 1)"},
		{"no calibration", []string{"predict", "--model", noCal, "--all-pairs", "--coverage", "0.9"}, "holds no calibration (trained with --calibration 0, or by an older deup): retrain it with deup train --calibration 0.1"},
		// 15 calibration pairs; 95% needs 19 (uq.MinCalibration(0.05)).
		{"too few pairs", []string{"predict", "--model", withCal, "--all-pairs", "--coverage", "0.95"}, "calibrated on 15 pairs, and a 95% conformal interval needs at least 19: retrain it with a larger deup train --calibration fraction"},
		{"train fraction too small", []string{"train", "--screen", screen, "--calibration", "0.05", "--epochs", "1"}, "--calibration 0.05 holds out 8 of 150 pairs, fewer than the 9 a 90% conformal interval needs"},
		{"train fraction 1", []string{"train", "--screen", screen, "--calibration", "1", "--epochs", "1"}, "--calibration 1: want a fraction in [0, 1)"},
		{"train conformal", []string{"train", "--screen", screen, "--conformal", "cqr", "--epochs", "1"}, "--conformal \"cqr\": want normalized or plain"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".csv")
			args := append(tc.args, "--out", out)
			_, serr, code := run(t, args...)
			if code != 2 || !strings.Contains(serr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, serr, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written", out)
			}
		})
	}
}
