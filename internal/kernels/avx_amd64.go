//go:build amd64 && !purego && !openblas

package kernels

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

// spAccum64 is accumulate for 64 columns in AVX assembly (same results).
//
//go:noescape
func spAccum64(idx *int32, val *float32, n int, src *float32, ld int, dst *float32)

// relu8 is relu's scalar loop on n float32s (n a multiple of 8) in AVX
// assembly (same results, NaN and −0 included).
//
//go:noescape
func relu8(x *float32, n int)

// reluMask8 is ReluMask's loop on float32 for n elements (a multiple of
// 8) in AVX assembly (same results).
//
//go:noescape
func reluMask8(x, grad, out *float32, n int)

// addScaled8 is AddScaled's loop on float32 for n elements (a multiple of
// 8) in AVX assembly (same results).
//
//go:noescape
func addScaled8(a float32, x, dst *float32, n int)

// add8 is Add's loop on float32 for n elements (a multiple of 8) in AVX
// assembly (same results).
//
//go:noescape
func add8(x, y, dst *float32, n int)

// scale8 is Scale's loop on float32 for n elements (a multiple of 8) in
// AVX assembly (same results).
//
//go:noescape
func scale8(a float32, x *float32, n int)

// dot4 is Dot4's loop on n elements (a multiple of 4) in AVX assembly,
// adding to the four partial sums s (same results).
//
//go:noescape
func dot4(x, y *float32, n int, s *[4]float64)
