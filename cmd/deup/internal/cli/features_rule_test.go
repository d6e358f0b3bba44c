package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

// TestFPSigRuleSameInTrainAndBench: under --features fp+sig, train and
// bench state and apply the same rule for drugs without a signature (their
// pairs are left out), and the same fragment rule for fingerprints; predict
// with an fp+sig model leaves those drugs out as well. PC-3:
// 42 of 80 drugs have a signature with a finite value (47 matched, 5 of them
// all NaN; lincs.TestMatchPC3), and 412 of the 1,440 pairs have one for both
// drugs; 20 of the 80 drugs are salts or mixtures (SMILES with a dot) (independent Python 3.11 counts over the shared CSVs).
func TestFPSigRuleSameInTrainAndBench(t *testing.T) {
	dir := pc3ScreenDir(t)
	if _, serr, code := runCLI(t, "data", "signatures", "--screen", dir,
		"--gct", shareddata.Path(t, "lincs", "consensus_signatures.gct"),
		"--pertinfo", shareddata.Path(t, "lincs", "pertinfo.tsv.gz")); code != 0 {
		t.Fatalf("data signatures: exit %d: %s", code, serr)
	}
	tmp := t.TempDir()
	train, serr, code := runCLI(t, "train", "--screen", dir, "--features", "fp+sig", "--epochs", "1", "--out", filepath.Join(tmp, "m.deup"))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, serr)
	}
	bench, serr, code := runCLI(t, "bench", "--screen", dir, "--features", "fp+sig", "--methods", "deup", "--seeds", "1", "--epochs", "1",
		"--extra-passes", "-1", "--no-figures", "--out", filepath.Join(tmp, "b"))
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, serr)
	}
	wantLines := []string{
		"fp+sig: 42 of 80 drugs have a signature; 412 of 1440 pairs have one for both drugs and are used, the other 1028 are left out",
		"fingerprints: largest organic fragment of each SMILES (20 of 80 drugs had a salt or mixture stripped; --whole-molecule keeps them)",
	}
	for _, want := range wantLines {
		for cmd, out := range map[string]string{"train": train, "bench": bench} {
			if !strings.Contains(out, want+"\n") {
				t.Errorf("%s output lacks %q:\n%s", cmd, want, out)
			}
		}
	}
	if !strings.Contains(train, "412 pairs") {
		t.Errorf("train did not train on the 412 pairs:\n%s", train)
	}
	// predict with the fp+sig model: the 38 drugs without a signature are
	// left out too (42·41/2 = 861 pairs), and stderr says so.
	pout, serr, code := runCLI(t, "predict", "--model", filepath.Join(tmp, "m.deup"), "--screen", dir, "--all-pairs", "--out", filepath.Join(tmp, "p.parquet"))
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, serr)
	}
	if want := "deup predict: 38 of 80 drugs have no L1000 signature, which fp+sig features need, and are skipped"; !strings.Contains(serr, want) {
		t.Errorf("predict stderr lacks %q:\n%s", want, serr)
	}
	if !strings.Contains(pout, "861 pairs") {
		t.Errorf("predict output lacks 861 pairs:\n%s", pout)
	}
	whole, serr, code := runCLI(t, "train", "--screen", dir, "--epochs", "1", "--whole-molecule", "--out", filepath.Join(tmp, "w.deup"))
	if code != 0 {
		t.Fatalf("train --whole-molecule: exit %d: %s", code, serr)
	}
	if want := "fingerprints: whole molecules, salts and mixtures included (--whole-molecule)\n"; !strings.Contains(whole, want) {
		t.Errorf("train --whole-molecule output lacks %q:\n%s", want, whole)
	}
}
