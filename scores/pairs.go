package scores

import (
	"cmp"
	"iter"
	"math"
	"slices"
)

// PairCount is n(n−1)/2, the number of unordered pairs of n drugs.
func PairCount(n int) int {
	if n < 2 {
		return 0
	}
	return n * (n - 1) / 2
}

// rowStart is the index of pair (a, a+1): the pairs before row a.
func rowStart(n, a int) int { return a * (2*n - a - 1) / 2 }

// PairAt is the k-th pair (a < b) of n drugs in the order (0,1), (0,2), …,
// (0,n−1), (1,2), … It panics unless 0 ≤ k < PairCount(n).
func PairAt(n, k int) (a, b int) {
	if k < 0 || k >= PairCount(n) {
		panic("scores: PairAt out of range")
	}
	// a is the largest row with rowStart(n, a) ≤ k; start from the real
	// root and correct for rounding.
	nf := float64(n)
	a = int((2*nf - 1 - math.Sqrt((2*nf-1)*(2*nf-1)-8*float64(k))) / 2)
	a = max(0, min(a, n-2))
	for a > 0 && rowStart(n, a) > k {
		a--
	}
	for a < n-2 && rowStart(n, a+1) <= k {
		a++
	}
	return a, a + 1 + k - rowStart(n, a)
}

// Pairs yields the pairs lo ≤ k < hi of n drugs in order, as (a, b).
func Pairs(n, lo, hi int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		if lo >= hi {
			return
		}
		a, b := PairAt(n, lo)
		for k := lo; k < hi; k++ {
			if !yield(a, b) {
				return
			}
			if b++; b == n {
				a++
				b = a + 1
			}
		}
	}
}

// SortedByID is the permutation of rows 0..len(ids)−1 that orders them by
// id (byte order; ties, which a drug list does not have, by row): the
// order whose pairs Pairs enumerates.
func SortedByID(ids []string) []int {
	p := make([]int, len(ids))
	for i := range p {
		p[i] = i
	}
	slices.SortStableFunc(p, func(x, y int) int { return cmp.Compare(ids[x], ids[y]) })
	return p
}
