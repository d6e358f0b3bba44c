package cli

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A live campaign takes the plate readout of its suggested pairs: each block
// is scored and its CSS recorded as the pair's result.
func TestCampaignImportPlates(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := filepath.Join(t.TempDir(), "c")
	mustRun(t, "campaign", "init", "--screen", screen, "--batch", "3", "--acquisition", "ei", "--model", "deup-ridge", dir)
	tmp := t.TempDir()
	r1 := filepath.Join(tmp, "round1.csv")
	mustRun(t, "suggest", "--campaign", dir, "--out", r1)
	b, err := os.ReadFile(r1)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
	var plates strings.Builder
	plates.WriteString("block_id,drug_row,drug_col,conc_r,conc_c,inhibition\n")
	f := func(x, e float64) float64 { return 100 / (1 + math.Pow(x/e, -1.2)) }
	for k, l := range lines {
		fs := strings.Split(l, ",")
		a, c := fs[1], fs[5] // names, as in TestCampaignLiveImport
		for _, x1 := range []float64{0, 0.3, 1, 3} {
			for _, x2 := range []float64{0, 0.5, 2, 8} {
				y := f(x1, 1) + f(x2, 2) - f(x1, 1)*f(x2, 2)/100 + float64(k)*x1*x2
				plates.WriteString(strconv.Itoa(k+1) + "," + a + "," + c + "," + strconv.FormatFloat(x1, 'g', -1, 64) + "," +
					strconv.FormatFloat(x2, 'g', -1, 64) + "," + strconv.FormatFloat(y, 'g', -1, 64) + "\n")
			}
		}
	}
	p := filepath.Join(tmp, "plates.csv")
	if err := os.WriteFile(p, []byte(plates.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The synthetic campaign's score is not a block score: say which.
	if _, errs, code := run(t, "campaign", "import-results", dir, p, "--plates"); code != 2 || !strings.Contains(errs, "--plate-score") {
		t.Errorf("no --plate-score: exit %d: %s", code, errs)
	}
	out := mustRun(t, "campaign", "import-results", dir, p, "--plates", "--plate-score", "css")
	if !strings.Contains(out, "3 blocks read, 3 scored") || !strings.Contains(out, "recorded 3 results (3 of 3 measured)") {
		t.Errorf("output:\n%s", out)
	}
	ev := ledgerEvents(t, dir)
	last := ev[len(ev)-1]
	if len(last.Records) != 3 {
		t.Fatalf("last event has %d records", len(last.Records))
	}
	for _, r := range last.Records {
		if math.IsNaN(r.Y) || r.Y == 0 {
			t.Errorf("recorded CSS %v", r.Y)
		}
	}
}
