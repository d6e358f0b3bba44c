package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAccumulateAssembly checks the float32 assembly path of Accumulate
// against the scalar loop bit for bit (non-binary values, repeated
// indices, widths with and without a tail, no terms).
func TestAccumulateAssembly(t *testing.T) {
	const ld = 300
	src := make([]float32, 50*ld)
	for i := range src {
		src[i] = float32(math.Sin(float64(i)*0.37) * 3)
	}
	for _, tc := range []struct {
		idx    []int32
		lo, hi int
	}{
		{[]int32{3, 7, 7, 49, 0}, 0, 64},
		{[]int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 10, 300},
		{[]int32{44}, 236, 300},
		{nil, 0, 128},
		{[]int32{5, 2}, 5, 70},
		{[]int32{9, 3, 9}, 0, 50},
	} {
		val := make([]float32, len(tc.idx))
		for k := range val {
			val[k] = float32(0.3 + 0.77*float64(k))
		}
		got := make([]float32, tc.hi-tc.lo)
		for i := range got {
			got[i] = 99 // must be overwritten
		}
		Accumulate(tc.idx, val, src, ld, tc.lo, tc.hi, got)
		// The same row term by term with AddScaled from a cleared row
		// (the column-ordered sparse product) gives the same bits.
		byTerm := make([]float32, tc.hi-tc.lo)
		for k, c := range tc.idx {
			AddScaled(val[k], src[int(c)*ld+tc.lo:int(c)*ld+tc.hi], byTerm)
		}
		for j := range got {
			if math.Float32bits(byTerm[j]) != math.Float32bits(got[j]) {
				t.Fatalf("%v [%d,%d) column %d: AddScaled term by term %v, Accumulate %v", tc.idx, tc.lo, tc.hi, tc.lo+j, byTerm[j], got[j])
			}
		}
		for j := range got {
			var want float32
			for k, c := range tc.idx {
				want += float32(val[k] * src[int(c)*ld+tc.lo+j])
			}
			if math.Float32bits(got[j]) != math.Float32bits(want) {
				t.Fatalf("%v [%d,%d) column %d: %v, want %v", tc.idx, tc.lo, tc.hi, tc.lo+j, got[j], want)
			}
		}
	}
}

// TestReluAssembly checks Relu's AVX path against the scalar rule on
// negatives, positives, ±0, NaN and ±Inf, with a tail.
func TestReluAssembly(t *testing.T) {
	nan := float32(math.NaN())
	in := []float32{-1, 2, float32(math.Copysign(0, -1)), 0, nan, float32(math.Inf(-1)), float32(math.Inf(1)), -1e-30, 3, -4, 5}
	x := append([]float32(nil), in...)
	Relu(x)
	for i, v := range in {
		want := v
		if v < 0 {
			want = 0
		}
		if math.Float32bits(x[i]) != math.Float32bits(want) {
			t.Errorf("relu(%v) = %v, want %v", v, x[i], want)
		}
	}
}

// TestReluMaskAssembly: the assembly gives g·m(x) bit for bit as the
// scalar formula (m = 1 for x ≥ 0, else 0), on special values (−0, NaN,
// ±Inf, tiny) in every lane position and on the scalar tail.
func TestReluMaskAssembly(t *testing.T) {
	nan := float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	special := []float32{-1, 2, negZero, 0, nan, float32(math.Inf(-1)), float32(math.Inf(1)), -1e-30, 3, -4, 5, 1e-38, -7}
	rng := rand.New(rand.NewPCG(5, 1))
	for _, n := range []int{1, 7, 8, 13, 64, 67} {
		x, g := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], g[i] = special[rng.IntN(len(special))], special[rng.IntN(len(special))]
		}
		for _, grad := range []bool{false, true} {
			src := x
			if grad {
				src = g
			}
			out := make([]float32, n)
			ReluMask(x, src, out)
			for i := range out {
				m := float32(0)
				if x[i] >= 0 {
					m = 1
				}
				if want := src[i] * m; math.Float32bits(out[i]) != math.Float32bits(want) {
					t.Fatalf("n %d, element %d: ReluMask(x=%v, g=%v) = %v (bits %x), want %v (bits %x)", n, i, x[i], src[i], out[i], math.Float32bits(out[i]), want, math.Float32bits(want))
				}
			}
		}
	}
}

// TestAddScaleDotAssembly: Add, Scale and Dot4 give the scalar loops'
// bits (written out here) on random and special values, every length up
// to 70 (lane positions and tails), Add also in place.
func TestAddScaleDotAssembly(t *testing.T) {
	nan := float32(math.NaN())
	special := []float32{-1, 2, float32(math.Copysign(0, -1)), 0, nan, float32(math.Inf(1)), -1e-30, 3e38, 1e-38, 0.1, -7.25}
	rng := rand.New(rand.NewPCG(9, 2))
	val := func() float32 {
		if rng.IntN(4) == 0 {
			return special[rng.IntN(len(special))]
		}
		return float32(rng.NormFloat64())
	}
	same := func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b }
	for n := 0; n <= 70; n++ {
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = val(), val()
		}
		dst := make([]float32, n)
		Add(x, y, dst)
		in := append([]float32(nil), x...)
		Add(in, y, in)
		sc := append([]float32(nil), x...)
		a := val()
		Scale(a, sc)
		for i := range x {
			if want := x[i] + y[i]; !same(dst[i], want) || !same(in[i], want) {
				t.Fatalf("n %d: Add element %d: %v (in place %v), want %v", n, i, dst[i], in[i], want)
			}
			if want := x[i] * a; !same(sc[i], want) {
				t.Fatalf("n %d: Scale(%v) element %d: %v, want %v", n, a, i, sc[i], want)
			}
		}
		// Dot4 on finite values: the four interleaved float64 sums.
		for i := range x {
			x[i], y[i] = float32(rng.NormFloat64()*1e3), float32(rng.NormFloat64())
		}
		var s [4]float64
		i := 0
		for ; i+4 <= n; i += 4 {
			for j := range 4 {
				s[j] += float64(x[i+j]) * float64(y[i+j])
			}
		}
		for ; i < n; i++ {
			s[0] += float64(x[i]) * float64(y[i])
		}
		if got, want := Dot4(x, y), (s[0]+s[1])+(s[2]+s[3]); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n %d: Dot4 = %v, want %v", n, got, want)
		}
	}
}
