package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestFastSgemmMatchesGonum compares the AVX2 kernel GEMM with gonum's
// reference Sgemm (computed in float64 for the tolerance) on shapes with
// and without full tiles, all transpose combinations, padded leading
// dimensions and several alpha/beta.
func TestFastSgemmMatchesGonum(t *testing.T) {
	ks := microKernels()
	if len(ks) == 0 {
		t.Skip("no assembly kernel on this CPU")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, sh := range [][3]int{{1, 1, 1}, {2, 3, 4}, {4, 16, 1}, {8, 32, 300}, {13, 37, 5}, {64, 1024, 600}, {5, 17, 257}, {9, 33, 513}, {16, 64, 256}, {3, 40, 10}, {64, 128, 128}} {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, ab := range [][2]float32{{1, 0}, {0.5, 1}, {-2, 0.25}} {
					m, n, k := sh[0], sh[1], sh[2]
					name := fmt.Sprintf("%dx%dx%d/%c%c/%v", m, n, k, tA, tB, ab)
					t.Run(name, func(t *testing.T) {
						ra, ca := m, k
						if tA == blas.Trans {
							ra, ca = k, m
						}
						rb, cb := k, n
						if tB == blas.Trans {
							rb, cb = n, k
						}
						lda, ldb, ldc := ca+3, cb+1, n+2
						a, b := randF32(rng, ra*lda), randF32(rng, rb*ldb)
						c := randF32(rng, m*ldc)
						want := append([]float32(nil), c...)
						gonum.Implementation{}.Sgemm(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], want, ldc)
						var first []float32
						for _, kern := range ks {
							got := append([]float32(nil), c...)
							fastBLAS{k: kern}.Sgemm(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], got, ldc)
							for i := range got {
								if d := math.Abs(float64(got[i] - want[i])); d > 1e-4*math.Sqrt(float64(k))*(1+math.Abs(float64(want[i]))) {
									t.Fatalf("%s: element %d: %v, gonum %v", kern.name, i, got[i], want[i])
								}
								// All kernels run the same chain of fused
								// multiply-adds per element: equal results.
								if first != nil && got[i] != first[i] {
									t.Fatalf("%s: element %d: %v, %s kernel %v", kern.name, i, got[i], ks[0].name, first[i])
								}
							}
							if first == nil {
								first = got
							}
						}
					})
				}
			}
		}
	}
}

func randF32(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return x
}
