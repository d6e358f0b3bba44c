package kernels

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// ForChunks runs fn over [0, n) in chunks of grain (the last may be
// shorter), on the calling goroutine and, when there are at least two
// chunks, on up to Workers()−1 more: each takes the next chunk from a
// shared counter until none is left. worker (0 ≤ worker < Workers()) tells
// fn which goroutine runs it, for per-worker scratch. Chunks rather than
// fixed parts: on a shared machine one thread may wait for a core, and the
// others then take over the chunks it has not started instead of idling
// at the end. Results must not depend on which worker runs a chunk (they
// do not in this module: every chunk writes its own part of the output).
//
// The helpers are borrowed from the process's worker budget (budget.go):
// inside a job that holds the last free worker, fn runs on the caller only.
func ForChunks(n, grain int, fn func(worker, lo, hi int)) {
	if n <= 0 {
		return
	}
	h := borrow(min((n+grain-1)/grain, Workers()) - 1)
	defer giveBack(h)
	forChunks(n, grain, 1+h, fn)
}

// forChunks is ForChunks on at most the given number of workers.
func forChunks(n, grain, workers int, fn func(worker, lo, hi int)) {
	if n <= 0 {
		return
	}
	chunks := (n + grain - 1) / grain
	workers = min(chunks, workers)
	if workers < 2 {
		// Chunk by chunk here too: callers size per-worker scratch for
		// one chunk (with GOMAXPROCS=1 one call over [0, n) overran the
		// GEMM's packing buffer).
		for c := 0; c < chunks; c++ {
			fn(0, c*grain, min((c+1)*grain, n))
		}
		return
	}
	var next atomic.Int64
	run := func(worker int) {
		for {
			c := int(next.Add(1)) - 1
			if c >= chunks {
				return
			}
			fn(worker, c*grain, min((c+1)*grain, n))
		}
	}
	var wg sync.WaitGroup
	wg.Add(workers - 1)
	for w := 1; w < workers; w++ {
		go func() { defer wg.Done(); run(w) }()
	}
	run(0)
	wg.Wait()
}

// Workers is the number of goroutines ForChunks uses at most:
// runtime.GOMAXPROCS(0), read at each call.
func Workers() int { return max(1, runtime.GOMAXPROCS(0)) }
