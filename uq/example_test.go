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

func ExampleFitConformal() {
	// Ten calibration pairs that trained neither mu nor sigma.
	y := []float64{1.2, -0.5, 3.1, 0.0, 2.2, -1.4, 0.7, 1.9, -2.5, 0.3}
	mu := []float64{1.0, 0.0, 2.0, 0.5, 2.0, -1.0, 1.0, 1.0, -1.0, 0.0}
	sigma := []float64{0.5, 1.0, 1.0, 0.5, 0.5, 1.0, 0.5, 1.0, 2.0, 0.5}
	c, err := uq.FitConformal(y, mu, sigma, true)
	if err != nil {
		panic(err)
	}
	lo, hi, err := c.Interval(4.0, 2.0, 0.9) // k = ⌈11 × 0.9⌉ = 10: the largest score, 1.1
	fmt.Printf("%s: [%.2f, %.2f] %v\n", c, lo, hi, err)
	_, _, err = c.Interval(4.0, 2.0, 0.95) // needs 19 pairs
	fmt.Println(err)
	// Output:
	// conformal-normalized on 10 pairs: [1.80, 6.20] <nil>
	// uq: too few calibration pairs: 10 for coverage 0.95, need at least 19 (⌈(n+1) × coverage⌉ ≤ n)
}
