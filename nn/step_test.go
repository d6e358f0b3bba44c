package nn

import (
	"slices"
	"testing"

	"gorgonia.org/tensor"

	"github.com/deup-screening/deup/nn/optim"
)

// TestStepGradient checks the unfused step shared by AdamStep and
// AdamStepSparse: its two refusals (messages as the two functions wrote
// them before they shared it) and, for a good gradient, the same weights
// as optim.Adam.Step on the same numbers.
func TestStepGradient(t *testing.T) {
	good := tensor.New(tensor.WithShape(1, 3), tensor.WithBacking([]float32{0.5, -1, 2}))
	short := tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float32{0.5, -1}))
	for _, tc := range []struct {
		name, kind string
		g          *tensor.Dense
		err        string // "" for a step
	}{
		{"no run", "dense", nil, "nn: dense gradient: no run since the last step"},
		{"no run, sparse", "sparse", nil, "nn: sparse gradient: no run since the last step"},
		{"wrong size", "sparse", short, "nn: sparse gradient (1, 2) for a weight of 3 []float32"},
		{"step", "dense", good, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := []float32{1, 2, 3}
			err := stepGradient(tc.kind, tc.g, optim.NewAdam[float32](0.1, 0), w)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				if !slices.Equal(w, []float32{1, 2, 3}) {
					t.Errorf("weights %v changed on a refusal", w)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := []float32{1, 2, 3}
			optim.NewAdam[float32](0.1, 0).Step(want, []float32{0.5, -1, 2})
			if !slices.Equal(w, want) {
				t.Errorf("weights %v, want %v (optim.Adam.Step)", w, want)
			}
		})
	}
}
