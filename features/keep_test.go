package features

import (
	"math"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/lincs"
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

// TestKeepSignaturePairs: drug "n" has an all-NaN vector (no signature),
// "z" none at all: only the pair of "a" and "b" stays; 2 drugs have one.
// KeepRows keeps the listed drugs and their pairs.
func TestKeepSignaturePairs(t *testing.T) {
	nan := float32(math.NaN())
	sig := &lincs.Signatures{DrugIDs: []string{"a", "b", "n", "z"}, Vectors: [][]float32{{1, nan}, {0}, {nan, nan}, nil}}
	sc := &drugcomb.Screen{Name: "s", ScoreNames: []string{"y"}, CellLines: []string{"L"},
		Drugs: []drugcomb.Drug{{ID: "a"}, {ID: "b"}, {ID: "n"}, {ID: "z"}},
		Pairs: []drugcomb.Pair{{A: 0, B: 1, N: 1, Mean: []float64{1}}, {A: 0, B: 2, N: 1, Mean: []float64{2}}, {A: 1, B: 3, N: 1, Mean: []float64{3}}}}
	out, n := KeepSignaturePairs(sc, sig)
	if n != 2 || len(out.Pairs) != 1 || out.Pairs[0].Mean[0] != 1 {
		t.Errorf("%d drugs with a signature, pairs %+v; want 2 and the pair (a, b)", n, out.Pairs)
	}
	rows := KeepRows(sc, []int{0, 2})
	if len(rows.Drugs) != 2 || rows.Drugs[1].ID != "n" || len(rows.Pairs) != 1 || rows.Pairs[0].Mean[0] != 2 {
		t.Errorf("KeepRows: %d drugs, pairs %+v; want a, n and their pair", len(rows.Drugs), rows.Pairs)
	}
}
