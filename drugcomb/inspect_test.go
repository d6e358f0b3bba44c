package drugcomb

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/deup-screening/deup/internal/jsonfloat"
)

func TestSummarizeScore(t *testing.T) {
	f := func(x float64) *jsonfloat.Float { v := jsonfloat.Float(x); return &v }
	for _, c := range []struct {
		x    []float64
		want ScoreSummary
	}{
		{nil, ScoreSummary{Name: "s", Missing: 2}},
		{[]float64{3}, ScoreSummary{Name: "s", Pairs: 1, Missing: 2, Mean: f(3), Min: f(3), Median: f(3), Max: f(3)}}, // no sd of one value
		// {9, 2, 4, 5, 4, 5, 4, 7}: mean 5, sample sd sqrt(32/7), median (4+5)/2.
		{[]float64{9, 2, 4, 5, 4, 5, 4, 7}, ScoreSummary{Name: "s", Pairs: 8, Missing: 2, Mean: f(5), SD: f(math.Sqrt(32.0 / 7)), Min: f(2), Median: f(4.5), Max: f(9)}},
	} {
		if got := SummarizeScore("s", c.x, 2); !reflect.DeepEqual(got, c.want) {
			t.Errorf("SummarizeScore(%v) = %+v, want %+v", c.x, got, c.want)
		}
	}
}

func TestInspect(t *testing.T) {
	s := &Screen{
		Name: "t", Drugs: []Drug{{ID: "a", SMILES: "C"}, {ID: "b"}, {ID: "c", SMILES: "bad"}},
		CellLines: []string{"L"}, ScoreNames: []string{"x", "y"},
		Pairs: []Pair{
			{A: 0, B: 1, N: 2, Mean: []float64{1, math.NaN()}},
			{A: 0, B: 2, N: 1, Mean: []float64{3, 4}},
		},
	}
	o := Inspect(s, func(smi string) error {
		if smi == "bad" {
			return errors.New("bad")
		}
		return nil
	})
	if o.Drugs != 3 || o.Pairs != 2 || o.Measurements != 3 || o.ReplicatedPairs != 1 ||
		!reflect.DeepEqual(o.DrugsWithoutSMILES, []string{"b"}) || !reflect.DeepEqual(o.UnusableSMILES, []string{"c"}) ||
		len(o.Scores) != 2 || o.Scores[0].Pairs != 2 || float64(*o.Scores[0].Mean) != 2 || o.Scores[1].Missing != 1 || o.Scores[1].SD != nil {
		t.Fatalf("Inspect = %+v", o)
	}
}
