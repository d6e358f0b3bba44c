package model

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// blasAPI is the subset of BLAS the model calls directly.
type blasAPI interface {
	Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int)
	Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int)
	Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)
}

// blasImpl is gonum's pure-Go BLAS, with Sgemm replaced by our kernel
// GEMM (sgemm.go: AVX-512 where the CPU has it, else AVX2/FMA); building with -tags
// openblas (cgo, Debian libopenblas-dev) replaces the GEMMs by OpenBLAS
// instead (blas_openblas.go). The choice is made once, at program start,
// for this package and for gorgonia (tensor.Use, gorgonia.Use: process-wide
// settings of gorgonia, so other gorgonia users in the same program get the
// same, tested, Sgemm). It is not changed afterwards.
var blasImpl blasAPI = gonum.Implementation{}

var blasName = "gonum"

func init() {
	if ks := kernels(); len(ks) > 0 {
		fb := fastBLAS{k: ks[0], scratch: &sync.Pool{}}
		blasImpl = fb
		blasName = "gonum+" + ks[0].name + "-sgemm"
		tensor.Use(fb)
		G.Use(fb)
	}
}

// BLAS names the BLAS the model's matrix products use: "gonum" (pure Go),
// "gonum+avx512-sgemm" or "gonum+avx2-sgemm" (pure Go with our assembly
// GEMM kernel) or "openblas".
func BLAS() string { return blasName }
