package nn

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// svdMax is the largest singular value of the in×out matrix w (gonum's
// SVD, the reference).
func svdMax[T float32 | float64](t *testing.T, w []T, in, out int) float64 {
	t.Helper()
	d := make([]float64, len(w))
	for i, v := range w {
		d[i] = float64(v)
	}
	var svd mat.SVD
	if !svd.Factorize(mat.NewDense(in, out, d), mat.SVDNone) {
		t.Fatal("svd failed")
	}
	return svd.Values(nil)[0]
}

func randWeights(rng *rand.Rand, n int, gain float64) []float32 {
	w := make([]float32, n)
	for i := range w {
		w[i] = float32((2*rng.Float64() - 1) * gain)
	}
	return w
}

// runGraph compiles g and runs it once, failing the test on error.
func runGraph(t *testing.T, g *G.ExprGraph) {
	t.Helper()
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
}

// TestSpectralNormSigma: the power-iteration estimate, one iteration per
// training-mode run of the graph op as in training, converges to the
// largest singular value from gonum's SVD; W_sn then has largest singular
// value Coeff (DUE's soft bound), and a matrix already below the bound is
// left unchanged.
func TestSpectralNormSigma(t *testing.T) {
	cases := []struct {
		name       string
		in, out    int
		gain       float64
		coeff      float64
		wantScaled bool
	}{
		{"tall, coeff 0.95", 40, 30, 2, 0.95, true},
		{"wide", 10, 60, 1, 0.95, true},
		{"coeff 3", 40, 30, 2, 3, true},
		{"already small", 40, 30, 0.01, 0.95, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			w := randWeights(rng, c.in*c.out, c.gain)
			sn := NewSpectralNorm(w, c.in, c.out, c.coeff, rng)
			sn.Train = true
			g := G.NewGraph()
			wN := G.NewMatrix(g, tensor.Float32, G.WithShape(c.in, c.out), G.WithValue(tensor.New(tensor.WithShape(c.in, c.out), tensor.WithBacking(w))))
			out, err := applySpectralNorm(sn, wN)
			if err != nil {
				t.Fatal(err)
			}
			var outV G.Value
			G.Read(out, &outV)
			vm := G.NewTapeMachine(g)
			defer vm.Close()
			for step := 0; step < 50; step++ {
				vm.Reset()
				if err := vm.RunAll(); err != nil {
					t.Fatal(err)
				}
			}
			truth := svdMax(t, w, c.in, c.out)
			// Power iteration converges like (s2/s1)^(2k) and u^T W v
			// never exceeds s1 (float32 storage: relative 1e-5).
			if math.Abs(sn.Sigma()-truth) > 1e-4*truth || sn.Sigma() > truth*(1+1e-5) {
				t.Errorf("power-iteration sigma %.7g, SVD %.7g", sn.Sigma(), truth)
			}
			got := svdMax(t, outV.Data().([]float32), c.in, c.out)
			if c.wantScaled {
				if math.Abs(got-c.coeff) > 1e-4*c.coeff {
					t.Errorf("sigma_max(W_sn) = %.7g, want coeff %g", got, c.coeff)
				}
			} else if sn.Scale() != 1 || got != truth {
				t.Errorf("scale %g, sigma_max(W_sn) %g vs W's %g: a matrix below the bound must be unchanged", sn.Scale(), got, truth)
			}
			// Evaluation mode reads the stored u, v: the same sigma.
			sn.Refresh(w)
			if math.Abs(sn.Sigma()-truth) > 1e-4*truth {
				t.Errorf("evaluation sigma %.7g, SVD %.7g", sn.Sigma(), truth)
			}
		})
	}
}

// TestSpectralNormSeeded: the same seed gives the same u, v and sigma; a
// different seed a different u (before convergence).
func TestSpectralNormSeeded(t *testing.T) {
	w := randWeights(rand.New(rand.NewPCG(7, 7)), 20*15, 1)
	a := NewSpectralNorm(w, 20, 15, 0.95, rand.New(rand.NewPCG(1, 1)))
	b := NewSpectralNorm(w, 20, 15, 0.95, rand.New(rand.NewPCG(1, 1)))
	c := NewSpectralNorm(w, 20, 15, 0.95, rand.New(rand.NewPCG(2, 1)))
	if a.Sigma() != b.Sigma() {
		t.Errorf("same seed: sigma %v vs %v", a.Sigma(), b.Sigma())
	}
	for i := range a.U {
		if a.U[i] != b.U[i] {
			t.Fatalf("same seed: u[%d] %v vs %v", i, a.U[i], b.U[i])
		}
	}
	same := true
	for i := range a.U {
		same = same && a.U[i] == c.U[i]
	}
	if same {
		t.Error("different seeds gave the same u")
	}
	off := NewSpectralNorm(w, 20, 15, -1, nil)
	if off.Scale() != 1 || off.U != nil {
		t.Errorf("disabled: scale %v, u %v", off.Scale(), off.U)
	}
	off.PowerIterate(w, 3)
	if off.Scale() != 1 {
		t.Errorf("disabled, after iterating: scale %v", off.Scale())
	}
	off.Refresh(w)
	if off.Scale() != 1 {
		t.Errorf("disabled, after refresh: scale %v", off.Scale())
	}
}

