package lincs

import (
	"reflect"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
)

func TestLacking(t *testing.T) {
	s := &Signatures{DrugIDs: []string{"a", "b", "c"}, Vectors: [][]float32{{1}, nil, {2}}}
	drugs := []drugcomb.Drug{{ID: "c"}, {ID: "b"}, {ID: "z"}, {ID: "a"}}
	if got := s.Lacking(drugs); !reflect.DeepEqual(got, []string{"b", "z"}) {
		t.Fatalf("Lacking = %v", got)
	}
	if got := s.Lacking(drugs[:1]); got == nil || len(got) != 0 {
		t.Fatalf("Lacking of covered drugs = %#v, want an empty list", got)
	}
}

func TestCoveredPairs(t *testing.T) {
	s := &Signatures{Vectors: [][]float32{{1}, nil, {2}}}
	sc := &drugcomb.Screen{Pairs: []drugcomb.Pair{{A: 0, B: 2, N: 3}, {A: 0, B: 1, N: 1}, {A: 2, B: 0, N: 2}}}
	if p, m := s.CoveredPairs(sc); p != 2 || m != 5 {
		t.Fatalf("CoveredPairs = %d pairs, %d measurements; want 2, 5", p, m)
	}
}
