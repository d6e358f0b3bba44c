package active_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
)

// TestReadCandidates: a campaign on the second of two lines reads a file
// without a cell_line column as that line, and a pair measured there is
// refused. Expected pairs from the file's rows (drug03 is row 3, drug00
// row 0; a pair is stored A < B) on line index 1.
func TestReadCandidates(t *testing.T) {
	cfg, _ := activetest.Screen(4, 1)
	cfg.CellLines = []string{"CL1", "CL2"}
	got, err := active.ReadCandidates(strings.NewReader("drug_a,drug_b\ndrug03,drug00\ndrug01,drug02\n"), "c.csv", cfg, []int{1}, active.TableOracle{})
	if want := []active.PairOnLine{{0, 3, 1}, {1, 2, 1}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("ReadCandidates = %v, %v; want %v", got, err, want)
	}
	_, err = active.ReadCandidates(strings.NewReader("drug_a,drug_b\ndrug01,drug02\n"), "c.csv", cfg, []int{1}, active.TableOracle{{1, 2, 1}: 5})
	if err == nil || !strings.Contains(err.Error(), "c.csv:2: pair already measured") {
		t.Errorf("measured pair: err = %v", err)
	}
}
