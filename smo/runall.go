package smo

import (
	"context"
	"sync"

	"github.com/deup-screening/deup/internal/kernels"
)

// RunAll runs every method of methods with every seed (methods-major, in
// the order given) on up to jobs goroutines (kernels.Jobs, sharing the
// process's worker budget with the runs' kernels) and returns the results
// by method, in seed order. step is called after each acquisition of any
// run, and done after each run with its best value found (both from the
// runs' goroutines, one call at a time). The first error cancels the
// other runs and is returned.
func RunAll(ctx context.Context, f Function, methods []string, seeds []uint64, opt Options, jobs int, step func(), done func(method string, seed uint64, best float64)) (map[string][]*Result, error) {
	type job struct {
		m    string
		i    int
		seed uint64
	}
	var jl []job
	runs := map[string][]*Result{}
	for _, m := range methods {
		runs[m] = make([]*Result, len(seeds))
		for i, s := range seeds {
			jl = append(jl, job{m, i, s})
		}
	}
	var mu sync.Mutex
	err := kernels.Jobs(ctx, len(jl), jobs, func(ctx context.Context, k int) error {
		j := jl[k]
		r, err := Run(ctx, f, j.m, j.seed, opt, func(int) {
			mu.Lock()
			step()
			mu.Unlock()
		})
		if err != nil {
			return err
		}
		mu.Lock()
		runs[j.m][j.i] = r
		done(j.m, j.seed, r.BestSoFar[len(r.BestSoFar)-1])
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return runs, nil
}
