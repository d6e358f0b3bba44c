package deup

import "testing"

// FuzzParseFeatures: any input either fails or gives a non-empty set whose
// String parses back to itself.
func FuzzParseFeatures(f *testing.F) {
	for _, s := range []string{"xdvb", "v", "x,v", "", "xx", "q", "b d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		set, err := ParseFeatures(s)
		if err != nil {
			return
		}
		if set == 0 || set > FeatX|FeatD|FeatV|FeatB {
			t.Fatalf("%q: set %d", s, set)
		}
		back, err := ParseFeatures(set.String())
		if err != nil || back != set {
			t.Fatalf("%q: %v round trips to %v, %v", s, set, back, err)
		}
	})
}
