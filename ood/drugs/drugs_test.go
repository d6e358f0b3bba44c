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

// TestScore checks a method's RMSE, its training seconds (the deup job's
// for the deup-* rows) and NaN subset scores with fewer than 2 pairs.
func TestScore(t *testing.T) {
	r := &SeedResult{
		Seed: 1, Test: []int{0, 1, 2, 3}, Unseen: []int8{0, 0, 1, 2},
		Mu:      map[string][]float64{"deup-d": {1, 2, 3, 4}},
		U:       map[string][]float64{"deup-d": {0.1, 0.2, 0.3, 0.4}},
		Seconds: map[string]float64{"deup": 7},
		targets: []float64{1, 1, 1, 1},
	}
	rep := Score([]*SeedResult{r}, []string{"deup-d"}, nil)
	s := rep.PerSeed["deup-d"][0]
	if want := math.Sqrt((0 + 1 + 4 + 9) / 4.0); math.Abs(s.RMSE-want) > 1e-12 {
		t.Errorf("RMSE %v, want %v", s.RMSE, want)
	}
	if s.Secs != 7 || rep.NIn != 2 || rep.NOne != 1 || rep.NTwo != 1 || rep.NOut != 2 {
		t.Errorf("secs %v, counts in %d one %d two %d out %d", s.Secs, rep.NIn, rep.NOne, rep.NTwo, rep.NOut)
	}
	if !math.IsNaN(s.SRCCOne) || !math.IsNaN(s.AUROCTwo) || !math.IsNaN(s.SRCCExcess) {
		t.Errorf("one-pair subsets and no truth should be NaN: %+v", s)
	}
	// u ranks the losses exactly: SRCC 1, and every OOD pair above every in-distribution one.
	if s.SRCC != 1 || s.AUROC != 1 {
		t.Errorf("SRCC %v AUROC %v, want 1 and 1", s.SRCC, s.AUROC)
	}
}
