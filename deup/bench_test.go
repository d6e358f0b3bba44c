package deup

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkKDELogDensity(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([][]float64, 200)
	for i := range x {
		x[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
	}
	k, err := FitKDE(x, LikelihoodCV)
	if err != nil {
		b.Fatal(err)
	}
	q := []float64{0.5, 0.5, 0.5}
	b.ReportAllocs()
	for b.Loop() {
		k.LogDensity(q)
	}
}

func BenchmarkFeatures(b *testing.B) {
	x := [][]float64{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}
	f := Featurizer{Set: FeatX | FeatD | FeatV | FeatB}
	m, err := f.Fit(x, square(x), nearestModel{x, square(x)})
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, 0, 4)
	b.ReportAllocs()
	for b.Loop() {
		dst = m.Features(dst[:0], []float64{2.5})
	}
}
