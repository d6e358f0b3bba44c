package model

import (
	"math"
	"slices"
	"testing"
)

func TestFeatureConfigValidate(t *testing.T) {
	// Each case is a header a model file could carry; the limits are the
	// documented MaxRadius and MaxFeatures, the fragment rules the two that
	// features.ConfigOf rebuilds.
	cases := []struct {
		name string
		c    FeatureConfig
		ok   bool
	}{
		{"fp whole molecule", FeatureConfig{Kind: "fp", Radius: 3, NBits: 1024}, true},
		{"fp largest organic fragment", FeatureConfig{Kind: "fp", Radius: 3, NBits: 1024, Fragment: "largest-organic"}, true},
		{"fp+sig", FeatureConfig{Kind: "fp+sig", Radius: 3, NBits: 1024, SigDim: 978}, true},
		{"unknown fragment rule", FeatureConfig{Kind: "fp", Radius: 3, NBits: 1024, Fragment: "smallest"}, false},
		{"unknown kind", FeatureConfig{Kind: "ecfp", Radius: 3, NBits: 1024}, false},
		{"radius past the cap", FeatureConfig{Kind: "fp", Radius: MaxRadius + 1, NBits: 1024}, false},
		{"no bits", FeatureConfig{Kind: "fp", Radius: 3}, false},
		{"fp with a signature length", FeatureConfig{Kind: "fp", Radius: 3, NBits: 1024, SigDim: 10}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.Validate()
			if (err == nil) != tc.ok {
				t.Fatalf("Validate(%+v) = %v, want ok=%v", tc.c, err, tc.ok)
			}
		})
	}
}

// TestFeaturesValidate pins Features.Validate's messages, the first fault
// of each matrix in the order it checks (empty, dimension, ids, row
// pointers, rows); the messages are those it wrote before it used
// nn.CSR.Validate for the matrix checks (checked against that version).
func TestFeaturesValidate(t *testing.T) {
	cfg := FeatureConfig{Kind: "fp", Radius: 2, NBits: 4}
	good := func() *Features {
		return &Features{Config: cfg, IDs: []string{"a", "b"}, RowPtr: []int{0, 2, 3}, Col: []int32{0, 3, 1}, Val: []float32{1, 1, 1}}
	}
	for _, tc := range []struct {
		name string
		edit func(f *Features) *Features
		want string // "" for valid
	}{
		{"valid", func(f *Features) *Features { return f }, ""},
		{"no ids", func(f *Features) *Features { f.IDs = nil; return f }, ""},
		{"nil", func(*Features) *Features { return nil }, "model: features: empty matrix"},
		{"no row pointers, ids", func(f *Features) *Features { f.RowPtr = nil; return f }, "model: features: empty matrix"},
		{"dimension 0, ids wrong", func(f *Features) *Features { f.Config.NBits = 0; f.IDs = []string{"a"}; return f }, "model: features: dimension 0"},
		{"ids wrong, pointers wrong", func(f *Features) *Features { f.IDs = []string{"a"}; f.RowPtr[2] = 9; return f }, "model: features: 1 ids for 2 rows"},
		{"pointers", func(f *Features) *Features { f.RowPtr[2] = 9; return f }, "model: features: inconsistent row pointers"},
		{"decreasing pointer", func(f *Features) *Features { f.RowPtr = []int{0, 2, 1, 3}; f.IDs = nil; return f }, "model: features: row 1: decreasing row pointer"},
		{"column order", func(f *Features) *Features { f.Col[1] = 0; return f }, "model: features: row 0: column 0 out of order or range [0,4)"},
		{"column range", func(f *Features) *Features { f.Col[2] = 4; return f }, "model: features: row 1: column 4 out of order or range [0,4)"},
		{"NaN", func(f *Features) *Features { f.Val[2] = float32(math.NaN()); return f }, "model: features: row 1 column 1: value NaN"},
		{"Inf", func(f *Features) *Features { f.Val[0] = float32(math.Inf(-1)); return f }, "model: features: row 0 column 0: value -Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.edit(good()).Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("Validate: %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPairsAt checks that PairsAt picks d.Pairs in idx's order,
// repeats included.
func TestPairsAt(t *testing.T) {
	d := &Dataset{Pairs: []PairRef{{0, 1, 0}, {1, 2, 0}, {2, 3, 1}}}
	for _, tc := range []struct {
		idx  []int
		want []PairRef
	}{
		{nil, []PairRef{}},
		{[]int{2, 0}, []PairRef{{2, 3, 1}, {0, 1, 0}}},
		{[]int{1, 1}, []PairRef{{1, 2, 0}, {1, 2, 0}}},
	} {
		if got := d.PairsAt(tc.idx); !slices.Equal(got, tc.want) {
			t.Errorf("PairsAt(%v) = %v, want %v", tc.idx, got, tc.want)
		}
	}
}

// TestFeaturesID: a row's id is its IDs entry, or its index in decimal
// past the end of IDs (deup's own numbering of id-less features).
func TestFeaturesID(t *testing.T) {
	f := &Features{IDs: []string{"5311", "2723601"}, RowPtr: []int{0, 0, 0, 0}}
	for r, want := range []string{"5311", "2723601", "2"} {
		if got := f.ID(r); got != want {
			t.Errorf("ID(%d) = %q, want %q", r, got, want)
		}
	}
}
