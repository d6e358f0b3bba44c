package gp

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
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

// BenchmarkSVGPELBOGrad: one minibatch ELBO with all gradients, DUE's
// setting (100 inducing points, 10-dimensional features, batch 256).
func BenchmarkSVGPELBOGrad(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := randomSVGP(rng, Matern12, 100, 10, false)
	X := randDense(rng, 256, 10, 1)
	y := make([]float64, 256)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	grad := make([]float64, s.NumParams())
	dX := mat.NewDense(256, 10, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ELBO(X, y, 10000, grad, dX); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSVGPPredict(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := randomSVGP(rng, Matern12, 100, 10, false)
	X := randDense(rng, 256, 10, 1)
	mean, vari := make([]float64, 256), make([]float64, 256)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Predict(X, mean, vari); err != nil {
			b.Fatal(err)
		}
	}
}
