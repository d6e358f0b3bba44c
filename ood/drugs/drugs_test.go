package drugs

import (
	"math"
	"testing"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/model"
)

func TestSets(t *testing.T) {
	names, sets, err := Sets([]string{"deup-dv", TwoHead, Ensemble, "deup-x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 || names[0] != "deup-dv" || names[1] != "deup-x" || sets[0] != deup.FeatD|deup.FeatV || sets[1] != deup.FeatX {
		t.Errorf("Sets = %v %v", names, sets)
	}
	if _, _, err := Sets([]string{"deup-q"}); err == nil {
		t.Error("deup-q: no error")
	}
}

// TestTanimotoDensity checks log q(a, b) = log q(a) + log q(b) with
// q(u) = 1/m sum_t exp(-(1 - T(u, t))/h) over the m training drugs.
func TestTanimotoDensity(t *testing.T) {
	x := &Experiment{
		d:   &model.Dataset{Pairs: []model.Pair{{A: 0, B: 1}, {A: 1, B: 2}}},
		set: Settings{Bandwidth: 0.1},
		sim: [][]float64{{1, 0.5, 0}, {0.5, 1, 0.2}, {0, 0.2, 1}},
	}
	got, err := tanimotoDensity{x}.logDensity([]int{0}, []int{0, 1}) // training drugs 0 and 1
	if err != nil {
		t.Fatal(err)
	}
	q := func(u int) float64 { return (math.Exp(-(1-x.sim[u][0])/0.1) + math.Exp(-(1-x.sim[u][1])/0.1)) / 2 }
	want := []float64{math.Log(q(0)) + math.Log(q(1)), math.Log(q(1)) + math.Log(q(2))}
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Errorf("pair %d: log q %v, want %v", k, got[k], want[k])
		}
	}
	if _, err := (tanimotoDensity{x}).logDensity(nil, []int{0}); err == nil {
		t.Error("no training drugs: no error")
	}
}
