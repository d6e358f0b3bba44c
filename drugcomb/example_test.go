package drugcomb_test

import (
	"fmt"

	"github.com/deup-screening/deup/drugcomb"
)

// A builder aggregates replicates: (a,b) and (b,a) are one pair.
func ExampleBuilder() {
	b := drugcomb.NewBuilder("bliss")
	a := b.Drug(drugcomb.Drug{ID: "5-FU", SMILES: "C1=C(C(=O)NC(=O)N1)F"})
	c := b.Drug(drugcomb.Drug{ID: "cisplatin"})
	pc3 := b.CellLine("PC-3")
	b.Measure(a, c, pc3, []float64{1})
	b.Measure(c, a, pc3, []float64{3})
	s := b.Screen("example")
	p := s.Pairs[0]
	fmt.Printf("%d pair, n=%d, mean %g, variance %g\n", len(s.Pairs), p.N, p.Mean[0], p.Var[0])
	// Output: 1 pair, n=2, mean 2, variance 2
}

// The paper's 40/30/30 split, seeded.
func ExampleSplitRandom() {
	sp := drugcomb.SplitRandom(10, drugcomb.DefaultFracs, 1)
	fmt.Println(sp.Train, sp.Val, sp.Test)
	// Output: [0 2 3 7] [1 4 8] [5 6 9]
}
