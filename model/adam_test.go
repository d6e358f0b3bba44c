package model

import (
	"slices"
	"testing"

	"gorgonia.org/tensor"

	"github.com/deup-screening/deup/nn/optim"
)

// TestAdamStep checks adam's step for both element types (one generic
// adamStep): the refusal of a gradient of another type or length, with
// the message adam wrote before (type named float32 or float64), and for
// a good gradient the weights of optim.Adam.Step with the same LR and
// weight decay.
func TestAdamStep(t *testing.T) {
	g32 := tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float32{0.5, -1}))
	g64 := tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float64{0.5, -1}))
	short64 := tensor.New(tensor.WithShape(1, 1), tensor.WithBacking([]float64{0.5}))
	for _, tc := range []struct {
		name string
		p    *param
		g    *tensor.Dense
		err  string
	}{
		{"float32", &param{name: "w1", t: tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float32{1, 2}))}, g32, ""},
		{"float64", &param{name: "w1", t: tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float64{1, 2}))}, g64, ""},
		{"float32 weight, float64 gradient", &param{name: "w2", t: tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float32{1, 2}))}, g64,
			"model: adam: gradient of w2 has (1, 2), want 2 float32"},
		{"short gradient", &param{name: "b", t: tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float64{1, 2}))}, short64,
			"model: adam: gradient of b has (1, 1), want 2 float64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := adam(tc.p, tc.g, 0.1, 0.01)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch w := tc.p.t.Data().(type) {
			case []float32:
				want := []float32{1, 2}
				optim.NewAdam[float32](0.1, 0.01).Step(want, []float32{0.5, -1})
				if !slices.Equal(w, want) {
					t.Errorf("weights %v, want %v", w, want)
				}
			case []float64:
				want := []float64{1, 2}
				optim.NewAdam[float64](0.1, 0.01).Step(want, []float64{0.5, -1})
				if !slices.Equal(w, want) {
					t.Errorf("weights %v, want %v", w, want)
				}
			}
		})
	}
}
