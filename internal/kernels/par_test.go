package kernels

import "testing"

// TestForChunksOneWorker: with one worker (GOMAXPROCS=1) every call still
// covers at most one chunk, in order; callers size per-worker scratch for
// one chunk (the GEMM overran its packing buffer when one call got [0, n)).
func TestForChunksOneWorker(t *testing.T) {
	for _, tc := range []struct{ n, grain, workers int }{{10, 3, 1}, {10, 3, 0}, {9, 3, 1}, {2, 5, 1}} {
		var got [][2]int
		forChunks(tc.n, tc.grain, tc.workers, func(w, lo, hi int) {
			if w != 0 {
				t.Errorf("worker %d with %d workers", w, tc.workers)
			}
			got = append(got, [2]int{lo, hi})
		})
		next := 0
		for _, r := range got {
			if r[0] != next || r[1]-r[0] > tc.grain || r[1] <= r[0] {
				t.Errorf("n %d grain %d: chunks %v", tc.n, tc.grain, got)
				break
			}
			next = r[1]
		}
		if next != tc.n {
			t.Errorf("n %d grain %d: chunks %v do not cover [0,%d)", tc.n, tc.grain, got, tc.n)
		}
	}
}
