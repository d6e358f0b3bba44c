//go:build !amd64 || purego || openblas

package model

// kernels lists the micro-kernels this CPU runs: none without amd64
// assembly.
func kernels() []microKernel { return nil }
