package simulate

import (
	"testing"

	"github.com/deup-screening/deup/active"
)

// TestNewChemistry: before the round drug 0 has three pairs, drugs 1, 2, 3
// one each and drug 9 none; with RareDrugPairs = 2 a chosen pair counts
// when either drug has at most two: (0,1) yes (1 has one), (0,0) no (0 has
// three), (0,9) yes (9 has none), (2,3) yes.
func TestNewChemistry(t *testing.T) {
	before := []active.PairOnLine{{A: 0, B: 1}, {A: 0, B: 2}, {A: 0, B: 3}}
	chosen := []active.PairOnLine{{A: 0, B: 1}, {A: 0, B: 0}, {A: 0, B: 9}, {A: 2, B: 3}}
	if got := newChemistry(before, chosen); got != 3 {
		t.Errorf("newChemistry = %d, want 3", got)
	}
	if got := (Trace{NewChemistry: []int{0, 2, 5}}).NewChemistryTotal(); got != 7 {
		t.Errorf("NewChemistryTotal = %d, want 7", got)
	}
}

// TestNewChemistryMeans: the mean over a strategy's runs of their totals,
// by hand.
func TestNewChemistryMeans(t *testing.T) {
	m := NewChemistryMeans([]Trace{{Strategy: "a", NewChemistry: []int{1, 2}}, {Strategy: "a", NewChemistry: []int{4}}, {Strategy: "b", NewChemistry: []int{0}}})
	if m["a"] != 3.5 || m["b"] != 0 {
		t.Errorf("NewChemistryMeans = %v, want a 3.5 (3 and 4), b 0", m)
	}
}
