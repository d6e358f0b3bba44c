package almanac

import (
	"math"
	"os"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

func importFile(t testing.TB, path string, opt Options) *Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := Import(f, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSampleBlocks checks the importer against NCI's own numbers on the 152
// complete 3x3 blocks of ComboDrugGrowth_sample_blocks.csv: every
// combination well's expected growth within 0.01 of the file's
// EXPECTEDGROWTH, its score equal to the file's SCORE, and each block's
// ComboScore equal to the sum of the file's SCORE over its 9 wells (NCI's
// ComboScore, README of almanac_raw).
func TestSampleBlocks(t *testing.T) {
	res := importFile(t, shareddata.Path(t, "almanac_raw", "ComboDrugGrowth_sample_blocks.csv"), Options{})
	rep := res.Report
	if rep.WellsRead != 9288 || rep.CombinationWells != 1368 {
		t.Errorf("read %d wells, %d combination; want 9288, 1368", rep.WellsRead, rep.CombinationWells)
	}
	if rep.ScoredWells != 1368 || rep.Expected.Checked != 1368 || rep.Expected.Count != 0 {
		t.Errorf("scored %d, expected growth checked %d, differing %d (max %g): want 1368, 1368, 0; %v",
			rep.ScoredWells, rep.Expected.Checked, rep.Expected.Count, rep.Expected.MaxDiff, rep.Expected.Examples)
	}
	if rep.Score.Checked != 1368 || rep.Score.Count != 0 {
		t.Errorf("score checked %d, differing %d: %v", rep.Score.Checked, rep.Score.Count, rep.Score.Examples)
	}
	if got := rep.ScoredWells + rep.ReferenceWells + rep.UnusedWells(); got != rep.WellsRead {
		t.Errorf("scored %d + reference %d + unused %d = %d, want the %d wells read", rep.ScoredWells, rep.ReferenceWells, rep.UnusedWells(), got, rep.WellsRead)
	}
	if len(res.ComboScores) != 152 {
		t.Fatalf("%d blocks, want 152", len(res.ComboScores))
	}
	for _, c := range res.ComboScores {
		if c.Wells != 9 || c.Plates != 1 || c.Score != c.FileScore || math.IsNaN(c.FileScore) {
			t.Errorf("NSC %d + NSC %d on %s: ComboScore %g over %d wells on %d plates; the file's SCORE sums to %g over 9",
				c.NSC1, c.NSC2, c.Cell, c.Score, c.Wells, c.Plates, c.FileScore)
		}
	}
}

// TestSampleRows imports the breadth sample (one dose combination per pair
// and line, VALID and SCREENER empty): it must not fail, every well must
// be accounted for, and the wells without their same-plate single agents
// must be reported as such.
func TestSampleRows(t *testing.T) {
	res := importFile(t, shareddata.Path(t, "almanac_raw", "ComboDrugGrowth_sample_rows.csv"), Options{})
	rep := res.Report
	if rep.WellsRead != 22198 {
		t.Errorf("read %d wells, want 22198", rep.WellsRead)
	}
	if got := rep.ScoredWells + rep.ReferenceWells + rep.UnusedWells(); got != rep.WellsRead {
		t.Errorf("scored %d + reference %d + unused %d = %d, want %d", rep.ScoredWells, rep.ReferenceWells, rep.UnusedWells(), got, rep.WellsRead)
	}
	reasons := map[string]int{}
	for _, u := range rep.Unused {
		reasons[u.Reason] = u.Count
	}
	if reasons[ReasonMissingPartner] == 0 {
		t.Errorf("no well reported without its partner: %v", reasons)
	}
	t.Logf("wells %d: scored %d, reference %d, unused %v; expected growth checked %d, %d differ (max %.3g); score checked %d, %d differ; %d ordered pair-lines",
		rep.WellsRead, rep.ScoredWells, rep.ReferenceWells, reasons, rep.Expected.Checked, rep.Expected.Count, rep.Expected.MaxDiff, rep.Score.Checked, rep.Score.Count, rep.Blocks)
}

// TestBlocksHandedOver checks the dose-level hand-over point: on the
// sample's 152 complete blocks Options.Block receives 152 plate-blocks of 9
// wells (3x3 concentrations), each with the same-plate single-agent growths
// it used, and the sum of their scores is the block's ComboScore.
func TestBlocksHandedOver(t *testing.T) {
	n := 0
	sums := map[[2]int]map[string]float64{}
	res := importFile(t, shareddata.Path(t, "almanac_raw", "ComboDrugGrowth_sample_blocks.csv"), Options{Block: func(b *PlateBlock) {
		n++
		conc := map[[2]float64]bool{}
		s := 0.0
		for _, w := range b.Wells {
			conc[[2]float64{w.Conc1, w.Conc2}] = true
			s += w.Score
			if w.Expected != expectedGrowth(w.Growth1, w.Growth2) {
				t.Errorf("%s line %d: expected %g from growths %g, %g", b.Plate, w.Line, w.Expected, w.Growth1, w.Growth2)
			}
		}
		if len(b.Wells) != 9 || len(conc) != 9 {
			t.Errorf("NSC %d + %d on %s: %d wells at %d concentration pairs", b.NSC1, b.NSC2, b.Plate, len(b.Wells), len(conc))
		}
		k := [2]int{b.NSC1, b.NSC2}
		if sums[k] == nil {
			sums[k] = map[string]float64{}
		}
		sums[k][b.Cell] += s
	}})
	if n != 152 {
		t.Errorf("%d plate-blocks handed over, want 152", n)
	}
	for _, c := range res.ComboScores {
		if s := sums[[2]int{c.NSC1, c.NSC2}][c.Cell]; s != c.Score {
			t.Errorf("NSC %d + %d on %s: handed-over wells sum to %g, ComboScore %g", c.NSC1, c.NSC2, c.Cell, s, c.Score)
		}
	}
}
