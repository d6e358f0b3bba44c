package nn

import (
	"fmt"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
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

// TestGradOfFirst checks the SymDiff helper: one gradient node (the op
// applied to the arguments, of the first input's shape) followed by n−1
// nils, or ApplyOp's error.
func TestGradOfFirst(t *testing.T) {
	g := G.NewGraph()
	x := G.NewMatrix(g, G.Float32, G.WithShape(2, 3), G.WithName("x"))
	dy := G.NewMatrix(g, G.Float32, G.WithShape(2, 3), G.WithName("dy"))
	for _, tc := range []struct {
		name string
		n    int
		op   G.Op
		args []*G.Node
		ok   bool
	}{
		{"relu", 1, &reluGradOp{}, []*G.Node{x, dy}, true},
		{"mask", 2, &maskOp{}, []*G.Node{dy, x}, true},
		{"three inputs", 3, &maskOp{}, []*G.Node{dy, x}, true},
		{"too few arguments", 1, &reluGradOp{}, []*G.Node{x}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := gradOfFirst(tc.n, tc.op, tc.args...)
			if (err == nil) != tc.ok {
				t.Fatalf("error %v, want ok=%v", err, tc.ok)
			}
			if !tc.ok {
				return
			}
			if len(got) != tc.n || got[0] == nil {
				t.Fatalf("%d nodes %v, want %d with the first set", len(got), got, tc.n)
			}
			for _, n := range got[1:] {
				if n != nil {
					t.Errorf("node %v after the first, want nil", n)
				}
			}
		})
	}
}

type dims []int

func (d dims) DimSize(i int) (int, error) {
	if i >= len(d) {
		return 0, fmt.Errorf("no dimension %d", i)
	}
	return d[i], nil
}

// TestRowsBy checks the shape rule of the spectral linear op and its input
// gradient: the first input's rows by the given columns, refusing any
// count of inputs but two.
func TestRowsBy(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []G.DimSizer
		want tensor.Shape
		err  string
	}{
		{"two", []G.DimSizer{dims{5, 7}, dims{7, 4}}, tensor.Shape{5, 9}, ""},
		{"one", []G.DimSizer{dims{5, 7}}, nil, "nn: spectral linear: 1 inputs"},
		{"three", []G.DimSizer{dims{5, 7}, dims{7, 4}, dims{1}}, nil, "nn: spectral linear: 3 inputs"},
		{"no rows", []G.DimSizer{dims{}, dims{7, 4}}, nil, "no dimension 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rowsBy("spectral linear", tc.in, 9)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !got.Eq(tc.want) {
				t.Errorf("rowsBy = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
