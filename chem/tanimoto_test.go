package chem

import "testing"

// TestTanimoto: |A∩B| / |A∪B| by hand.
func TestTanimoto(t *testing.T) {
	for _, c := range []struct {
		a, b []int32
		want float64
	}{
		{nil, nil, 1},
		{[]int32{1, 2, 3}, nil, 0},
		{[]int32{1, 2, 3}, []int32{1, 2, 3}, 1},
		{[]int32{1, 2, 3}, []int32{2, 3, 4}, 2.0 / 4},
		{[]int32{0, 5}, []int32{1, 6, 9}, 0},
		{[]int32{1, 7, 8, 20}, []int32{7}, 1.0 / 4},
	} {
		if got := Tanimoto(c.a, c.b); got != c.want {
			t.Errorf("Tanimoto(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
		ai := make([]int, len(c.a))
		for i, v := range c.a {
			ai[i] = int(v)
		}
		bi := make([]int, len(c.b))
		for i, v := range c.b {
			bi[i] = int(v)
		}
		if got := Tanimoto(ai, bi); got != c.want {
			t.Errorf("Tanimoto[int](%v, %v) = %v, want %v", ai, bi, got, c.want)
		}
	}
}
