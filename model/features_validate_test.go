package model

import "testing"

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
