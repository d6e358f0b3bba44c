package features

import (
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
)

// TestKeepStructured: an unparsable SMILES leaves with its pairs and is
// named; a drug without SMILES stays.
func TestKeepStructured(t *testing.T) {
	sc := &drugcomb.Screen{Name: "s", ScoreNames: []string{"y"}, CellLines: []string{"L"},
		Drugs: []drugcomb.Drug{{ID: "ok", SMILES: "CCO"}, {ID: "bad", SMILES: "C1CC"}, {ID: "none"}},
		Pairs: []drugcomb.Pair{{A: 0, B: 1, N: 1, Mean: []float64{1}}, {A: 0, B: 2, N: 1, Mean: []float64{2}}}}
	out, left := KeepStructured(sc)
	if len(out.Drugs) != 2 || out.Drugs[1].ID != "none" || len(out.Pairs) != 1 || out.Pairs[0].Mean[0] != 2 {
		t.Errorf("kept %d drugs, %d pairs: %+v", len(out.Drugs), len(out.Pairs), out.Drugs)
	}
	if len(left) != 1 || !strings.HasPrefix(left[0], "drug bad") {
		t.Errorf("left %q, want the bad drug named", left)
	}
	if same, left := KeepStructured(out); same != out || left != nil {
		t.Errorf("a clean screen: %p %v, want itself and nothing left", same, left)
	}
}
