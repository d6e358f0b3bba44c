package cli

import (
	"strings"
	"testing"
)

// TestBenchSplitByCellLines runs the bench with one epoch on the synthetic
// default's two cell lines, one held out.
func TestBenchSplitByCellLines(t *testing.T) {
	stdout, stderr, code := run(t, "bench", "--split-by", "cell-lines", "--seeds", "1", "--methods", "ensemble", "--members", "1", "--epochs", "1", "--patience", "1", "--extra-passes", "-1", "--no-figures", "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "SYNTH-1, SYNTH-2") || !strings.Contains(stdout, "split by cell-lines") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
