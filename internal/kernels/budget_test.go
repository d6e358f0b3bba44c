package kernels

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestJobsStayWithinBudget runs more jobs on more pool goroutines than
// cores; inside each, ForChunks asks for helpers. At no moment do jobs and
// helpers together exceed GOMAXPROCS, every job runs once, and the budget
// is empty afterwards.
func TestJobsStayWithinBudget(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		old := runtime.GOMAXPROCS(procs)
		var running, peak atomic.Int64
		note := func(d int64) {
			n := running.Add(d)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
		}
		ran := make([]atomic.Int32, 40)
		err := Jobs(context.Background(), len(ran), 3*procs, func(ctx context.Context, k int) error {
			ran[k].Add(1)
			note(1)
			defer note(-1)
			ForChunks(1000, 10, func(worker, lo, hi int) {
				if worker > 0 {
					note(1)
					defer note(-1)
				}
				s := 0
				for i := lo; i < hi; i++ {
					s += i
				}
				_ = s
			})
			return nil
		})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		for k := range ran {
			if n := ran[k].Load(); n != 1 {
				t.Fatalf("GOMAXPROCS %d: job %d ran %d times", procs, k, n)
			}
		}
		// Helpers of one ForChunks call may overlap its caller's note by
		// a moment; the bound is the budget's: jobs + helpers ≤ procs.
		if p := peak.Load(); p > int64(procs) {
			t.Fatalf("GOMAXPROCS %d: %d goroutines computing at once", procs, p)
		}
		if h := Held(); h != 0 {
			t.Fatalf("GOMAXPROCS %d: %d workers still held", procs, h)
		}
	}
}

// TestJobsFirstError: the first error cancels the other jobs' context,
// no new job starts, and Jobs returns that error.
func TestJobsFirstError(t *testing.T) {
	boom := errors.New("boom")
	var started atomic.Int32
	err := Jobs(context.Background(), 100, 2, func(ctx context.Context, k int) error {
		started.Add(1)
		if k == 3 {
			return boom
		}
		if k > 3 {
			<-ctx.Done() // only a job running beside the failing one waits here
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Jobs = %v, want boom", err)
	}
	if n := started.Load(); n > 6 {
		t.Fatalf("%d jobs started after the error, want the pool to stop", n)
	}
	if h := Held(); h != 0 {
		t.Fatalf("%d workers still held", h)
	}
}

// TestAcquireWaitsAndCancels: with every worker held, Acquire waits and
// returns the context's error when cancelled; a Release lets it through.
func TestAcquireWaitsAndCancels(t *testing.T) {
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	if err := Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Acquire with none free and a cancelled context = %v", err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := Acquire(context.Background()); err != nil {
			t.Error(err)
		}
		Release()
	}()
	Release()
	wg.Wait()
	if h := Held(); h != 0 {
		t.Fatalf("%d workers still held", h)
	}
}

// TestPartsCover: the parts of Parts cover [0, n) once, in at most want
// parts of at least minPart, the helpers borrowed and given back.
func TestPartsCover(t *testing.T) {
	old := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(old)
	for _, c := range []struct{ n, minPart, want int }{{0, 10, 4}, {5, 10, 4}, {100, 10, 4}, {100, 60, 4}, {1 << 14, 1024, 2}} {
		seen := make([]atomic.Int32, c.n)
		parts := Parts(c.n, c.minPart, c.want, func(w, lo, hi int) {
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		if parts < 1 || parts > c.want || (parts > 1 && c.n/parts < c.minPart) {
			t.Fatalf("Parts(%d, %d, %d): %d parts", c.n, c.minPart, c.want, parts)
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("Parts(%d, %d, %d): index %d seen %d times", c.n, c.minPart, c.want, i, seen[i].Load())
			}
		}
		if h := Held(); h != 0 {
			t.Fatalf("%d workers still held", h)
		}
	}
}
