package trained

import "testing"

func TestScreenString(t *testing.T) {
	tests := []struct {
		s    Screen
		want string
	}{
		{Screen{SynthSeed: 1}, "the synthetic default screen (seed 1)"}, // Dir "": Synthetic
		{Screen{Dir: "/data/pc3", SynthSeed: 1}, "/data/pc3"},
	}
	for _, tc := range tests {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.s, got, tc.want)
		}
	}
}
