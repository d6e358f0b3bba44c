package predict

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/scores"
	"github.com/deup-screening/deup/trained"
	"github.com/deup-screening/deup/uq"
)

// TestCalibration: a model's stored calibration gives intervals at a
// coverage only with enough calibration pairs: uq.MinCalibration is 9 at
// 90% and 19 at 95% (the figures deup train's help and the suggest tests
// cite).
func TestCalibration(t *testing.T) {
	withN := func(n int) *trained.Bundle {
		return &trained.Bundle{Meta: &trained.Meta{Calibration: &uq.Calibrator{Method: uq.MethodConformal, N: n}}}
	}
	for _, tc := range []struct {
		name     string
		tm       *trained.Bundle
		coverage float64
		err      string // "" : the model's calibration
	}{
		{"no meta", &trained.Bundle{}, 0.9, "m.deup holds no calibration"},
		{"no calibration", &trained.Bundle{Meta: &trained.Meta{}}, 0.9, "holds no calibration"},
		{"9 at 90%", withN(9), 0.9, ""},
		{"8 at 90%", withN(8), 0.9, "calibrated on 8 pairs, and a 90% conformal interval needs at least 9"},
		{"15 at 95%", withN(15), 0.95, "needs at least 19"},
		{"19 at 95%", withN(19), 0.95, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cal, err := Calibration(tc.tm, "m.deup", tc.coverage)
			switch {
			case tc.err == "" && (err != nil || cal != tc.tm.Meta.Calibration):
				t.Errorf("got %v, %v; want the model's calibration", cal, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("err %v; want %q", err, tc.err)
			}
		})
	}
}

// TestOpen: the job takes the shard's rows of the pairs (every pair of the
// kept drugs, or the pairs file's rows, matched to feature rows), t gets
// the kept drugs and the file's other columns, and a hive part records the
// run's identity; digests are sha256sum of the files' bytes.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	drugs := []drugcomb.Drug{{ID: "a", SMILES: "C"}, {ID: "x"}, {ID: "B", SMILES: "CC"}, {ID: "c", SMILES: "CCC"}}
	kept := []int{0, 2, 3} // x has no usable structure
	modelPath, pairsPath := filepath.Join(dir, "m.deup"), filepath.Join(dir, "pairs.csv")
	os.WriteFile(modelPath, []byte("model"), 0o644)
	os.WriteFile(pairsPath, []byte("drug_a_id,drug_b_id,note\nB,a,x\n"), 0o644)
	for _, tc := range []struct {
		name       string
		p          Plan
		cellLine   string
		lo, hi     int
		pairs      []model.PairRef // nil: every pair
		extra      []string
		pairDigest string // hive only
		err        error
	}{
		{name: "all pairs, shard 1/2", p: Plan{Out: filepath.Join(dir, "o.csv"), Shard: scores.Shard{Index: 1, Count: 2}}, lo: 1, hi: 3},
		{name: "pairs file", p: Plan{Out: filepath.Join(dir, "p.parquet"), Pairs: pairsPath, Shard: scores.Whole}, hi: 1,
			pairs: []model.PairRef{{A: 1, B: 0}}, extra: []string{"note"}},
		{name: "hive", p: Plan{Out: filepath.Join(dir, "hive"), Hive: true, Pairs: pairsPath, Shard: scores.Whole, Model: modelPath, Program: "test"},
			cellLine: "L0", hi: 1, pairs: []model.PairRef{{A: 1, B: 0}}, extra: []string{"note"},
			pairDigest: "f57c84dd6154415930ab13c7b8fb483aba32fb9edf8c4ef51050827249d0ff58"},
		{name: "hive without a cell line", p: Plan{Out: filepath.Join(dir, "hive2"), Hive: true, Shard: scores.Whole, Model: modelPath}, err: ErrNoCellLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.p.Lines = []int{0}
			tab := &Table{Lines: []string{"L0"}, Score: "s"}
			job, w, err := Open(tc.p, drugs, kept, tc.cellLine, tab)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer w.Abort()
			if job.Lo != tc.lo || job.Hi != tc.hi || (job.Pairs == nil) != (tc.pairs == nil) {
				t.Errorf("job rows [%d, %d) pairs %v; want [%d, %d) pairs %v", job.Lo, job.Hi, job.Pairs, tc.lo, tc.hi, tc.pairs)
			}
			if job.Pairs != nil && (len(job.Pairs.Pairs) != 1 || job.Pairs.Pairs[0] != tc.pairs[0]) {
				t.Errorf("pairs %v, want %v", job.Pairs.Pairs, tc.pairs)
			}
			if strings.Join(tab.Drugs.IDs, " ") != "a B c" || tab.Drugs.Row["B"] != 1 || strings.Join(tab.Extra, " ") != strings.Join(tc.extra, " ") {
				t.Errorf("table drugs %v, extra %v", tab.Drugs, tab.Extra)
			}
			if !tc.p.Hive {
				return
			}
			id, err := Identity(tc.p, tab.Drugs, tc.cellLine, job.Lo, job.Hi, 1)
			if err != nil {
				t.Fatal(err)
			}
			want := scores.Identity{Model: "9372c470eeadd5ecd9c3c74c2b3cb633f8e2f2fad799250a0f70d652b6b825e4",
				Drugs: scores.DrugsDigest([]string{"a", "B", "c"}, []string{"C", "CC", "CCC"}), NDrugs: 3, Pairs: tc.pairDigest,
				Program: "test", CellLine: "L0", Shard: scores.Whole, Lo: 0, Hi: 1, Total: 1}
			if id != want {
				t.Errorf("identity %+v, want %+v", id, want)
			}
		})
	}
}
