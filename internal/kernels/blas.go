package kernels

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BLAS is a full BLAS implementation (what gorgonia's tensor.Use and
// gorgonia.Use accept).
type BLAS interface {
	blas.Float32
	blas.Float64
	blas.Complex64
	blas.Complex128
}

// impl is gonum's pure-Go BLAS, with Sgemm replaced by our kernel GEMM
// (sgemm.go: AVX-512 where the CPU has it, else AVX2/FMA); building with
// -tags openblas (cgo, Debian libopenblas-dev) replaces the GEMMs by
// OpenBLAS instead (blas_openblas.go). The choice is made once, at program
// start, and not changed afterwards.
var impl BLAS = gonum.Implementation{}

var implName = "gonum"

func init() {
	if ks := microKernels(); len(ks) > 0 {
		impl = fastBLAS{k: ks[0], scratch: &sync.Pool{}, direct: directBlocks}
		implName = "gonum+" + ks[0].name + "-sgemm"
	}
}

// Impl returns the BLAS in use (see Name). Safe for concurrent use.
func Impl() BLAS { return impl }

// Name names the BLAS in use: "gonum" (pure Go), "gonum+avx512-sgemm" or
// "gonum+avx2-sgemm" (pure Go with our assembly GEMM kernel) or
// "openblas".
func Name() string { return implName }
