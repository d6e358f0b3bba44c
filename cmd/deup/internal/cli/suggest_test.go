package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/methods"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/suggest"
	"github.com/deup-screening/deup/trained"
)

// TestSuggestFromModel trains a small network on a synthetic screen, saves
// it, and exports suggestions from it in the three formats.
func TestSuggestFromModel(t *testing.T) {
	screen := campaignScreenDir(t)
	sc, err := drugcomb.Open(screen)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := features.Build(sc.Drugs, features.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := model.NewDataset(sc, f, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := deupnet.New(deupnet.Config{Config: model.Config{TowerHidden: 32, TowerOut: 16, CombHidden: 16, SigmaHidden: 16, LR: 1e-3, MaxEpochs: 5, Patience: 5, Seed: 1}})
	if err := m.Fit(context.Background(), ds, drugcomb.SplitRandom(len(ds.Pairs), [3]float64{0.6, 0.4, 0}, 1), nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mp := filepath.Join(dir, "model.bin")
	mf, err := os.Create(mp)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Save(mf); err != nil {
		t.Fatal(err)
	}
	mf.Close()
	for _, ext := range []string{"csv", "parquet", "json"} {
		out := filepath.Join(dir, "next."+ext)
		stdout := mustRun(t, "suggest", "--model", mp, "--screen", screen, "--batch", "7", "--acquisition", "ucb:1", "--max-per-drug", "1", "--out", out)
		if !strings.Contains(stdout, "wrote 7 suggestions (ucb:1 by deup, from 40 unmeasured pairs") {
			t.Errorf("output: %s", stdout)
		}
		rows, err := suggest.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 7 {
			t.Fatalf("%s: %d rows", ext, len(rows))
		}
		seen := map[string]bool{}
		for i, r := range rows {
			if r.Rank != i+1 || !strings.HasPrefix(r.Reason, "ucb ") || !strings.Contains(r.Reason, "at most 1 per drug") || r.Interval != nil {
				t.Errorf("%s row %d: %+v", ext, i, r)
			}
			if want := r.Mu + r.SigmaEpistemic; abs(r.Acquisition-want) > 1e-9*(1+abs(want)) {
				t.Errorf("%s row %d: acquisition %v, want mu + sigma_epistemic = %v", ext, i, r.Acquisition, want)
			}
			if i > 0 && r.Acquisition > rows[i-1].Acquisition {
				t.Errorf("%s: not sorted at rank %d", ext, r.Rank)
			}
			if seen[r.DrugA.ID] || seen[r.DrugB.ID] {
				t.Errorf("%s: a drug appears twice with --max-per-drug 1", ext)
			}
			seen[r.DrugA.ID], seen[r.DrugB.ID] = true, true
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestSuggestIntervals: a model with a calibration gives lower/upper (the
// stored calibration's interval at --coverage, stated in the output and the
// reason) in every format; --calibrated-sigma scales the sigma the
// acquisition reads by f = (upper - lower)/(2 z sigma_total); a model
// without calibration gives none by default and an error when --coverage
// or --calibrated-sigma is asked.
func TestSuggestIntervals(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := t.TempDir()
	mp, noCal := filepath.Join(dir, "cal.model"), filepath.Join(dir, "nocal.model")
	mustRun(t, "train", "--screen", screen, "--epochs", "2", "--patience", "2", "--seed", "5", "--out", mp)
	mustRun(t, "train", "--screen", screen, "--epochs", "2", "--patience", "2", "--seed", "5", "--calibration", "0", "--out", noCal)
	tm, err := trained.ReadFile(mp, methods.Default().Load)
	if err != nil {
		t.Fatal(err)
	}
	cal := tm.Meta.Calibration
	for _, ext := range []string{"csv", "parquet", "json"} {
		for _, calSigma := range []bool{false, true} {
			out := filepath.Join(dir, "next."+ext)
			args := []string{"suggest", "--model", mp, "--batch", "5", "--acquisition", "ucb:1", "--coverage", "0.8", "--out", out}
			if calSigma {
				args = append(args, "--calibrated-sigma")
			}
			stdout := mustRun(t, args...)
			if want := "intervals: lower and upper at 80% coverage, " + cal.String() + " held out of training"; !strings.Contains(stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, stdout)
			}
			rows, err := suggest.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			z := 1.2815515655446004 // Phi^-1(0.9), scipy.stats.norm.ppf(0.9)
			for i, r := range rows {
				lo, hi, err := cal.Interval(r.Mu, r.SigmaTotal, 0.8)
				if err != nil || r.Interval == nil || r.Interval.Lower != lo || r.Interval.Upper != hi || !(lo < r.Mu && r.Mu < hi) {
					t.Fatalf("%s row %d: interval %+v, want [%v, %v] around mu %v (%v)", ext, i, r.Interval, lo, hi, r.Mu, err)
				}
				if !strings.Contains(r.Reason, "80% interval [") {
					t.Errorf("%s row %d: reason %q does not state the interval", ext, i, r.Reason)
				}
				f := 1.0
				if calSigma {
					f = (hi - lo) / (2 * z * r.SigmaTotal)
				}
				if want := r.Mu + f*r.SigmaEpistemic; abs(r.Acquisition-want) > 1e-9*(1+abs(want)) {
					t.Errorf("%s row %d (--calibrated-sigma %v): acquisition %v, want mu + %.4g sigma_epistemic = %v", ext, i, calSigma, r.Acquisition, f, want)
				}
			}
		}
	}
	// Without calibration: no interval by default, said in the output.
	out := filepath.Join(dir, "nocal.csv")
	if stdout := mustRun(t, "suggest", "--model", noCal, "--batch", "3", "--out", out); !strings.Contains(stdout, "no intervals: "+noCal+" holds no calibration") {
		t.Errorf("output:\n%s", stdout)
	}
	rows, err := suggest.ReadFile(out)
	if err != nil || len(rows) != 3 || rows[0].Interval != nil {
		t.Fatalf("%v, %+v", err, rows)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"explicit coverage", []string{"--model", noCal, "--coverage", "0.9"}, "holds no calibration (trained with --calibration 0, or by an older deup): retrain it with deup train --calibration 0.1"},
		{"calibrated sigma", []string{"--model", noCal, "--calibrated-sigma"}, "holds no calibration"},
		{"coverage 1.2", []string{"--model", mp, "--coverage", "1.2"}, "--coverage 1.2: want a probability in (0, 1)"},
		{"too few pairs", []string{"--model", mp, "--coverage", "0.95"}, "calibrated on 15 pairs, and a 95% conformal interval needs at least 19"},
		{"campaign", []string{"--campaign", dir, "--coverage", "0.9"}, "--coverage and --calibrated-sigma go with --model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, serr, code := run(t, append(append([]string{"suggest"}, tc.args...), "--out", filepath.Join(dir, "x.csv"))...)
			if code != 2 || !strings.Contains(serr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, serr, tc.want)
			}
		})
	}
}
