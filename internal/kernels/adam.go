package kernels

import "math"

// AdamKernel is one Adam step with L2 weight decay added to the gradient
// (PyTorch's Adam with weight_decay) on a slice of parameters:
//
//	g ← g + wd·w; m ← β1 m + (1−β1) g; v ← β2 v + (1−β2) g²;
//	w ← w − step · m / (√v·rbc2 + ε)
//
// with β1 = 0.9, β2 = 0.999, ε = 1e-8, step = lr/(1−β1^t) and
// rbc2 = 1/√(1−β2^t) for step count t. Every product and sum is rounded
// to T on its own (the explicit conversions forbid fused multiply-adds),
// so Adam32's assembly reproduces it bit for bit. g is not modified.
func AdamKernel[T float32 | float64](w, g, m, v []T, step, wd, rbc2 T) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	for i := range w {
		gi := g[i] + T(wd*w[i])
		mi := T(b1*m[i]) + T((1-b1)*gi)
		vi := T(b2*v[i]) + T(T((1-b2)*gi)*gi)
		m[i], v[i] = mi, vi
		w[i] -= T(step*mi) / (T(sqrt(vi)*rbc2) + eps)
	}
}

// Adam32 is AdamKernel on float32, eight lanes at a time with AVX where
// the CPU has it (identical results, about 5× faster: the scalar loop is
// bound by the latency of its square root and division).
func Adam32(w, g, m, v []float32, step, wd, rbc2 float32) {
	n := 0
	if haveAVX {
		n = len(w) &^ 7
		if n > 0 {
			c := [8]float32{wd, 0.9, 1 - 0.9, 0.999, 1 - 0.999, step, rbc2, 1e-8}
			adamAVX(&w[0], &g[0], &m[0], &v[0], n, &c)
		}
	}
	AdamKernel(w[n:], g[n:len(w)], m[n:len(w)], v[n:len(w)], step, wd, rbc2)
}

func sqrt[T float32 | float64](x T) T { return T(math.Sqrt(float64(x))) }
