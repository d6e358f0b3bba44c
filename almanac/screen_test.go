package almanac

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
)

// TestBuildScreen maps NSCs to drugs: two NSCs of one name are one drug
// (vemurafenib has 753082 and 761431 in NCI's names file), a refused
// structure takes the catalogue's SMILES, a drug with no structure stays
// without SMILES and is noted, both orders and every plate are replicates
// of the unordered pair, and a block of one drug's two NSCs is left out.
func TestBuildScreen(t *testing.T) {
	scores := []ComboScore{
		{NSC1: 1, NSC2: 2, Cell: "L1", Sums: []float64{10, 20}, Plates: 2, Wells: 18},
		{NSC1: 2, NSC2: 1, Cell: "L1", Sums: []float64{30}, Plates: 1, Wells: 9},
		{NSC1: 3, NSC2: 4, Cell: "L2", Sums: []float64{-5}, Plates: 1, Wells: 9},
		{NSC1: 1, NSC2: 5, Cell: "L1", Sums: []float64{1}, Plates: 1, Wells: 9},
		{NSC1: 3, NSC2: 6, Cell: "L1", Sums: []float64{2}, Plates: 1, Wells: 9},
	}
	cat, err := drugcomb.ReadCatalogue("cat.csv", strings.NewReader("name,smiles\nCisplatin,N.N.Cl[Pt]Cl\n"))
	if err != nil {
		t.Fatal(err)
	}
	src := Sources{
		Compounds: map[int]*Compound{1: {NSC: 1, SMILES: "CCO"}, 2: {NSC: 2, SMILES: "c1ccccc1"}, 3: {NSC: 3, Err: errors.New("valence")}, 6: {NSC: 6, SMILES: "CN"}},
		Names:     map[int]string{1: "Ethanol", 2: "Benzene", 3: "Cisplatin", 4: "Nostructure", 5: "ethanol", 6: "Methylamine"},
		Catalogue: cat,
	}
	rep := &Report{}
	s, err := BuildScreen("t", scores, src, rep)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]drugcomb.Drug{}
	for _, d := range s.Drugs {
		ids[d.Name] = d
	}
	if len(s.Drugs) != 5 || ids["Ethanol"].ID != "1" || ids["Ethanol"].SMILES != "CCO" || ids["Cisplatin"].SMILES != "N.N.Cl[Pt]Cl" || ids["Nostructure"].SMILES != "" {
		t.Errorf("drugs %+v", s.Drugs)
	}
	notes := map[string]int{}
	for _, n := range rep.Drugs {
		notes[n.Reason] = n.Count
	}
	if notes[NoteMerged] != 1 || notes[NoteRefused] != 1 || notes[NoteCatalogue] != 1 || notes[NoteNoSMILES] != 1 || notes[NoteSelfPair] != 1 {
		t.Errorf("notes %v", notes)
	}
	if len(s.Pairs) != 3 {
		t.Fatalf("%d pairs, want 3: %+v", len(s.Pairs), s.Pairs)
	}
	for _, p := range s.Pairs {
		a, b := s.Drugs[p.A].Name, s.Drugs[p.B].Name
		if (a == "Ethanol" && b == "Benzene") || (a == "Benzene" && b == "Ethanol") {
			// replicates 10, 20 (order 1,2) and 30 (order 2,1): mean 20, sample variance 100
			if p.N != 3 || p.Mean[0] != 20 || math.Abs(p.Var[0]-100) > 1e-12 {
				t.Errorf("ethanol + benzene: n %d mean %g var %g, want 3, 20, 100", p.N, p.Mean[0], p.Var[0])
			}
		}
	}
}

// TestComboScoreFile checks comboscore.csv's exact shape.
func TestComboScoreFile(t *testing.T) {
	var b bytes.Buffer
	err := WriteComboScores(&b, []ComboScore{{NSC1: 740, NSC2: 750, Cell: "PC-3", Score: -68, Wells: 9}, {NSC1: 750, NSC2: 740, Cell: "A549/ATCC", Score: 12.5, Wells: 15}})
	if err != nil {
		t.Fatal(err)
	}
	want := "nsc1,nsc2,cell_line,combo_score,n_wells\n740,750,PC-3,-68.0,9\n750,740,A549/ATCC,12.5,15\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestCompoundsAndNames reads NCI's SDF and names file: 104 structures,
// cisplatin and oxaliplatin refused, 105 names (vemurafenib twice).
func TestCompoundsAndNames(t *testing.T) {
	f, err := os.Open(shareddata.Path(t, "almanac_raw", "ComboCompoundSet.sdf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	comps, err := ReadCompounds(f, "ComboCompoundSet.sdf")
	if err != nil {
		t.Fatal(err)
	}
	g, err := os.Open(shareddata.Path(t, "almanac_raw", "ComboCompoundNames_small.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	names, err := ReadNames(g, "names")
	if err != nil {
		t.Fatal(err)
	}
	var refused []int
	for n, c := range comps {
		if c.Err != nil {
			refused = append(refused, n)
		}
	}
	if len(comps) != 104 || len(refused) != 2 || comps[119875].Err == nil || comps[266046].Err == nil {
		t.Errorf("%d compounds, refused %v", len(comps), refused)
	}
	if len(names) != 105 || names[753082] != "vemurafenib" || names[761431] != "vemurafenib" || names[119875] != "Cisplatin" {
		t.Errorf("%d names; 753082 %q, 761431 %q", len(names), names[753082], names[761431])
	}
	if _, err := ReadNames(strings.NewReader("IX\tDrug\n740\tMethotrexate\nbad line\n"), "n.txt"); err == nil || !strings.Contains(err.Error(), "n.txt:3") {
		t.Errorf("malformed names line: %v", err)
	}
}
