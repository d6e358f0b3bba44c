//go:build !amd64 || purego || openblas

package kernels

// microKernels lists the micro-kernels this CPU runs: none without amd64
// assembly.
func microKernels() []microKernel { return nil }

const havePackT8 = false

func packT8(dst, src *float32, ldb, kc, nr int) { panic("kernels: no AVX packing") }

func copy8s(dst, src *float32, lds, k int) { panic("kernels: no AVX packing") }
