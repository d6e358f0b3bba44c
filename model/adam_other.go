//go:build !amd64 || purego || openblas

package model

func adamAVX(w, grad, m, v *float32, n int, c *[8]float32) { panic("model: no AVX Adam kernel") }

const haveAVX = false
