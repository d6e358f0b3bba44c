//go:build openblas && cgo

package kernels

/*
#cgo CFLAGS: -I/usr/include/x86_64-linux-gnu/openblas-pthread
#cgo LDFLAGS: -lopenblas
#include <cblas.h>
*/
import "C"

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// openBLAS is gonum's implementation with the level-3 products Sgemm and
// Dgemm done by OpenBLAS (row-major CBLAS has the same semantics as
// gonum's row-major Sgemm). Everything else stays pure Go.
type openBLAS struct{ gonum.Implementation }

func trans(t blas.Transpose) C.enum_CBLAS_TRANSPOSE {
	if t == blas.NoTrans {
		return C.CblasNoTrans
	}
	return C.CblasTrans
}

// first is the address of s[0], or nil for an empty s (A or B of a
// product with k = 0, which cblas does not read).
func first[T float32 | float64](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

func (openBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	C.cblas_sgemm(C.CblasRowMajor, trans(tA), trans(tB), C.blasint(m), C.blasint(n), C.blasint(k), C.float(alpha),
		(*C.float)(first(a)), C.blasint(lda), (*C.float)(first(b)), C.blasint(ldb), C.float(beta),
		(*C.float)(unsafe.Pointer(&c[0])), C.blasint(ldc))
}

func (openBLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	C.cblas_dgemm(C.CblasRowMajor, trans(tA), trans(tB), C.blasint(m), C.blasint(n), C.blasint(k), C.double(alpha),
		(*C.double)(first(a)), C.blasint(lda), (*C.double)(first(b)), C.blasint(ldb), C.double(beta),
		(*C.double)(unsafe.Pointer(&c[0])), C.blasint(ldc))
}

func init() {
	impl = openBLAS{}
	implName = "openblas"
}
