package drugcomb

import (
	"math"
	"reflect"
	"testing"
)

// TestMeasuredMeans: the means of one line and score, by unordered id pair,
// names matched ignoring case, missing scores left out.
func TestMeasuredMeans(t *testing.T) {
	s := &Screen{
		Drugs:      []Drug{{ID: "b"}, {ID: "a"}, {ID: "c"}},
		CellLines:  []string{"PC-3", "MCF7"},
		ScoreNames: []string{"zip", "css"},
		Pairs: []Pair{
			{A: 0, B: 1, CellLine: 0, Mean: []float64{1.5, math.NaN()}},
			{A: 2, B: 0, CellLine: 0, Mean: []float64{-3, 7}},
			{A: 1, B: 2, CellLine: 1, Mean: []float64{4, 8}},
		},
	}
	for _, c := range []struct {
		line, score string
		want        map[PairKey]float64
	}{
		{"pc-3", "ZIP", map[PairKey]float64{{"a", "b"}: 1.5, {"b", "c"}: -3}},
		{"PC-3", "css", map[PairKey]float64{{"b", "c"}: 7}},
		{"MCF7", "zip", map[PairKey]float64{{"a", "c"}: 4}},
		{"HeLa", "zip", map[PairKey]float64{}},
		{"PC-3", "loewe", map[PairKey]float64{}},
	} {
		if got := s.MeasuredMeans(c.line, c.score); !reflect.DeepEqual(got, c.want) {
			t.Errorf("MeasuredMeans(%q, %q) = %v, want %v", c.line, c.score, got, c.want)
		}
	}
	if NewPairKey("z", "a") != (PairKey{"a", "z"}) {
		t.Error("NewPairKey does not order")
	}
}
