package smo

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/jsonfloat"
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

// TestWriteTable: steps "-" for a seed that missed the optimum, the mean
// wall time per run (1.5 s and 2.5 s: 2.0 s).
func TestWriteTable(t *testing.T) {
	two := 2
	s := &Summary{Function: "f", Dim: 1, GlobalMax: 1, Init: 6, Steps: 3, Seeds: []uint64{1, 2}, Order: []string{"gp-ei"},
		Methods: map[string]*MethodSummary{"gp-ei": {BestSoFar: make([]jsonfloat.Floats, 2), StepsToOptimum: []*int{&two, nil}, Reached: 1, FinalMean: 0.5, FinalSD: 0.25, WallSeconds: jsonfloat.Floats{1.5, 2.5}}}}
	var b strings.Builder
	if err := s.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	want := "f d=1, global max 1, 6 initial points, 3 steps, seeds [1 2]\n" +
		"method  reached  steps to optimum  final best (mean ± sd)  wall/run\n" +
		"gp-ei   1/2      2,-               0.5000 ± 0.2500         2.0s\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}
