package gp

import (
	"strconv"
	"testing"
)

func BenchmarkFit(b *testing.B) {
	for _, n := range []int{50, 200} {
		X, y := sampleGP(b, NewKernel(Matern52, 1, 0.3), 0.01, n, 2, 1, 1)
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Fit(X, y, FitConfig{Family: Matern52, Standardize: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkPredictGrad(b *testing.B) {
	X, y := sampleGP(b, NewKernel(Matern52, 1, 0.3), 0.01, 200, 2, 1, 1)
	g, err := New(NewKernel(Matern52, 1, 0.3), -4, X, y, true)
	if err != nil {
		b.Fatal(err)
	}
	x := []float64{0.3, 0.6}
	dm, dv := make([]float64, 2), make([]float64, 2)
	b.ReportAllocs()
	for b.Loop() {
		g.PredictGrad(x, dm, dv)
	}
}
