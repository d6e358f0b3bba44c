package surrogate

import (
	"math"
	"testing"

	"github.com/deup-screening/deup/active"
)

// TestPairCountDensity: log q(a, b) = log p(a) + log p(b) with p(g) =
// (n_g + 1)/(2N + G), by hand: 4 drugs, measured pairs (0,1), (0,2),
// (0,0) → n = (4, 1, 1, 0), 2N + G = 10.
func TestPairCountDensity(t *testing.T) {
	enc := Encoder{Drug: IdentityFeatures(4)}
	var x [][]float64
	for _, p := range []active.PairOnLine{{A: 0, B: 1}, {A: 0, B: 2}, {A: 0, B: 0}} {
		x = append(x, enc.Encode(nil, p))
	}
	q, err := PairCountDensity{NDrugs: 4}.FitDensity(x)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    active.PairOnLine
		want float64
	}{
		{active.PairOnLine{A: 0, B: 1}, math.Log(0.5) + math.Log(0.2)},
		{active.PairOnLine{A: 2, B: 3}, math.Log(0.2) + math.Log(0.1)},
		{active.PairOnLine{A: 3, B: 3}, 2 * math.Log(0.1)},
	} {
		if got := q.LogDensity(enc.Encode(nil, c.p)); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("log q%v = %v, want %v", c.p, got, c.want)
		}
	}
	if _, err := (PairCountDensity{NDrugs: 5}).FitDensity(x); err != nil {
		// x has only 4 coordinates: an error, not a wrong density.
	} else {
		t.Error("inputs shorter than NDrugs: no error")
	}
}
