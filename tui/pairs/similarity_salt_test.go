package pairs

import (
	"github.com/deup-screening/deup/active"
	"testing"

	"github.com/deup-screening/deup/chem"
	"github.com/deup-screening/deup/drugcomb"
)

// TestMorganSimilarityIgnoresSalts: a salt and its parent are identical
// for the nearest-pair ranking, and two different drugs are not made
// similar by a shared counter-ion.
func TestMorganSimilarityIgnoresSalts(t *testing.T) {
	s := &drugcomb.Screen{
		Drugs: []drugcomb.Drug{
			{ID: "procarbazine", SMILES: "CC(C)NC(=O)c1ccc(CNNC)cc1"},
			{ID: "procarbazine-hcl", SMILES: "CC(C)NC(=O)c1ccc(CNNC)cc1.Cl"},
			{ID: "ethanol-hcl", SMILES: "CCO.Cl"},
			{ID: "methylamine-hcl", SMILES: "CN.Cl"},
		},
		CellLines: []string{"x"},
		Pairs:     []drugcomb.Pair{{A: 0, B: 2, N: 1, Mean: []float64{0}}},
	}
	bl, err := NewBuilder(s, 0, active.DefaultKappa)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := bl.Build()
	if err != nil {
		t.Fatal(err)
	}
	if n := tab.UseMorganSimilarity(); n != 0 {
		t.Fatalf("%d drugs without a fingerprint", n)
	}
	if got := tab.Similarity(0, 1); got != 1 {
		t.Errorf("similarity of procarbazine and its hydrochloride %g, want 1", got)
	}
	// Two hydrochlorides score as their parents (CCO and CN share only the
	// methyl environment), not higher for their shared chloride.
	parents, errs := chem.MorganBitsAll([]string{"CCO", "CN"}, 2, 2048, 1)
	salts, errs2 := chem.MorganBitsAll([]string{"CCO.Cl", "CN.Cl"}, 2, 2048, 1)
	if errs[0] != nil || errs[1] != nil || errs2[0] != nil || errs2[1] != nil {
		t.Fatal(errs, errs2)
	}
	want, whole := Tanimoto(parents)(0, 1), Tanimoto(salts)(0, 1)
	if got := tab.Similarity(2, 3); got != want || !(whole > want) {
		t.Errorf("similarity of two unrelated hydrochlorides %g, want the parents' %g (whole salts: %g)", got, want, whole)
	}
}
