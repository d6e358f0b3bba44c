package kernels

// Accumulate sets dst[j−lo] = Σ_k val[k]·src[idx[k]·ld + j] for j in
// [lo, hi), summing k in order from zero with each product rounded before
// it is added (what clearing dst and calling axpy per k does): one output
// row of a sparse-times-dense product. On float32 with AVX, 64 columns at
// a time in assembly (spAccum64): the sums stay in registers instead of
// reading and writing dst once per term. Same results either way.
func Accumulate[T float32 | float64](idx []int32, val []float32, src []T, ld, lo, hi int, dst []T) {
	if s32, ok := any(src).([]float32); ok && haveAVX && len(idx) > 0 {
		d32 := any(dst).([]float32)
		for ; hi-lo >= 64; lo += 64 {
			spAccum64(&idx[0], &val[0], len(idx), &s32[lo], ld, &d32[0])
			d32 = d32[64:]
		}
		dst = any(d32).([]T)
	}
	dst = dst[:hi-lo]
	clear(dst)
	for k, c := range idx {
		v := T(val[k])
		for j, x := range src[int(c)*ld+lo : int(c)*ld+hi] {
			dst[j] += T(v * x)
		}
	}
}

// AddScaled sets dst[j] += a·x[j], the product rounded to T before it is
// added (no fused multiply-add): one term of Accumulate. Called for the
// terms of an output row in Accumulate's order, starting from a cleared
// row, it gives Accumulate's sums bit for bit (a sparse-times-dense
// product computed column by column: each row of the dense factor is read
// once, in order). On float32 with AVX, eight at a time in assembly.
// Panics if dst is shorter than x.
func AddScaled[T float32 | float64](a float32, x, dst []T) {
	dst = dst[:len(x)]
	if x32, ok := any(x).([]float32); ok && haveAVX && len(x) >= 8 {
		d32 := any(dst).([]float32)
		n := len(x) &^ 7
		addScaled8(a, &x32[0], &d32[0], n)
		x, dst = x[n:], dst[n:]
	}
	v := T(a)
	for j, e := range x {
		dst[j] += T(v * e)
	}
}

// Relu sets the negative elements of x to 0 (NaN and −0 stay). On
// float32 with AVX, eight at a time in assembly: a compare and branch per
// element mispredicts on about half of them.
func Relu[T float32 | float64](x []T) {
	if x32, ok := any(x).([]float32); ok && haveAVX && len(x) >= 8 {
		n := len(x) &^ 7
		relu8(&x32[0], n)
		x = x[n:]
	}
	for i, v := range x {
		if v < 0 {
			x[i] = 0
		}
	}
}

// ReluMask sets out[i] = g[i]·m(x[i]), m = 1 where x[i] ≥ 0 and 0
// elsewhere (NaN too): with g = x, ReLU as gorgonia computes it (x·0 = −0
// for a negative x, NaN stays); with g an output gradient, ReLU's input
// gradient. On float32 with AVX, eight at a time in assembly, with no
// branch (the comparison mispredicts on about half the elements): the
// same products, so the same bits. Panics if the lengths differ.
func ReluMask[T float32 | float64](x, g, out []T) {
	if len(g) != len(x) || len(out) != len(x) {
		panic("kernels: ReluMask: lengths differ")
	}
	if x32, ok := any(x).([]float32); ok && haveAVX && len(x) >= 8 {
		g32, o32 := any(g).([]float32), any(out).([]float32)
		n := len(x) &^ 7
		reluMask8(&x32[0], &g32[0], &o32[0], n)
		x, g, out = x[n:], g[n:], out[n:]
	}
	for i, v := range x {
		m := T(0)
		if v >= 0 {
			m = 1
		}
		out[i] = g[i] * m
	}
}
