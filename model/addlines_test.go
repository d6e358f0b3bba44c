package model

import (
	"reflect"
	"strings"
	"testing"
)

// TestStandardizeLike: each column's training standardization recovered
// from the model's lines, worked by hand: column 0 was (v − 2)/0.5, so a
// new line's 4 is 4; column 1 was constant at training (0 everywhere), so
// a new line gets 0; a column whose values are not the model's is refused.
func TestStandardizeLike(t *testing.T) {
	ref := [][]float64{{1, 3}, {2, 3}, {3.5, 3}}
	mod := [][]float64{{-2, 0}, {0, 0}, {3, 0}}
	got, err := StandardizeLike(ref, mod, [][]float64{{4, 9}, {2, 1}}, []string{"doubling", "ploidy"})
	if want := [][]float64{{4, 0}, {0, 0}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
	for _, c := range []struct {
		name string
		ref  [][]float64
		err  string
	}{
		{"other values", [][]float64{{1, 3}, {2, 3}, {3, 3}}, "column doubling: its values for the model's lines are not those"},
		{"one value for a varying column", [][]float64{{1, 3}, {1, 3}, {1, 3}}, "column doubling: the model's lines have one value"},
	} {
		if _, err := StandardizeLike(c.ref, mod, nil, []string{"doubling", "ploidy"}); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
}
