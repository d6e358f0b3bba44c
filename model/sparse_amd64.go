//go:build amd64 && !purego && !openblas

package model

// spAccum64 is accumulate for 64 columns in AVX assembly (same results).
//
//go:noescape
func spAccum64(idx *int32, val *float32, n int, src *float32, ld int, dst *float32)

// relu8 is relu's scalar loop on n float32s (n a multiple of 8) in AVX
// assembly (same results, NaN and −0 included).
//
//go:noescape
func relu8(x *float32, n int)
