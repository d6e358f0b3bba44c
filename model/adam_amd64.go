//go:build amd64 && !purego && !openblas

package model

import "golang.org/x/sys/cpu"

// adamAVX runs adamKernel's float32 arithmetic on n elements (n a multiple
// of 8), eight at a time. c holds wd, β1, 1−β1, β2, 1−β2, step, rbc2, ε
// as float32, so the constants are the Go kernel's.
//
//go:noescape
func adamAVX(w, grad, m, v *float32, n int, c *[8]float32)

// haveAVX says whether the CPU runs the AVX kernels of this package
// (Adam, the sparse products, ReLU).
var haveAVX = cpu.X86.HasAVX
