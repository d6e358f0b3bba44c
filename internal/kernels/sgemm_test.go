package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
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
	for _, sh := range [][3]int{{1, 1, 1}, {2, 3, 4}, {4, 16, 1}, {8, 32, 300}, {13, 37, 5}, {64, 1024, 600}, {5, 17, 257}, {9, 33, 513}, {16, 64, 256}, {3, 40, 10}, {64, 128, 128}, {150, 70, 300}} {
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
						for _, kd := range kernelsAndDirect(ks) {
							kern := kd.k
							got := append([]float32(nil), c...)
							kd.Sgemm(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], got, ldc)
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

// kernelsAndDirect is each kernel's GEMM with B always packed and with an
// untransposed B read in place for small products (the default).
func kernelsAndDirect(ks []microKernel) []fastBLAS {
	var fbs []fastBLAS
	for _, k := range ks {
		fbs = append(fbs, fastBLAS{k: k}, fastBLAS{k: k, direct: directBlocks})
	}
	return fbs
}

func randF32(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return x
}

// TestSgemmSameEverywhere: the GEMM gives the same bits on one worker
// (GOMAXPROCS=1, which once overran the packing buffer: the product was
// not cut into chunks) as on two, on the calling goroutine only
// (SgemmSerial) as shared, and with an untransposed B read in place as
// packed: every element is the same chain of fused multiply-adds
// whichever way its inputs reach the kernel.
func TestSgemmSameEverywhere(t *testing.T) {
	ks := microKernels()
	if len(ks) == 0 {
		t.Skip("no assembly kernel on this CPU")
	}
	rng := rand.New(rand.NewPCG(3, 1))
	for _, sh := range [][3]int{{64, 1024, 600}, {61, 1000, 2048}, {128, 256, 300}, {200, 130, 70}} {
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			m, n, k := sh[0], sh[1], sh[2]
			rb, cb := k, n
			if tB == blas.Trans {
				rb, cb = n, k
			}
			a, b := randF32(rng, m*k), randF32(rng, rb*cb)
			for _, kern := range ks {
				run := func(procs, direct int) []float32 {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
					fb := fastBLAS{k: kern, direct: direct, serial: direct < 0}
					direct = max(direct, 0)
					c := make([]float32, m*n)
					fb.Sgemm(blas.NoTrans, tB, m, n, k, 1, a, k, b, cb, 0, c, n)
					return c
				}
				want := run(2, 0)
				for _, v := range [][2]int{{1, 0}, {1, 1 << 20}, {2, 1 << 20}, {2, -1}} { // −1: SgemmSerial
					got := run(v[0], v[1])
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s %dx%dx%d %c, %d workers, direct up to %d blocks: element %d = %v, packed on 2 workers %v", kern.name, m, n, k, tB, v[0], v[1], i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestPackTransposed: the packed panel holds bp[p·nr+j] = b[j·ldb+p] for
// every width and depth (the assembly's eight-row blocks and the Go tails),
// and nothing else of bp is written.
func TestPackTransposed(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	const nr, ldb = 32, 300
	b := randF32(rng, nr*ldb)
	for _, w := range []int{1, 7, 8, 9, 16, 31, 32} {
		for _, kc := range []int{1, 7, 8, 13, 64, 256} {
			bp := make([]float32, kc*nr)
			for i := range bp {
				bp[i] = -1
			}
			packTransposed(bp, b, ldb, kc, w, nr)
			for p := 0; p < kc; p++ {
				for j := 0; j < nr; j++ {
					want := float32(-1)
					if j < w {
						want = b[j*ldb+p]
					}
					if bp[p*nr+j] != want {
						t.Fatalf("w %d kc %d: bp[%d·%d+%d] = %v, want %v", w, kc, p, nr, j, bp[p*nr+j], want)
					}
				}
			}
		}
	}
}
