package smo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/gp"
)

// BenchmarkMaximizeGPEI is one GP-EI acquisition on Ackley-10 with 60
// points: the inner loop of gp-ei and turbo-ei.
func BenchmarkMaximizeGPEI(b *testing.B) {
	f := Ackley(10)
	x := InitialDesign(10, 60, 1)
	y := make([]float64, len(x))
	for i := range x {
		y[i] = f.Eval(f.toBox(x[i]))
	}
	X, _ := deup.Matrix(x)
	g, err := gp.Fit(X, y, gp.FitConfig{Family: gp.Matern52, ARD: true, Standardize: true})
	if err != nil {
		b.Fatal(err)
	}
	best := math.Inf(-1)
	for _, v := range y {
		best = math.Max(best, v)
	}
	acq := func(u []float64) float64 { mu, v := g.Predict(u); return ExpectedImprovement(mu, math.Sqrt(v), best) }
	lo, hi := unitBox(10)
	b.ReportAllocs()
	for b.Loop() {
		Maximizer{}.Maximize(acq, lo, hi, nil, rand.New(rand.NewPCG(1, 1)))
	}
}
