package kernels

import (
	"context"
	"sync"
)

// The process's worker budget: at most Workers() goroutines of this
// module compute at once. Every concurrent job (a training of deup bench,
// a run of deup smo: Jobs) holds one worker while it runs; every kernel
// that shares a loop (ForChunks, the GEMM, Parts) runs on its caller and
// borrows helpers only from what is free, without waiting. So two
// trainings on two cores run their kernels on their own goroutine each,
// and one training on two cores gets a helper: never more goroutines
// computing than cores, whatever the nesting. It is per process, as
// GOMAXPROCS is, and the only state of the package.
var budget = struct {
	sync.Mutex
	held    int           // workers held: jobs and borrowed helpers
	waiters int           // Acquire calls waiting
	wake    chan struct{} // closed when held falls while someone waits
}{wake: make(chan struct{})}

// Acquire takes one worker of the budget for a job, waiting until one is
// free or ctx is done (then it returns ctx's error and holds nothing).
// Release gives it back.
func Acquire(ctx context.Context) error {
	for {
		budget.Lock()
		if budget.held < Workers() {
			budget.held++
			budget.Unlock()
			return nil
		}
		budget.waiters++
		w := budget.wake
		budget.Unlock()
		select {
		case <-w:
			budget.Lock()
			budget.waiters--
			budget.Unlock()
		case <-ctx.Done():
			budget.Lock()
			budget.waiters--
			budget.Unlock()
			return ctx.Err()
		}
	}
}

// Release gives back a worker taken by Acquire.
func Release() { giveBack(1) }

// borrow takes up to k free workers without waiting and returns how many
// it took; the caller's own goroutine is not counted (it is a job's, or
// the program's main work), so a caller outside any job gets at most
// Workers()−1.
func borrow(k int) int {
	if k <= 0 {
		return 0
	}
	budget.Lock()
	free := Workers() - budget.held
	if budget.held == 0 {
		free-- // the caller itself computes, and holds nothing
	}
	got := max(0, min(k, free))
	budget.held += got
	budget.Unlock()
	return got
}

// giveBack returns k workers taken by borrow or Acquire.
func giveBack(k int) {
	if k <= 0 {
		return
	}
	budget.Lock()
	budget.held -= k
	if budget.held < 0 {
		budget.Unlock()
		panic("kernels: budget released more than taken")
	}
	if budget.waiters > 0 {
		close(budget.wake)
		budget.wake = make(chan struct{})
	}
	budget.Unlock()
}

// Held is the number of workers of the budget held now (for tests and
// progress displays).
func Held() int {
	budget.Lock()
	defer budget.Unlock()
	return budget.held
}

// Jobs runs job(ctx, k) for k = 0, …, n−1 on up to workers goroutines
// (at least 1), taking the jobs in order; each job holds a worker of the
// budget while it runs, so the jobs and their kernels together stay
// within Workers() goroutines. The first error cancels ctx for the other
// jobs, stops starting new ones, and is returned once all have returned.
// It is the project's one pool for concurrent jobs.
func Jobs(ctx context.Context, n, workers int, job func(ctx context.Context, k int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		next  int
		first error
		wg    sync.WaitGroup
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if first != nil || next >= n {
			return 0, false
		}
		next++
		return next - 1, true
	}
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
			cancel()
		}
		mu.Unlock()
	}
	for w := 0; w < min(max(1, workers), n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k, ok := take()
				if !ok {
					return
				}
				if err := Acquire(ctx); err != nil {
					fail(err)
					return
				}
				err := job(ctx, k)
				Release()
				if err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// Parts runs fn(worker, lo, hi) over [0, n) cut into equal parts of at
// least minPart each, one per goroutine: the caller's and the helpers it
// can borrow from the budget (at most want−1). worker numbers the parts
// from 0; it returns how many parts there were (1: fn ran on the caller
// over [0, n)).
func Parts(n, minPart, want int, fn func(worker, lo, hi int)) int {
	nw := min(want, n/max(1, minPart))
	h := borrow(nw - 1)
	defer giveBack(h)
	nw = 1 + h
	if nw == 1 {
		fn(0, 0, n)
		return 1
	}
	var wg sync.WaitGroup
	wg.Add(nw - 1)
	for w := 1; w < nw; w++ {
		go func() { defer wg.Done(); fn(w, w*n/nw, (w+1)*n/nw) }()
	}
	fn(0, 0, n/nw)
	wg.Wait()
	return nw
}
