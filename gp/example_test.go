package gp_test

import (
	"fmt"
	"math"

	"github.com/deup-screening/deup/gp"
	"gonum.org/v1/gonum/mat"
)

// Fit a Matern-5/2 GP to samples of sin and query its posterior and
// the gradients used to optimize an acquisition function.
func ExampleFit() {
	const n = 20
	X := mat.NewDense(n, 1, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		x := 6 * float64(i) / (n - 1)
		X.Set(i, 0, x)
		y[i] = math.Sin(x)
	}
	g, err := gp.Fit(X, y, gp.FitConfig{Family: gp.Matern52, Standardize: true, Restarts: 2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	dm, dv := make([]float64, 1), make([]float64, 1)
	mean, variance := g.PredictGrad([]float64{1.5}, dm, dv)
	fmt.Printf("mean %.2f (sin 1.5 = %.2f), sd %.3f, d mean/dx %.2f (cos 1.5 = %.2f)\n",
		mean, math.Sin(1.5), math.Sqrt(variance), dm[0], math.Cos(1.5))
	// Output:
	// mean 1.00 (sin 1.5 = 1.00), sd 0.001, d mean/dx 0.07 (cos 1.5 = 0.07)
}

// The SVGP with inducing points at the data and the optimal q is the exact
// GP.
func ExampleSVGP_SetOptimalQ() {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	y := []float64{0, 1, 0, -1}
	k := gp.NewKernel(gp.RBF, 1, 1)
	exact, _ := gp.New(k, math.Log(0.01), X, y, false)
	s := gp.NewSVGP(k, math.Log(0.01), X)
	if err := s.SetOptimalQ(X, y); err != nil {
		fmt.Println(err)
		return
	}
	elbo, _ := s.ELBO(X, y, 4, nil, nil)
	fmt.Printf("ELBO %.3f, log marginal likelihood %.3f\n", elbo, exact.LogMarginalLikelihood())
	// Output:
	// ELBO -4.441, log marginal likelihood -4.441
}
