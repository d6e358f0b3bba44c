package pairs_test

import (
	"context"
	"fmt"
	"math"

	"github.com/deup-screening/deup/active"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/tui"
	"github.com/deup-screening/deup/tui/pairs"
)

func ExampleTable_Select() {
	s := &drugcomb.Screen{
		Name:      "tiny",
		CellLines: []string{"PC-3"},
		Drugs:     []drugcomb.Drug{{ID: "a", Name: "alpha"}, {ID: "b", Name: "beta"}, {ID: "c", Name: "gamma"}},
		Pairs:     []drugcomb.Pair{{A: 0, B: 1, N: 1, Mean: []float64{4}}}, // alpha+beta measured
	}
	bl, _ := pairs.NewBuilder(s, 3, active.DefaultKappa)
	bl.Add(0, 1, 0, pairs.Scored{Mu: 3, SigmaEpistemic: 0.5, Acquisition: math.NaN()})
	bl.Add(2, 0, 0, pairs.Scored{Mu: 1, SigmaEpistemic: 4, Acquisition: math.NaN()})
	bl.Add(1, 2, 0, pairs.Scored{Mu: -2, SigmaEpistemic: math.NaN(), Acquisition: math.NaN()})
	tab, _ := bl.Build() // acq = μ + 2·σ_epistemic: κ = 2, the "ucb" of deup suggest

	q := tui.AllRows()
	q.Sort, q.Desc = tui.ColSigmaEpistemic, true // NaN last
	v, _ := tab.Select(context.Background(), q)
	for i := range v.Len() {
		r := v.Row(i)
		fmt.Printf("%s+%s σ_epi=%v acq=%v measured=%v\n", s.Drugs[r.A].Name, s.Drugs[r.B].Name, r.SigmaEpistemic, r.Acquisition, r.Measured)
	}
	// Output:
	// alpha+gamma σ_epi=4 acq=9 measured=NaN
	// alpha+beta σ_epi=0.5 acq=4 measured=4
	// beta+gamma σ_epi=NaN acq=NaN measured=NaN
}
