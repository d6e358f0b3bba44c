package deup_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/deup-screening/deup/deup"
)

// Algorithm 3 with a linear main predictor on y = x^2: the predicted error
// grows away from the data, where the linear fit is wrong.
func ExampleLoop() {
	x := [][]float64{{0}, {0.25}, {0.5}, {0.75}, {1}, {1.25}}
	y := make([]float64, len(x))
	for i := range x {
		y[i] = x[i][0] * x[i][0]
	}
	cfg := deup.Config{
		Main:     deup.Linear{},
		Features: deup.Featurizer{Set: deup.FeatX | deup.FeatD},
		Error:    deup.LogErrors{Learner: deup.Linear{}},
	}
	loop, err := deup.NewLoop(cfg, x, y)
	if err != nil {
		panic(err)
	}
	if err := loop.Prefill(deup.PrefillOptions{Folds: 2, Repeats: 3}, rand.New(rand.NewPCG(1, 2))); err != nil {
		panic(err)
	}
	for _, q := range []float64{3, 4} { // acquire far points, one at a time
		m, err := loop.Fit()
		if err != nil {
			panic(err)
		}
		loop.Observe([]float64{q}, q*q)
		_ = m
	}
	m, _ := loop.Fit()
	fmt.Printf("|D_e| = %d\n", len(loop.Examples()))
	near, far := m.Predict([]float64{0.6}).Epistemic, m.Predict([]float64{6}).Epistemic
	fmt.Println("error grows away from the data:", far > 10*near && !math.IsNaN(near))
	// Output:
	// |D_e| = 20
	// error grows away from the data: true
}
