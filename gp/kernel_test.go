package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var families = []Family{RBF, Matern12, Matern32, Matern52}

// TestKernelValues checks k at scaled distance r against the textbook forms
// (R&W 2006, eq. 4.9 and 4.17), evaluated here by hand: x = (0, 0),
// y = (0.3, 0.4), lengthscale 0.5, so r = 1, and signal variance 2.
func TestKernelValues(t *testing.T) {
	s3, s5 := math.Sqrt(3), math.Sqrt(5)
	want := map[Family]float64{
		RBF:      2 * math.Exp(-0.5),
		Matern12: 2 * math.Exp(-1),
		Matern32: 2 * (1 + s3) * math.Exp(-s3),
		Matern52: 2 * (1 + s5 + 5.0/3) * math.Exp(-s5),
	}
	for _, f := range families {
		t.Run(f.String(), func(t *testing.T) {
			k := NewKernel(f, 2, 0.5)
			if got := k.Eval([]float64{0, 0}, []float64{0.3, 0.4}); math.Abs(got-want[f]) > 1e-14 {
				t.Errorf("k = %.16g, want %.16g", got, want[f])
			}
			if got := k.Eval([]float64{1, 1}, []float64{1, 1}); math.Abs(got-2) > 1e-14 {
				t.Errorf("k(x, x) = %g, want 2", got)
			}
			// ARD with equal lengthscales equals isotropic.
			a := NewARDKernel(f, 2, []float64{0.5, 0.5})
			if got := a.Eval([]float64{0, 0}, []float64{0.3, 0.4}); math.Abs(got-want[f]) > 1e-14 {
				t.Errorf("ARD k = %.16g, want %.16g", got, want[f])
			}
		})
	}
}

func TestKernelGradientsFiniteDifference(t *testing.T) {
	x := []float64{0.1, -0.4, 0.7}
	y := []float64{0.5, 0.2, -0.1}
	for _, f := range families {
		for _, ard := range []bool{false, true} {
			name := f.String()
			if ard {
				name += "/ard"
			}
			t.Run(name, func(t *testing.T) {
				k := NewKernel(f, 1.7, 0.9)
				if ard {
					k = NewARDKernel(f, 1.7, []float64{0.5, 1.2, 2.0})
				}
				dp := make([]float64, k.NumParams())
				v := k.GradParams(dp, x, y)
				if math.Abs(v-k.Eval(x, y)) > 1e-15 {
					t.Errorf("GradParams value %g != Eval %g", v, k.Eval(x, y))
				}
				checkGrad(t, func(p []float64) float64 {
					kk := k.Clone()
					kk.SetParams(p)
					return kk.Eval(x, y)
				}, k.Params(nil), dp, 1e-6)
				dx := make([]float64, 3)
				k.GradX(dx, x, y)
				checkGrad(t, func(xx []float64) float64 { return k.Eval(xx, y) }, x, dx, 1e-6)
				// Gradient at coincident points is zero (a subgradient for Matern-1/2).
				k.GradX(dx, x, x)
				k.GradParams(dp, x, x)
				for i, g := range dx {
					if g != 0 {
						t.Errorf("dk/dx[%d] at x = y: %g", i, g)
					}
				}
				if math.Abs(dp[0]-1.7) > 1e-14 {
					t.Errorf("dk/dlogvar at x = y: %g, want 1.7", dp[0])
				}
				for i, g := range dp[1:] {
					if g != 0 {
						t.Errorf("dk/dlogl[%d] at x = y: %g", i, g)
					}
				}
			})
		}
	}
}

// TestKernelPSD: the covariance matrix of 40 random points (with some
// duplicated) has no eigenvalue below -1e-12 times its largest.
func TestKernelPSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X := mat.NewDense(40, 3, nil)
	for i := 0; i < 40; i++ {
		for j := 0; j < 3; j++ {
			if i >= 35 {
				X.Set(i, j, X.At(i-35, j)) // duplicates
				continue
			}
			X.Set(i, j, rng.NormFloat64())
		}
	}
	for _, f := range families {
		for _, ls := range []float64{0.1, 1, 10} {
			t.Run(f.String(), func(t *testing.T) {
				K := NewARDKernel(f, 1.5, []float64{ls, 2 * ls, 0.5 * ls}).SymMatrix(X)
				var es mat.EigenSym
				if !es.Factorize(K, false) {
					t.Fatal("eigendecomposition failed")
				}
				ev := es.Values(nil)
				if ev[0] < -1e-12*ev[len(ev)-1] {
					t.Errorf("lengthscale %g: smallest eigenvalue %g (largest %g)", ls, ev[0], ev[len(ev)-1])
				}
				// Symmetric and consistent with Matrix.
				D := NewARDKernel(f, 1.5, []float64{ls, 2 * ls, 0.5 * ls}).Matrix(X, X)
				if !mat.EqualApprox(D, K, 1e-15) {
					t.Error("Matrix(X, X) != SymMatrix(X)")
				}
			})
		}
	}
}

func TestParseFamily(t *testing.T) {
	cases := []struct {
		in   string
		want Family
		ok   bool
	}{
		{"rbf", RBF, true}, {"Matern-1/2", Matern12, true}, {"matern32", Matern32, true},
		{"MATERN_5/2", Matern52, true}, {"matern72", 0, false}, {"", 0, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseFamily(c.in)
			if (err == nil) != c.ok || (c.ok && got != c.want) {
				t.Errorf("ParseFamily(%q) = %v, %v", c.in, got, err)
			}
			if c.ok {
				if back, err := ParseFamily(got.String()); err != nil || back != got {
					t.Errorf("round trip of %v: %v, %v", got, back, err)
				}
			}
		})
	}
}
