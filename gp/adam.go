package gp

import "math"

// Adam is the Adam optimizer (Kingma & Ba 2015) over a flat parameter
// vector. Step moves the parameters against the gradient (descent): to
// maximize an objective such as the ELBO, pass its negated gradient. The
// moment estimates are allocated on the first Step and sized to it.
type Adam struct {
	LR           float64 // learning rate
	Beta1, Beta2 float64 // moment decay rates
	Eps          float64

	m, v []float64
	t    int
}

// NewAdam returns Adam with learning rate lr and the usual defaults
// Beta1 = 0.9, Beta2 = 0.999, Eps = 1e-8.
func NewAdam(lr float64) *Adam {
	return &Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
}

// Step applies one update to params given grad (same length, fixed across
// steps; it panics otherwise).
func (a *Adam) Step(params, grad []float64) {
	if len(params) != len(grad) {
		panic("gp: Adam.Step: length mismatch")
	}
	if a.m == nil {
		a.m = make([]float64, len(params))
		a.v = make([]float64, len(params))
	}
	if len(a.m) != len(params) {
		panic("gp: Adam.Step: parameter count changed")
	}
	a.t++
	c1 := 1 - math.Pow(a.Beta1, float64(a.t))
	c2 := 1 - math.Pow(a.Beta2, float64(a.t))
	for i, g := range grad {
		a.m[i] = a.Beta1*a.m[i] + (1-a.Beta1)*g
		a.v[i] = a.Beta2*a.v[i] + (1-a.Beta2)*g*g
		params[i] -= a.LR * (a.m[i] / c1) / (math.Sqrt(a.v[i]/c2) + a.Eps)
	}
}

// Reset forgets the moment estimates and the step count.
func (a *Adam) Reset() { a.m, a.v, a.t = nil, nil, 0 }
