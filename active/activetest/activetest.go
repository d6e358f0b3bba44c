package activetest

import (
	"fmt"
	"math/rand/v2"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
)

// Screen is a small screen with a known structure for the tests: drug
// main effects a_i ~ N(0, 5^2), a rank-2 interaction 6 u_i.u_j with
// u_i ~ N(0, I), and measurement noise N(0, 1); every pair of nDrugs drugs
// measured on one cell line.
func Screen(nDrugs int, seed uint64) (active.Config, active.TableOracle) {
	rng := rand.New(rand.NewPCG(seed, 99))
	a := make([]float64, nDrugs)
	u := make([][2]float64, nDrugs)
	drugs := make([]drugcomb.Drug, nDrugs)
	for i := range a {
		a[i] = 5 * rng.NormFloat64()
		u[i] = [2]float64{rng.NormFloat64(), rng.NormFloat64()}
		drugs[i] = drugcomb.Drug{ID: fmt.Sprint(1000 + i), Name: fmt.Sprintf("drug%02d", i), PubChemCID: int64(1000 + i)}
	}
	t := active.TableOracle{}
	for i := 0; i < nDrugs; i++ {
		for j := i + 1; j < nDrugs; j++ {
			t[active.PairOnLine{A: i, B: j}] = a[i] + a[j] + 6*(u[i][0]*u[j][0]+u[i][1]*u[j][1]) + rng.NormFloat64()
		}
	}
	return active.Config{Score: "synergy", Drugs: drugs, CellLines: []string{"CL1"}}, t
}

// PanelScreen is Screen's structure measured on len(offset) cell lines,
// line c adding offset[c] to every pair: a panel whose best pairs all sit
// on the line with the largest offset.
func PanelScreen(nDrugs int, offset []float64, seed uint64) (active.Config, active.TableOracle) {
	base, one := Screen(nDrugs, seed)
	t := active.TableOracle{}
	base.CellLines = nil
	for c, off := range offset {
		base.CellLines = append(base.CellLines, fmt.Sprintf("CL%d", c+1))
		for p, y := range one {
			t[active.PairOnLine{A: p.A, B: p.B, CellLine: c}] = y + off
		}
	}
	return base, t
}

// Config is base as a retrospective campaign of model and acq (surrogate
// and acquisition names) with batch pairs a round for rounds rounds, seed
// and the identity drug features.
func Config(base active.Config, model, acq string, batch, rounds int, seed uint64) active.Config {
	c := base
	c.Mode, c.Model, c.Acquisition = active.Retrospective, model, acq
	c.Batch, c.Rounds, c.Seed, c.Features = batch, rounds, seed, "identity"
	return c
}

// PerLine counts the suggestions of a round per cell line.
func PerLine(r *active.Round) map[int]int {
	n := map[int]int{}
	for _, s := range r.Suggestions {
		n[s.Pair.CellLine]++
	}
	return n
}
