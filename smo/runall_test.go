package smo

import (
	"context"
	"reflect"
	"testing"
)

// TestRunAll: every method and seed, in seed order, the same values as Run
// alone, with any number of jobs; step called once per acquisition, done
// once per run.
func TestRunAll(t *testing.T) {
	methods, seeds := []string{"random", "gp-ei"}, []uint64{3, 4}
	for _, jobs := range []int{1, 3} {
		steps, dones := 0, 0
		runs, err := RunAll(context.Background(), Levy13(), methods, seeds, fast, jobs, func() { steps++ }, func(string, uint64, float64) { dones++ })
		if err != nil {
			t.Fatal(err)
		}
		if steps != 4*fast.Steps || dones != 4 {
			t.Fatalf("jobs %d: %d steps, %d runs done; want %d, 4", jobs, steps, dones, 4*fast.Steps)
		}
		for _, m := range methods {
			for i, s := range seeds {
				alone, err := Run(context.Background(), Levy13(), m, s, fast, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(runs[m][i].BestSoFar, alone.BestSoFar) {
					t.Errorf("jobs %d, %s seed %d: %v, alone %v", jobs, m, s, runs[m][i].BestSoFar, alone.BestSoFar)
				}
			}
		}
	}
}
