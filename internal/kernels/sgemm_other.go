//go:build !amd64 || purego || openblas

package kernels

// microKernels lists the micro-kernels this CPU runs: none without amd64
// assembly.
func microKernels() []microKernel { return nil }
