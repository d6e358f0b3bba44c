package model

import (
	"sync"
	"sync/atomic"
)

// forChunks runs fn over [0, n) in chunks of grain (the last may be
// shorter), on the calling goroutine and, when there are at least two
// chunks, one more: each takes the next chunk from a shared counter until
// none is left. worker (0 or 1) tells fn which of the two it runs on, for
// per-worker scratch. Chunks rather than two fixed halves: on a shared
// machine one of the two threads may wait for a core, and the other then
// takes over the chunks it has not started instead of idling at the end.
// Results must not depend on which worker runs a chunk (they do not in
// this package: every chunk writes its own part of the output).
func forChunks(n, grain int, fn func(worker, lo, hi int)) {
	if n <= 0 {
		return
	}
	chunks := (n + grain - 1) / grain
	if chunks < 2 {
		fn(0, 0, n)
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
	wg.Add(1)
	go func() { defer wg.Done(); run(1) }()
	run(0)
	wg.Wait()
}
