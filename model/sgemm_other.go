//go:build !amd64 || purego || openblas

package model

func kern6x16(k int, a, b, c *float32, ldc, ldb int) { panic("model: no sgemm kernel") }

const haveKernel = false
