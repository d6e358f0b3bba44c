package active_test

import (
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
)

// TestAcquisitionWith: the campaign's acquisition (ucb:2, explore 0.25)
// with a round's overrides; the expected values are ParseAcquisition's of
// the names with the weight the override rule gives.
func TestAcquisitionWith(t *testing.T) {
	base, table := activetest.Screen(8, 1)
	initial, cands, err := active.SplitInitial(table, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := activetest.Config(base, "bayes-ridge", "ucb:2", 4, 2, 1)
	cfg.Explore = 0.25
	c, err := active.Create(active.NewMemoryStore(), cfg, initial, cands)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		explore float64
		want    string // ParseAcquisition syntax
		weight  float64
		err     bool
	}{
		{"", -1, "ucb:2", 0.25, false},
		{"", 0.5, "ucb:2", 0.5, false},
		{"ei", -1, "ei", 0.25, false},
		{"thompson", 0, "thompson", 0, false},
		{"nope", -1, "", 0, true},
	} {
		got, err := c.AcquisitionWith(tc.name, tc.explore)
		if tc.err {
			if err == nil {
				t.Errorf("%q: no error", tc.name)
			}
			continue
		}
		want, _ := active.ParseAcquisition(tc.want)
		want.ExploreWeight = tc.weight
		if err != nil || got != want {
			t.Errorf("%q, explore %v: %+v, %v; want %+v", tc.name, tc.explore, got, err, want)
		}
	}
}
