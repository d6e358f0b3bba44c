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

// Add sets dst[i] = x[i] + y[i] for i < len(x) (dst may be x or y). On
// float32 with AVX, eight at a time in assembly (the same IEEE additions).
// Panics if y or dst is shorter than x.
func Add[T float32 | float64](x, y, dst []T) {
	y, dst = y[:len(x)], dst[:len(x)]
	if x32, ok := any(x).([]float32); ok && haveAVX && len(x) >= 8 {
		n := len(x) &^ 7
		add8(&x32[0], &any(y).([]float32)[0], &any(dst).([]float32)[0], n)
		x, y, dst = x[n:], y[n:], dst[n:]
	}
	for i, v := range x {
		dst[i] = v + y[i]
	}
}

// Scale sets x[i] *= a (the BLAS Sscal for a ≠ 0). On float32 with AVX,
// eight at a time in assembly (the same IEEE products).
func Scale[T float32 | float64](a T, x []T) {
	if x32, ok := any(x).([]float32); ok && haveAVX && len(x) >= 8 {
		n := len(x) &^ 7
		scale8(float32(a), &x32[0], n)
		x = x[n:]
	}
	for i := range x {
		x[i] *= a
	}
}

// Dot4 returns the dot product of x and y in float64 summed in four
// interleaved partial sums: s_j = Σ float64(x[i])·float64(y[i]) over
// i ≡ j (mod 4) in increasing i for the first len(x) − len(x)%4
// elements, the remaining ones added to s_0 in order, and the result
// (s_0 + s_1) + (s_2 + s_3). (The products of two float32 are exact in
// float64.) With AVX the four sums are the four lanes of one register:
// the same additions in the same order, so the same result. Panics if y
// is shorter than x.
func Dot4(x, y []float32) float64 {
	y = y[:len(x)]
	var s [4]float64
	i := 0
	if haveAVX && len(x) >= 4 {
		i = len(x) &^ 3
		dot4(&x[0], &y[0], i, &s)
	}
	for ; i+4 <= len(x); i += 4 {
		s[0] += float64(x[i]) * float64(y[i])
		s[1] += float64(x[i+1]) * float64(y[i+1])
		s[2] += float64(x[i+2]) * float64(y[i+2])
		s[3] += float64(x[i+3]) * float64(y[i+3])
	}
	for ; i < len(x); i++ {
		s[0] += float64(x[i]) * float64(y[i])
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}
