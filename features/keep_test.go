package features

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
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

// TestForScreen: under fp the unparsable drug leaves with its pair (2 of
// 3 drugs, 1 of 2 pairs, one error naming it); under fp+sig only the pair
// of the two drugs with a signature is kept before the structure rule, and
// a screen whose pairs all lack one stops there (no features).
func TestForScreen(t *testing.T) {
	sc := &drugcomb.Screen{Name: "s", ScoreNames: []string{"y"}, CellLines: []string{"L"},
		Drugs: []drugcomb.Drug{{ID: "a", SMILES: "CCO"}, {ID: "bad", SMILES: "C1CC"}, {ID: "b", SMILES: "CCN"}},
		Pairs: []drugcomb.Pair{{A: 0, B: 1, N: 1, Mean: []float64{1}}, {A: 0, B: 2, N: 1, Mean: []float64{2}}}}
	x, err := ForScreen(sc, Config{NBits: 64}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if x.Signed != sc || len(x.Screen.Drugs) != 2 || len(x.Screen.Pairs) != 1 || x.Screen.Pairs[0].Mean[0] != 2 || len(x.Report.Errors) != 1 || len(x.Features.IDs) != 2 {
		t.Errorf("fp: signed %p, %d drugs, pairs %+v, %d errors", x.Signed, len(x.Screen.Drugs), x.Screen.Pairs, len(x.Report.Errors))
	}
	sig := &lincs.Signatures{Genes: []string{"g"}, DrugIDs: []string{"a", "b"}, Vectors: [][]float32{{1}, {2}}}
	x, err = ForScreen(sc, Config{Kind: FingerprintSignature, NBits: 64}, sig)
	if err != nil {
		t.Fatal(err)
	}
	if x.WithSignature != 2 || len(x.Signed.Pairs) != 1 || len(x.Screen.Pairs) != 1 || x.Screen.Pairs[0].Mean[0] != 2 {
		t.Errorf("fp+sig: %d with a signature, %d signed pairs, %d kept", x.WithSignature, len(x.Signed.Pairs), len(x.Screen.Pairs))
	}
	none := &lincs.Signatures{Genes: []string{"g"}, DrugIDs: []string{"a"}, Vectors: [][]float32{{1}}}
	if x, err = ForScreen(sc, Config{Kind: FingerprintSignature, NBits: 64}, none); err != nil || len(x.Signed.Pairs) != 0 || x.Screen != nil || x.Features != nil {
		t.Errorf("no pair signed: %v %+v", err, x)
	}
}

// TestForModel: a model's settings rebuild its features; an fp+sig model
// leaves out the drug without a signature (RequireSignature) and the one
// without a usable structure, keeping rows 0 and 3.
func TestForModel(t *testing.T) {
	drugs := []drugcomb.Drug{{ID: "a", SMILES: "CCO"}, {ID: "bad", SMILES: "C1CC"}, {ID: "nosig", SMILES: "CCC"}, {ID: "b", SMILES: "CCN"}}
	sig := &lincs.Signatures{Genes: []string{"g"}, DrugIDs: []string{"a", "bad", "b"}, Vectors: [][]float32{{1}, {2}, {3}}}
	fc := model.FeatureConfig{Kind: FingerprintSignature, Radius: 2, NBits: 64, SigDim: 1, Fragment: LargestOrganicFragment}
	f, kept, rep, err := ForModel(fc, drugs, sig)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(kept, []int{0, 3}) || len(rep.Errors) != 2 || f.Config != fc {
		t.Errorf("kept %v, %d errors, config %+v; want [0 3], 2, %+v", kept, len(rep.Errors), f.Config, fc)
	}
	if _, _, _, err := ForModel(model.FeatureConfig{Kind: Fingerprint, Fragment: "odd"}, drugs, nil); err == nil {
		t.Error("unknown fragment rule: no error")
	}
}

// TestReportLeft: Left groups the errors by reason, each group in order.
func TestReportLeft(t *testing.T) {
	a, b, c := errors.New("drug a: bad"), fmt.Errorf("drug b: %w", ErrNoSignature), errors.New("drug c: bad")
	st, sg := Report{Errors: []error{a, b, c}}.Left()
	if !slices.Equal(st, []error{a, c}) || !slices.Equal(sg, []error{b}) {
		t.Errorf("Left() = %v, %v; want [a c], [b]", st, sg)
	}
	if st, sg := (Report{}).Left(); st != nil || sg != nil {
		t.Errorf("no errors: %v, %v", st, sg)
	}
}
