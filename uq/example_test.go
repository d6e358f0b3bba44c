package uq_test

import (
	"fmt"

	"github.com/deup-screening/deup/uq"
)

func ExampleScore() {
	y := []float64{1.0, -2.0, 0.5, 3.0, 10.0, -7.5}
	mu := []float64{0.5, -1.0, 0.5, 5.0, 4.0, -6.5}
	sigma := []float64{1.0, 2.0, 0.5, 1.5, 3.0, 1.0}
	m := uq.Score(y, mu, sigma, 1)
	fmt.Printf("corr %.3f coverage %.1f%% rmse %.3f crps %.3f\n", m.Corr, m.Coverage, m.RMSE, m.CRPS)
	// Output: corr 0.895 coverage 66.7% rmse 2.654 crps 1.225
}

func ExampleAggregate() {
	runs := []uq.Metrics{{Corr: 0.44}, {Corr: 0.47}, {Corr: 0.50}}
	s := uq.Aggregate(runs)
	fmt.Println(s.N, "seeds: corr", s.Format("corr", 2))
	// Output: 3 seeds: corr 0.47 ± 0.03
}
