package model

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// fastBLAS is gonum's pure-Go BLAS with Sgemm replaced by a blocked GEMM
// around a 6×16 AVX2/FMA micro-kernel in Go assembly (sgemm_amd64.s),
// used when the CPU has AVX2 and FMA. Layout (GotoBLAS style): for each
// block of kc = 256 along k, A (scaled by alpha) is packed into 6-row
// panels, and for each 16-column panel of B (packed into 16 KiB, which
// stays in L1) the kernel accumulates every 6×16 tile of C. Partial tiles
// are zero-padded. Column panels are split between two goroutines for
// large products.
type fastBLAS struct{ gonum.Implementation }

const (
	kcBlock = 256
	mrTile  = 6
	nrTile  = 16
)

// Sgemm computes C = alpha·op(A)·op(B) + beta·C (row-major, as gonum).
// Every element of C goes through the same kernel arithmetic whatever its
// position (partial tiles are zero-padded and computed in a scratch tile),
// so a row of the result does not depend on the other rows of the batch:
// a pair's prediction is bit-identical whichever pairs it is predicted with.
func (fb fastBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 || k == 0 {
		fb.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// Argument checks as gonum does (panics on misuse, a programmer error).
	checkSgemm(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc)
	if beta != 1 {
		for i := 0; i < m; i++ {
			row := c[i*ldc : i*ldc+n]
			if beta == 0 {
				clear(row)
			} else {
				for j := range row {
					row[j] *= beta
				}
			}
		}
	}
	if alpha == 0 {
		return
	}
	mPad := (m + mrTile - 1) / mrTile * mrTile
	panels := (n + nrTile - 1) / nrTile
	ap := make([]float32, mPad*min(kcBlock, k))
	for pc := 0; pc < k; pc += kcBlock {
		kc := min(kcBlock, k-pc)
		// Pack alpha·A[:, pc:pc+kc] into 6-row panels (rows ≥ m are zero).
		for ic := 0; ic < mPad; ic += mrTile {
			dst := ap[ic*kc : (ic+mrTile)*kc]
			for ii := 0; ii < mrTile; ii++ {
				i := ic + ii
				if i >= m {
					for p := 0; p < kc; p++ {
						dst[p*mrTile+ii] = 0
					}
					continue
				}
				if tA == blas.NoTrans {
					for p, v := range a[i*lda+pc : i*lda+pc+kc] {
						dst[p*mrTile+ii] = alpha * v
					}
				} else {
					for p := 0; p < kc; p++ {
						dst[p*mrTile+ii] = alpha * a[(pc+p)*lda+i]
					}
				}
			}
		}
		work := func(lo, hi int) {
			bp := make([]float32, kc*nrTile)
			var tile [mrTile * nrTile]float32
			for jp := lo; jp < hi; jp++ {
				jc := jp * nrTile
				w := min(nrTile, n-jc)
				bsrc, bld := &bp[0], nrTile
				if w < nrTile {
					clear(bp)
				}
				if tB == blas.NoTrans && w == nrTile {
					// Full panel of an untransposed B: the kernel reads it in
					// place (16 contiguous floats per row, constant stride).
					bsrc, bld = &b[pc*ldb+jc], ldb
				} else if tB == blas.NoTrans {
					for p := 0; p < kc; p++ {
						copy(bp[p*nrTile:p*nrTile+w], b[(pc+p)*ldb+jc:(pc+p)*ldb+jc+w])
					}
				} else {
					for jj := 0; jj < w; jj++ {
						for p, v := range b[(jc+jj)*ldb+pc : (jc+jj)*ldb+pc+kc] {
							bp[p*nrTile+jj] = v
						}
					}
				}
				for ic := 0; ic < mPad; ic += mrTile {
					h := min(mrTile, m-ic)
					if h == mrTile && w == nrTile {
						kern6x16(kc, &ap[ic*kc], bsrc, &c[ic*ldc+jc], ldc, bld)
						continue
					}
					clear(tile[:])
					kern6x16(kc, &ap[ic*kc], bsrc, &tile[0], nrTile, bld)
					for ii := 0; ii < h; ii++ {
						row := c[(ic+ii)*ldc+jc : (ic+ii)*ldc+jc+w]
						for jj := range row {
							row[jj] += tile[ii*nrTile+jj]
						}
					}
				}
			}
		}
		if panels >= 8 && mPad*kc*panels*nrTile >= 1<<20 {
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); work(panels/2, panels) }()
			work(0, panels/2)
			wg.Wait()
		} else {
			work(0, panels)
		}
	}
}

func checkSgemm(tA, tB blas.Transpose, m, n, k, la, lda, lb, ldb, lc, ldc int) {
	rowA, colA := m, k
	if tA != blas.NoTrans {
		rowA, colA = k, m
	}
	rowB, colB := k, n
	if tB != blas.NoTrans {
		rowB, colB = n, k
	}
	switch {
	case lda < max(1, colA), ldb < max(1, colB), ldc < max(1, n):
		panic("model: sgemm: bad leading dimension")
	case la < lda*(rowA-1)+colA, lb < ldb*(rowB-1)+colB, lc < ldc*(m-1)+n:
		panic("model: sgemm: short slice")
	}
}