// TestSpectralNormGradient: gorgonia's gradient through the op against
// central finite differences of L(W) = sum(C ⊙ (X W_sn)²) with u and v
// fixed (evaluation mode), in float64, with the bound active and not.
func TestSpectralNormGradient(t *testing.T) {
	for _, c := range []struct {
		name   string
		gain   float64
		active bool
	}{{"bound active", 3, true}, {"bound inactive", 0.01, false}} {
		t.Run(c.name, func(t *testing.T) {
			const in, out, rows = 6, 4, 5
			rng := rand.New(rand.NewPCG(3, 4))
			w32 := randWeights(rng, in*out, c.gain)
			sn := NewSpectralNorm(w32, in, out, 0.95, rng)
			sn.PowerIterate(w32, 20)
			w := make([]float64, in*out)
			for i, v := range w32 {
				w[i] = float64(v)
			}
			X := make([]float64, rows*in)
			C := make([]float64, rows*out)
			for i := range X {
				X[i] = rng.NormFloat64()
			}
			for i := range C {
				C[i] = rng.NormFloat64()
			}
			g := G.NewGraph()
			wN := G.NewMatrix(g, tensor.Float64, G.WithShape(in, out), G.WithValue(tensor.New(tensor.WithShape(in, out), tensor.WithBacking(w))), G.WithName("w"))
			xN := G.NewMatrix(g, tensor.Float64, G.WithShape(rows, in), G.WithValue(tensor.New(tensor.WithShape(rows, in), tensor.WithBacking(X))), G.WithName("x"))
			cN := G.NewMatrix(g, tensor.Float64, G.WithShape(rows, out), G.WithValue(tensor.New(tensor.WithShape(rows, out), tensor.WithBacking(C))), G.WithName("c"))
			sN, err := applySpectralNorm(sn, wN)
			if err != nil {
				t.Fatal(err)
			}
			y := G.Must(G.Mul(xN, sN))
			cost := G.Must(G.Sum(G.Must(G.HadamardProd(G.Must(G.Square(y)), cN))))
			grads, err := G.Grad(cost, wN)
			if err != nil {
				t.Fatal(err)
			}
			runGraph(t, g)
			if (sn.Scale() < 1) != c.active {
				t.Fatalf("scale %v: bound active = %v, want %v", sn.Scale(), sn.Scale() < 1, c.active)
			}
			got := append([]float64(nil), grads[0].Value().Data().([]float64)...)
			loss := func() float64 {
				ws := make([]float64, len(w))
				refresh(sn, w)
				for i, v := range w {
					ws[i] = sn.Scale() * v
				}
				var s float64
				for r := 0; r < rows; r++ {
					for j := 0; j < out; j++ {
						var a float64
						for k := 0; k < in; k++ {
							a += X[r*in+k] * ws[k*out+j]
						}
						s += C[r*out+j] * a * a
					}
				}
				return s
			}
			const h = 1e-6
			for i := range w {
				w0 := w[i]
				w[i] = w0 + h
				fp := loss()
				w[i] = w0 - h
				fm := loss()
				w[i] = w0
				fd := (fp - fm) / (2 * h)
				if math.Abs(fd-got[i]) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("dL/dW[%d]: graph %.9g, finite difference %.9g", i, got[i], fd)
				}
			}
		})
	}
}

