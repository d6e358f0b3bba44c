//go:build amd64 && !purego && !openblas

package kernels

import "golang.org/x/sys/cpu"

//go:noescape
func kern6x16(k int, a, b, c *float32, ldc, ldb int, add bool)

//go:noescape
func kern8x32(k int, a, b, c *float32, ldc, ldb int, add bool)

//go:noescape
func kern8x32pf(k int, a, b, c *float32, ldc, ldb int, add bool)

// packT8 packs eight rows of a transposed B (packTransposed's loop for
// eight rows and a multiple of eight p) in AVX assembly.
//
//go:noescape
func packT8(dst, src *float32, ldb, kc, nr int)

// copy8s copies eight floats from each of k rows of src (row stride lds)
// to dst, packed (a transposed A's panel for the 8-row kernel).
//
//go:noescape
func copy8s(dst, src *float32, lds, k int)

// havePackT8 says whether packT8 runs here (every CPU with a micro-kernel
// has AVX).
var havePackT8 = cpu.X86.HasAVX

// microKernels lists the micro-kernels this CPU runs, fastest first.
func microKernels() []microKernel {
	var ks []microKernel
	if cpu.X86.HasAVX512F {
		ks = append(ks, microKernel{name: "avx512", mr: 8, nr: 32, fn: kern8x32, pf: kern8x32pf})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, microKernel{name: "avx2", mr: 6, nr: 16, fn: kern6x16})
	}
	return ks
}
