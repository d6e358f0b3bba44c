package model

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// blasAPI is the subset of BLAS the model calls directly.
type blasAPI interface {
	Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int)
	Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int)
	Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)
}

// blasImpl is pure-Go gonum by default; building with -tags openblas (cgo,
// Debian libopenblas-dev) replaces its GEMMs, and gorgonia's, by OpenBLAS
// at program start (blas_openblas.go). It is not changed afterwards.
var blasImpl blasAPI = gonum.Implementation{}

// BLAS names the BLAS the model's matrix products use: "gonum" (pure Go)
// or "openblas".
func BLAS() string { return blasName }

var blasName = "gonum"
