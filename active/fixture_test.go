package active

import (
	"fmt"
	"math/rand/v2"

	"github.com/deup-screening/deup/drugcomb"
)

// testScreen is a small screen with a known structure for the tests: drug
// main effects a_i ~ N(0, 5^2), a rank-2 interaction 6 u_i.u_j with
// u_i ~ N(0, I), and measurement noise N(0, 1); every pair of nDrugs drugs
// measured on one cell line.
func testScreen(nDrugs int, seed uint64) (Config, TableOracle) {
	rng := rand.New(rand.NewPCG(seed, 99))
	a := make([]float64, nDrugs)
	u := make([][2]float64, nDrugs)
	drugs := make([]drugcomb.Drug, nDrugs)
	for i := range a {
		a[i] = 5 * rng.NormFloat64()
		u[i] = [2]float64{rng.NormFloat64(), rng.NormFloat64()}
		drugs[i] = drugcomb.Drug{ID: fmt.Sprint(1000 + i), Name: fmt.Sprintf("drug%02d", i), PubChemCID: int64(1000 + i)}
	}
	t := TableOracle{}
	for i := 0; i < nDrugs; i++ {
		for j := i + 1; j < nDrugs; j++ {
			t[PairKey{i, j, 0}] = a[i] + a[j] + 6*(u[i][0]*u[j][0]+u[i][1]*u[j][1]) + rng.NormFloat64()
		}
	}
	return Config{Score: "synergy", Drugs: drugs, CellLines: []string{"CL1"}}, t
}

func testConfig(base Config, model, acq string, batch, rounds int, seed uint64) Config {
	c := base
	c.Mode, c.Model, c.Acquisition = Retrospective, model, acq
	c.Batch, c.Rounds, c.Seed, c.Features = batch, rounds, seed, "identity"
	return c
}
