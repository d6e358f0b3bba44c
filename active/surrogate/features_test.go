package surrogate

import (
	"math"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
)

var smallDrugs = []drugcomb.Drug{
	{ID: "aspirin", SMILES: "CC(=O)OC1=CC=CC=C1C(=O)O"},
	{ID: "caffeine", SMILES: "CN1C=NC2=C1C(=O)N(C(=O)N2C)C"},
	{ID: "ibuprofen", SMILES: "CC(C)CC1=CC=C(C=C1)C(C)C(=O)O"},
	{ID: "busulfan", SMILES: "CS(=O)(=O)OCCCCOS(=O)(=O)C"},
	{ID: "paracetamol", SMILES: "CC(=O)NC1=CC=C(C=C1)O"},
	{ID: "methotrexate", SMILES: "CN(CC1=CN=C2C(=N1)C(=NC(=N2)N)N)C3=CC=C(C=C3)C(=O)N[C@@H](CCC(=O)O)C(=O)O"},
}

func TestMorganPCA(t *testing.T) {
	pcs, err := MorganPCA(smallDrugs, 8)
	if err != nil {
		t.Fatal(err)
	}
	n := len(smallDrugs)
	// 6 centred fingerprints have rank <= 5: components 0..4 have unit
	// sample variance and are uncorrelated; components 5..7 are 0.
	for c := 0; c < 8; c++ {
		var m, v float64
		for i := 0; i < n; i++ {
			m += pcs[i][c]
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			v += (pcs[i][c] - m) * (pcs[i][c] - m)
		}
		v /= float64(n - 1)
		want := 1.0
		if c >= 5 {
			want = 0
		}
		if math.Abs(m) > 1e-9 || math.Abs(v-want) > 1e-9 {
			t.Errorf("component %d: mean %v variance %v, want 0 and %v", c, m, v, want)
		}
		for c2 := 0; c2 < c; c2++ {
			var cov float64
			for i := 0; i < n; i++ {
				cov += pcs[i][c] * pcs[i][c2]
			}
			if math.Abs(cov) > 1e-9 {
				t.Errorf("components %d and %d correlated: %v", c, c2, cov)
			}
		}
	}
	bad := append([]drugcomb.Drug(nil), smallDrugs...)
	bad[2].SMILES = "C1CC"
	if _, err := MorganPCA(bad, 4); err == nil {
		t.Error("unparsable SMILES: want an error")
	}
}

func TestEncoder(t *testing.T) {
	enc := Encoder{Drug: [][]float64{{1, 0}, {0, 1}, {2, 2}}, Inter: [][]float64{{3}, {5}, {7}}, CellLines: 2}
	got := enc.Encode(nil, active.PairOnLine{A: 0, B: 2, CellLine: 1})
	want := []float64{3, 2, 21, 0, 1} // f0+f2, g0*g2, onehot(1)
	if len(got) != enc.Dim() {
		t.Fatalf("len %d, Dim %d", len(got), enc.Dim())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Encode = %v, want %v", got, want)
		}
	}
	if sw := enc.Encode(nil, active.PairOnLine{A: 2, B: 0, CellLine: 1}); sw[0] != got[0] || sw[2] != got[2] {
		t.Errorf("Encode not symmetric: %v vs %v", sw, got)
	}
}
