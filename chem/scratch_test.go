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

// TestLabel checks the depth-first labelling shared by Fragments,
// connected and the ring systems of perceiveRings: from atom 0 of each
// molecule (SMILES atom order), through every bond or through the ring
// bonds only (findRingBonds), the atoms reached, read off the structure.
func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		smiles    string
		ringsOnly bool
		want      []int // the label of each atom after labelling from 0 with 7
	}{
		{"CCO", false, []int{7, 7, 7}},
		{"CC.O", false, []int{7, 7, -1}},
		{"C1CC1CC", false, []int{7, 7, 7, 7, 7}},
		{"C1CC1CC", true, []int{7, 7, 7, -1, -1}},                     // the chain hangs off the ring
		{"C1CC1CC1CC1", true, []int{7, 7, 7, -1, -1, -1, -1}},         // a linker ends the first ring system
		{"c1ccc2ccccc2c1", true, []int{7, 7, 7, 7, 7, 7, 7, 7, 7, 7}}, // fused rings: one system
	} {
		m, err := ParseSMILES(tc.smiles)
		if err != nil {
			t.Fatal(err)
		}
		var through []bool
		if tc.ringsOnly {
			through = m.findRingBonds()
		}
		comp := make([]int, len(m.Atoms))
		for i := range comp {
			comp[i] = -1
		}
		m.label(comp, 0, 7, through, nil)
		if !slices.Equal(comp, tc.want) {
			t.Errorf("%s (rings only %v): labels %v, want %v", tc.smiles, tc.ringsOnly, comp, tc.want)
		}
	}
}
