package gp

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/deup-screening/deup/internal/streams"
)

// KMeans clusters the rows of X (n×d) into k groups by Lloyd's algorithm
// from a k-means++ initialization (Arthur & Vassilvitskii 2007) drawn from
// seed, and returns the k×d matrix of centres. It stops when no assignment
// changes or after maxIter iterations (0 means 100). A cluster that empties
// is re-seeded at the point farthest from its centre. It returns an error
// if k < 1, X has fewer than k rows, or X holds NaN or Inf.
func KMeans(X mat.Matrix, k int, seed uint64, maxIter int) (*mat.Dense, error) {
	n, d := X.Dims()
	if k < 1 {
		return nil, fmt.Errorf("gp: kmeans: k = %d, want >= 1", k)
	}
	if n < k {
		return nil, fmt.Errorf("gp: kmeans: %d points for %d clusters", n, k)
	}
	xr := rows(X)
	for i, r := range xr {
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("gp: kmeans: row %d column %d is %v", i, j, v)
			}
		}
	}
	if maxIter <= 0 {
		maxIter = 100
	}
	rng := rand.New(rand.NewPCG(seed, streams.KMeans))
	C := mat.NewDense(k, d, nil)
	// k-means++: first centre uniform, then proportional to squared distance
	// to the nearest chosen centre.
	copy(C.RawRowView(0), xr[rng.IntN(n)])
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = sqDist(xr[i], C.RawRowView(0))
	}
	for c := 1; c < k; c++ {
		var total float64
		for _, v := range dist {
			total += v
		}
		pick := -1
		if total > 0 {
			u := rng.Float64() * total
			for i, v := range dist {
				u -= v
				if u < 0 {
					pick = i
					break
				}
			}
			if pick < 0 { // round-off: take the last point with mass
				for i := n - 1; i >= 0; i-- {
					if dist[i] > 0 {
						pick = i
						break
					}
				}
			}
		} else {
			pick = rng.IntN(n) // all points coincide with chosen centres
		}
		copy(C.RawRowView(c), xr[pick])
		for i := range dist {
			dist[i] = math.Min(dist[i], sqDist(xr[i], C.RawRowView(c)))
		}
	}
	assign := make([]int, n)
	for i := range assign {
		assign[i] = -1
	}
	counts := make([]int, k)
	for it := 0; it < maxIter; it++ {
		changed := false
		for i := range xr {
			best, bd := 0, math.Inf(1)
			for c := 0; c < k; c++ {
				if dd := sqDist(xr[i], C.RawRowView(c)); dd < bd {
					best, bd = c, dd
				}
			}
			dist[i] = bd
			if assign[i] != best {
				assign[i] = best
				changed = true
			}
		}
		if !changed {
			break
		}
		C.Zero()
		for c := range counts {
			counts[c] = 0
		}
		for i, c := range assign {
			counts[c]++
			row := C.RawRowView(c)
			for j, v := range xr[i] {
				row[j] += v
			}
		}
		for c := 0; c < k; c++ {
			row := C.RawRowView(c)
			if counts[c] == 0 {
				// Re-seed at the point currently farthest from its centre.
				far := 0
				for i := range dist {
					if dist[i] > dist[far] {
						far = i
					}
				}
				copy(row, xr[far])
				dist[far] = 0
				continue
			}
			for j := range row {
				row[j] /= float64(counts[c])
			}
		}
	}
	return C, nil
}

func sqDist(a, b []float64) float64 {
	var s float64
	for i := range a {
		t := a[i] - b[i]
		s += t * t
	}
	return s
}
