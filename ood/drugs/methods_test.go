package drugs

import (
	"errors"
	"testing"
)

// TestCheckMethods and TestTicks: the method lists deup ood accepts, and
// its progress ticks per seed (folds + 1 for the shared fits, members for
// the ensemble, one each for DUE and the two-head network).
func TestCheckMethods(t *testing.T) {
	for _, c := range []struct {
		methods []string
		ok      bool
	}{
		{[]string{"deup-xdvb", "deup-twohead", "ensemble", "mcdropout", "due", "density"}, true},
		{[]string{"deup-xq"}, false},
		{[]string{"gp"}, false},
		{[]string{"due", "due"}, false},
		{nil, false},
	} {
		err := CheckMethods(c.methods)
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrMethods) {
			t.Errorf("%v: %v, want ok %v", c.methods, err, c.ok)
		}
	}
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		methods []string
		want    int
	}{
		{[]string{"deup-xd", "deup-v"}, 5 + 1},
		{[]string{"ensemble"}, 3},
		{[]string{"due", "deup-twohead"}, 2},
		{[]string{"density", "ensemble", "due"}, 5 + 1 + 3 + 1},
	} {
		s := Settings{Methods: c.methods, Folds: 5, Members: 3}
		if got := s.Ticks(); got != c.want {
			t.Errorf("%v: %d ticks, want %d", c.methods, got, c.want)
		}
	}
}
