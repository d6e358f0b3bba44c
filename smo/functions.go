package smo

import (
	"fmt"
	"math"
)

// Function is a black-box objective to maximize on a box.
type Function struct {
	Name         string
	Dim          int
	Lower, Upper []float64 // the box, length Dim
	Max          float64   // the global maximum
	ArgMax       []float64 // a global maximizer
	Eval         func(x []float64) float64
}

// The 1-D function's global maximum on [-1, 2], found by a grid of 3e7+1
// points refined by golden-section search to round-off (derivation in
// functions_test.go checks f'(x*) ~ 0 and that no grid point exceeds it).
const (
	MultiOptimaArgMax = 1.857228462953138
	MultiOptimaMax    = 0.94989491954321081
)

// MultiOptima is the paper's 1-D function sin(x) cos(5x) cos(22x) on
// [-1, 2], with many local maxima; the global maximum is 0.9498949195 at
// x = 1.8572284630 (the next best local maximum, 0.77517 at x = 1.14941, is
// in another basin).
func MultiOptima() Function {
	return Function{
		Name: "multi-optima", Dim: 1,
		Lower: []float64{-1}, Upper: []float64{2},
		Max: MultiOptimaMax, ArgMax: []float64{MultiOptimaArgMax},
		Eval: func(x []float64) float64 {
			return math.Sin(x[0]) * math.Cos(5*x[0]) * math.Cos(22*x[0])
		},
	}
}

// Levy13 is the negative of Levy function N.13 on [-10, 10]^2 (paper App.
// SMO2): f(x, y) = -(sin^2(3 pi x) + (x-1)^2 (1 + sin^2(3 pi y)) +
// (y-1)^2 (1 + sin^2(2 pi y))), maximum 0 at (1, 1).
func Levy13() Function {
	return Function{
		Name: "levy13", Dim: 2,
		Lower: []float64{-10, -10}, Upper: []float64{10, 10},
		Max: 0, ArgMax: []float64{1, 1},
		Eval: func(p []float64) float64 {
			x, y := p[0], p[1]
			s1 := math.Sin(3 * math.Pi * x)
			s2 := math.Sin(3 * math.Pi * y)
			s3 := math.Sin(2 * math.Pi * y)
			return -(s1*s1 + (x-1)*(x-1)*(1+s2*s2) + (y-1)*(y-1)*(1+s3*s3))
		},
	}
}

// Ackley is the paper's Ackley_d on [-10, 15]^d (App. SMO3) with BoTorch's
// A = 20, B = 0.2, c = 2 pi:
//
//	A exp(-B sqrt(1/d sum x_i^2)) + exp(1/d sum cos(c x_i)) - A - e
//
// maximum 0 at the origin.
func Ackley(d int) Function {
	lo, hi := make([]float64, d), make([]float64, d)
	for i := range lo {
		lo[i], hi[i] = -10, 15
	}
	const a, b, c = 20, 0.2, 2 * math.Pi
	return Function{
		Name: "ackley", Dim: d,
		Lower: lo, Upper: hi,
		Max: 0, ArgMax: make([]float64, d),
		Eval: func(x []float64) float64 {
			var s2, sc float64
			for _, v := range x {
				s2 += v * v
				sc += math.Cos(c * v)
			}
			n := float64(len(x))
			return a*math.Exp(-b*math.Sqrt(s2/n)) + math.Exp(sc/n) - a - math.E
		},
	}
}

// Lookup returns the function named multi-optima (dim 1), levy13 (dim 2) or
// ackley (dim >= 1). dim 0 means the function's own dimension (10 for
// ackley).
func Lookup(name string, dim int) (Function, error) {
	switch name {
	case "multi-optima":
		if dim != 0 && dim != 1 {
			return Function{}, fmt.Errorf("smo: multi-optima is 1-dimensional, not %d", dim)
		}
		return MultiOptima(), nil
	case "levy13":
		if dim != 0 && dim != 2 {
			return Function{}, fmt.Errorf("smo: levy13 is 2-dimensional, not %d", dim)
		}
		return Levy13(), nil
	case "ackley":
		if dim == 0 {
			dim = 10
		}
		if dim < 1 {
			return Function{}, fmt.Errorf("smo: ackley dimension %d < 1", dim)
		}
		return Ackley(dim), nil
	}
	return Function{}, fmt.Errorf("smo: unknown function %q (want multi-optima, levy13 or ackley)", name)
}

// toBox maps u in [0, 1]^d to the function's box.
func (f *Function) toBox(u []float64) []float64 {
	x := make([]float64, len(u))
	for i, v := range u {
		x[i] = f.Lower[i] + v*(f.Upper[i]-f.Lower[i])
	}
	return x
}
