//go:build !amd64 || purego || openblas

package kernels

func adamAVX(w, grad, m, v *float32, n int, c *[8]float32) { panic("kernels: no AVX Adam kernel") }

const haveAVX = false

func spAccum64(idx *int32, val *float32, n int, src *float32, ld int, dst *float32) {
	panic("kernels: no AVX sparse kernel")
}

func relu8(x *float32, n int) { panic("kernels: no AVX relu") }

func reluMask8(x, grad, out *float32, n int) { panic("kernels: no AVX relu mask") }

func addScaled8(a float32, x, dst *float32, n int) { panic("kernels: no AVX addScaled") }

func add8(x, y, dst *float32, n int) { panic("kernels: no AVX add") }

func scale8(a float32, x *float32, n int) { panic("kernels: no AVX scale") }

func dot4(x, y *float32, n int, s *[4]float64) { panic("kernels: no AVX dot") }
