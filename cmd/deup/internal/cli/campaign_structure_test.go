package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
)

// TestCampaignBrokenSMILES: a screen saved before import checked
// structures, one drug with a SMILES typo, is not refused by campaign
// simulate or init: the drug is left out with its pairs and named on
// stderr, as train and predict do (the one structure rule).
func TestCampaignBrokenSMILES(t *testing.T) {
	sc, err := data.Synth(data.SynthConfig{Seed: 3, Drugs: 20, CellLines: 1, Pairs: 150, ReplicateFrac: 0.2, MaxReplicates: 3,
		LatentDim: 3, Scale: 10, NoiseMin: 1, NoiseMax: 3, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	sc.Drugs[4].Name, sc.Drugs[4].SMILES = "Methotrexate", "CC(C"
	screen := filepath.Join(t.TempDir(), "screen")
	if err := drugcomb.Save(screen, sc); err != nil {
		t.Fatal(err)
	}
	want := `drug Methotrexate (` + sc.Drugs[4].ID + `): smiles "CC(C": at position 3: unbalanced branch`
	for _, args := range [][]string{
		{"campaign", "simulate", "--screen", screen, "--init", "20", "--batch", "5", "--rounds", "1", "--seeds", "1", "--acquisition", "deup-ridge-ucb,random", "--out", filepath.Join(t.TempDir(), "sim")},
		{"campaign", "init", "--screen", screen, "--mode", "retrospective", "--init", "20", "--batch", "5", filepath.Join(t.TempDir(), "c")},
	} {
		out, serr, code := run(t, args...)
		if code != 0 {
			t.Fatalf("deup %s: exit %d\n%s%s", strings.Join(args, " "), code, out, serr)
		}
		if !strings.Contains(serr, want) {
			t.Errorf("deup %s: stderr lacks %q:\n%s", strings.Join(args[:2], " "), want, serr)
		}
	}
}