// TestExternalLoss: a loss computed outside the graph (here L(x) = sum
// x^3/3 + x, dL/dx = x^2 + 1) back-propagates through the graph:
// gorgonia's gradient with respect to W in x = A W against finite
// differences, in float64; float32 graphs run too; the function's error
// is the run's error.
func TestExternalLoss(t *testing.T) {
	const rows, in, out = 4, 3, 2
	rng := rand.New(rand.NewPCG(5, 6))
	A := make([]float64, rows*in)
	W := make([]float64, in*out)
	for i := range A {
		A[i] = rng.NormFloat64()
	}
	for i := range W {
		W[i] = rng.NormFloat64()
	}
	cubic := func(x []float64, r, c int, dx []float64) (float64, error) {
		if r != rows || c != out {
			return 0, errors.New("bad shape")
		}
		var s float64
		for i, v := range x {
			s += v*v*v/3 + v
			dx[i] = v*v + 1
		}
		return s, nil
	}
	lossOf := func() float64 {
		x := make([]float64, rows*out)
		for r := 0; r < rows; r++ {
			for j := 0; j < out; j++ {
				for k := 0; k < in; k++ {
					x[r*out+j] += A[r*in+k] * W[k*out+j]
				}
			}
		}
		v, _ := cubic(x, rows, out, make([]float64, len(x)))
		return v
	}
	g := G.NewGraph()
	aN := G.NewMatrix(g, tensor.Float64, G.WithShape(rows, in), G.WithValue(tensor.New(tensor.WithShape(rows, in), tensor.WithBacking(A))))
	wN := G.NewMatrix(g, tensor.Float64, G.WithShape(in, out), G.WithValue(tensor.New(tensor.WithShape(in, out), tensor.WithBacking(W))))
	cost, st, err := externalLoss(G.Must(G.Mul(aN, wN)), cubic)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := G.Grad(cost, wN)
	if err != nil {
		t.Fatal(err)
	}
	runGraph(t, g)
	if want := lossOf(); math.Abs(st.value-want) > 1e-12*math.Max(1, math.Abs(want)) || cost.Value().Data().(float64) != st.value {
		t.Errorf("loss %v (node %v), want %v", st.value, cost.Value(), want)
	}
	got := grads[0].Value().Data().([]float64)
	const h = 1e-6
	for i := range W {
		w0 := W[i]
		W[i] = w0 + h
		fp := lossOf()
		W[i] = w0 - h
		fm := lossOf()
		W[i] = w0
		if fd := (fp - fm) / (2 * h); math.Abs(fd-got[i]) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("dL/dW[%d]: graph %.9g, finite difference %.9g", i, got[i], fd)
		}
	}

	// float32, and an error from the function.
	boom := errors.New("boom")
	for _, fail := range []bool{false, true} {
		g := G.NewGraph()
		x := G.NewMatrix(g, tensor.Float32, G.WithShape(rows, out), G.WithValue(tensor.New(tensor.WithShape(rows, out), tensor.WithBacking(make([]float32, rows*out)))))
		fn := cubic
		if fail {
			fn = func([]float64, int, int, []float64) (float64, error) { return 0, boom }
		}
		cost, st, err := externalLoss(x, fn)
		if err != nil {
			t.Fatal(err)
		}
		gx, err := G.Grad(cost, x)
		if err != nil {
			t.Fatal(err)
		}
		vm := G.NewTapeMachine(g)
		err = vm.RunAll()
		vm.Close()
		if fail {
			if err == nil || !errors.Is(st.err, boom) {
				t.Errorf("run error %v (function's %v), want boom", err, st.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range gx[0].Value().Data().([]float32) {
			if v != 1 { // x = 0: dL/dx = 1
				t.Errorf("float32 gradient[%d] = %v, want 1", i, v)
			}
		}
	}
}

// BenchmarkSpectralNorm: one training-mode forward (one power iteration,
// W_sn) and backward of the op on the DUE tower's 2,048×1,024 float32
// weight.
func BenchmarkSpectralNorm(b *testing.B) {
	const in, out = 2048, 1024
	rng := rand.New(rand.NewPCG(1, 1))
	w := randWeights(rng, in*out, 0.05)
	gr := randWeights(rng, in*out, 1)
	sn := NewSpectralNorm(w, in, out, 0.95, rng)
	sn.Train = true
	wt := tensor.New(tensor.WithShape(in, out), tensor.WithBacking(w))
	gt := tensor.New(tensor.WithShape(in, out), tensor.WithBacking(gr))
	fwd, bwd := &spectralOp{sn: sn}, &spectralGradOp{sn: sn}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fwd.Do(wt); err != nil {
			b.Fatal(err)
		}
		if _, err := bwd.Do(wt, gt); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSpectralFusedLayers: SpectralSparseMul and SpectralLinear (s·(X·W),
// gradient in place) give the gradients of the plain composition
// SparseMul/Linear of SpectralNorm (X·W_sn, own tensors) up to float32
// rounding, run after run with changing inputs and weights, in training
// mode (the power iteration advancing in both), with the bound active,
// inactive, and switching between the two.
func TestSpectralFusedLayers(t *testing.T) {
	const dim, hid, out, rows = 12, 8, 5, 4
	rng := rand.New(rand.NewPCG(9, 9))
	X := &CSR{Dim: dim, RowPtr: []int{0}}
	for r := 0; r < 6; r++ {
		for j := 0; j < dim; j++ {
			if rng.Float64() < 0.4 {
				X.Col = append(X.Col, int32(j))
				X.Val = append(X.Val, float32(rng.NormFloat64()))
			}
		}
		X.RowPtr = append(X.RowPtr, len(X.Col))
	}
	w1, w2 := randWeights(rng, dim*hid, 2), randWeights(rng, hid*out, 2)
	type built struct {
		g      *Graph
		x      *SparseBatch
		c      *Tensor
		grads  []*Node
		w1, w2 []float32
		sn     [2]*SpectralNorm
	}
	build := func(shared bool) built {
		// Each graph has its own copy of the weights and normalizations,
		// started from the same seed.
		b := built{w1: append([]float32(nil), w1...), w2: append([]float32(nil), w2...)}
		sn1 := NewSpectralNorm(b.w1, dim, hid, 0.95, rand.New(rand.NewPCG(1, 1)))
		sn2 := NewSpectralNorm(b.w2, hid, out, 0.95, rand.New(rand.NewPCG(2, 1)))
		sn1.Train, sn2.Train = true, true
		b.sn = [2]*SpectralNorm{sn1, sn2}
		g := NewGraph(Float32)
		b.g, b.x = g, NewSparseBatch(rows)
		t1, _ := TensorFrom(b.w1, dim, hid)
		t2, _ := TensorFrom(b.w2, hid, out)
		bias := NewTensor(Float32, 1, out)
		W1, W2, B := g.Matrix("w1", t1), g.Matrix("w2", t2), g.Matrix("b", bias)
		var h, y *Node
		if shared {
			h = g.ReLU(g.SpectralSparseMul(b.x, sn1, W1))
			y = g.SpectralLinear(h, sn2, W2, B)
		} else {
			h = g.ReLU(g.SparseMul(b.x, g.SpectralNorm(sn1, W1), nil))
			y = g.Linear(h, g.SpectralNorm(sn2, W2), B)
		}
		b.c = NewTensor(Float32, rows, out)
		cost := g.Sum(g.HadamardProd(g.Square(y), g.Input("c", b.c)))
		b.grads = g.Grad(cost, W1, W2)
		if err := g.Compile(); err != nil {
			t.Fatal(err)
		}
		return b
	}
	plain, shared := build(false), build(true)
	defer plain.g.Close()
	defer shared.g.Close()
	coeffs := []float64{0.95, 0.95, 100, 100, 0.95, 100, 0.95}
	for run, coeff := range coeffs {
		for _, b := range []built{plain, shared} {
			b.sn[0].Coeff, b.sn[1].Coeff = coeff, coeff
		}
		rowsOf := []int{run % 6, (run + 2) % 6, (run + 3) % 6}
		cv := make([]float32, rows*out)
		for i := range cv {
			cv[i] = float32(rng.NormFloat64())
		}
		for _, b := range []built{plain, shared} {
			b.x.Fill(X, rowsOf)
			copy(b.c.Data().([]float32), cv)
			if err := b.g.Run(); err != nil {
				t.Fatal(err)
			}
		}
		if active := plain.sn[0].Scale() < 1 && plain.sn[1].Scale() < 1; active != (coeff < 1) {
			t.Fatalf("run %d: scales %v, %v with coeff %v", run, plain.sn[0].Scale(), plain.sn[1].Scale(), coeff)
		}
		for k := range plain.grads {
			p, s := plain.grads[k].Value().Data().([]float32), shared.grads[k].Value().Data().([]float32)
			var scale float64
			for _, v := range p {
				scale = math.Max(scale, math.Abs(float64(v)))
			}
			for i := range p {
				if math.Abs(float64(p[i]-s[i])) > 1e-5*scale {
					t.Fatalf("run %d: gradient %d[%d]: fused %v, composed %v", run, k, i, s[i], p[i])
				}
			}
		}
		// A gradient step on both, so that W and sigma change.
		for k, ws := range [][2][]float32{{plain.w1, shared.w1}, {plain.w2, shared.w2}} {
			g := plain.grads[k].Value().Data().([]float32)
			for i := range ws[0] {
				ws[0][i] -= 0.01 * g[i]
				ws[1][i] -= 0.01 * g[i]
			}
		}
	}
}
