package chem

import (
	"slices"
	"testing"
)

// TestZeroed checks the resize-and-clear of the kept scratch slices: n
// zeros, in place when the capacity allows (the same array), else new.
func TestZeroed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		s       []uint32
		n       int
		inPlace bool
	}{
		{"nil", nil, 3, false},
		{"shrink", []uint32{1, 2, 3, 4}, 2, true},
		{"grow within capacity", append(make([]uint32, 0, 8), 5, 6), 6, true},
		{"grow past capacity", []uint32{7, 8}, 5, false},
		{"empty", []uint32{9}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first *uint32
			if cap(tc.s) > 0 {
				first = &tc.s[:1][0]
			}
			got := zeroed(tc.s, tc.n)
			if len(got) != tc.n || slices.ContainsFunc(got, func(v uint32) bool { return v != 0 }) {
				t.Fatalf("zeroed(%v, %d) = %v, want %d zeros", tc.s, tc.n, got, tc.n)
			}
			if same := cap(got) > 0 && &got[:1][0] == first; same != tc.inPlace {
				t.Errorf("in place %v, want %v", same, tc.inPlace)
			}
		})
	}
}

// TestArena checks the per-parse arena: zeroed slices of length and
// capacity n, side by side in one array until it runs out, the new array
// max(2·old, n, minLen) long, and reset starting over at the front.
func TestArena(t *testing.T) {
	var a arena[int]
	type take struct {
		n      int
		reset  bool // reset before this take
		bufLen int  // the array's length after it
		used   int
	}
	for i, tc := range []take{
		{n: 3, bufLen: 8, used: 3},               // first array: minLen 8
		{n: 4, bufLen: 8, used: 7},               // fits
		{n: 2, bufLen: 16, used: 2},              // 7+2 > 8: 2·8
		{n: 40, bufLen: 40, used: 40},            // n beyond 2·16
		{n: 5, reset: true, bufLen: 40, used: 5}, // the same array again
	} {
		if tc.reset {
			a.reset()
		}
		s := a.take(tc.n, 8)
		if len(s) != tc.n || cap(s) != tc.n {
			t.Fatalf("take %d: len %d cap %d, want %d", i, len(s), cap(s), tc.n)
		}
		if slices.ContainsFunc(s, func(v int) bool { return v != 0 }) {
			t.Fatalf("take %d: %v not zeroed", i, s)
		}
		for k := range s {
			s[k] = i + 1 // dirty it for the next take after reset
		}
		if len(a.buf) != tc.bufLen || a.used != tc.used {
			t.Errorf("take %d: array %d used %d, want %d and %d", i, len(a.buf), a.used, tc.bufLen, tc.used)
		}
	}
}
