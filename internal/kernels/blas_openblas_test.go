//go:build openblas && cgo

package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestOpenBLASGemm checks the OpenBLAS Sgemm and Dgemm (one pointer rule,
// first) against the definition C = alpha·op(A)·op(B) + beta·C summed in
// float64, on row-major products of every transpose, with k = 0 (empty A
// and B: nil pointers, C scaled by beta) and m = 0 (no call). Tolerances:
// relative 1e-5 (float32) and 1e-12 (float64), for the other order of
// summation.
func TestOpenBLASGemm(t *testing.T) {
	if Name() != "openblas" {
		t.Fatalf("Name() = %q with -tags openblas", Name())
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		tA, tB  blas.Transpose
		m, n, k int
	}{
		{blas.NoTrans, blas.NoTrans, 5, 7, 3},
		{blas.Trans, blas.NoTrans, 4, 6, 9},
		{blas.NoTrans, blas.Trans, 8, 3, 5},
		{blas.Trans, blas.Trans, 2, 2, 2},
		{blas.NoTrans, blas.NoTrans, 3, 4, 0},
		{blas.NoTrans, blas.NoTrans, 0, 4, 3},
	} {
		ra, ca := tc.m, tc.k
		if tc.tA == blas.Trans {
			ra, ca = tc.k, tc.m
		}
		rb, cb := tc.k, tc.n
		if tc.tB == blas.Trans {
			rb, cb = tc.n, tc.k
		}
		a64, b64, c64 := randF64(rng, ra*ca), randF64(rng, rb*cb), randF64(rng, tc.m*tc.n)
		lda, ldb := max(ca, 1), max(cb, 1)
		want := make([]float64, len(c64))
		for i := 0; i < tc.m; i++ {
			for j := 0; j < tc.n; j++ {
				sum := 0.0
				for l := 0; l < tc.k; l++ {
					ia, ib := i*lda+l, l*ldb+j
					if tc.tA == blas.Trans {
						ia = l*lda + i
					}
					if tc.tB == blas.Trans {
						ib = j*ldb + l
					}
					x, y := a64[ia], b64[ib]
					sum += x * y
				}
				want[i*tc.n+j] = 1.5*sum + 0.5*c64[i*tc.n+j]
			}
		}
		got := append([]float64(nil), c64...)
		Impl().Dgemm(tc.tA, tc.tB, tc.m, tc.n, tc.k, 1.5, a64, lda, b64, ldb, 0.5, got, max(tc.n, 1))
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
				t.Errorf("Dgemm %+v: c[%d] = %v, want %v", tc, i, got[i], want[i])
			}
		}
		a32, b32, c32 := toF32(a64), toF32(b64), toF32(c64)
		got32 := append([]float32(nil), c32...)
		Impl().Sgemm(tc.tA, tc.tB, tc.m, tc.n, tc.k, 1.5, a32, lda, b32, ldb, 0.5, got32, max(tc.n, 1))
		for i := range want {
			if math.Abs(float64(got32[i])-want[i]) > 1e-5*(1+math.Abs(want[i])) {
				t.Errorf("Sgemm %+v: c[%d] = %v, want %v", tc, i, got32[i], want[i])
			}
		}
	}
}

func randF64(rng *rand.Rand, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = rng.Float64()*2 - 1
	}
	return out
}

func toF32(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}
