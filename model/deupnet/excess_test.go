package deupnet

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExcessLink fits the excess link on squared residuals drawn from a
// known total error, r = e·z², z ~ N(0, 1). The table's cases: (1) the
// σ path s right where it is above the noise a = 1 and below it at the
// s < a pairs whose true error is a + 0.3 (the crossing of issue 29's
// zeros): the fit must give u > 0 on every pair, at least a third of the
// true 0.3 where s ≤ a, and beat the hard split max(s − a, 0) (τ → 0,
// c = 1) in likelihood; (2) a σ path twice too large everywhere (e = s/2
// + ... ): c must come out near ½ (the link rescales the σ path where it
// is well above the noise).
func TestExcessLink(t *testing.T) {
	const n = 4000
	for _, c := range []struct {
		name  string
		truth func(s float64) float64 // true e for σ-path s
		wantC float64
		a     float64
		rep   replicates
	}{
		{"crossing", func(s float64) float64 { return max(s, 1.3) }, 1, 1, replicates{1000, 1000}},
		{"sigma path 2x", func(s float64) float64 { return max(s/2, 1) + 0.2 }, 0.5, 1, replicates{1000, 1000}},
		{"noise overestimated", func(s float64) float64 { return max(s, 1.1) }, 1, 2, replicates{16, 16}},
	} {
		rng := rand.New(rand.NewPCG(29, 1))
		r, s, a := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range r {
			s[i] = 0.2 + 5.8*rng.Float64()
			if c.wantC == 0.5 {
				s[i] *= 2
			}
			a[i] = c.a
			z := rng.NormFloat64()
			r[i] = c.truth(s[i]) * z * z
		}
		f := fitExcessLink(r, s, a, c.rep)
		lc, tau, lam := f.C, f.Tau, f.Lambda
		nll := func(u func(i int) float64) float64 {
			l := 0.0
			for i := range r {
				e := a[i] + u(i)
				l += math.Log(e) + r[i]/e
			}
			return l / n
		}
		fit := nll(func(i int) float64 { return (lam-1)*a[i] + excessU(lc, tau, s[i], lam*a[i]) })
		hard := nll(func(i int) float64 { return max(s[i]-a[i], 1e-12) })
		minU, lowU, nLow := math.Inf(1), 0.0, 0
		for i := range r {
			u := excessU(lc, tau, s[i], lam*a[i])
			minU = min(minU, u)
			if lc*s[i] <= lam*a[i] {
				lowU += u
				nLow++
			}
		}
		t.Logf("%s: λ %.3f, c %.3f, τ %.3f; min u %.3g; mean u where c·s ≤ a %.3g (%d pairs); NLL fit %.4f, hard split %.4f", c.name, lam, lc, tau, minU, lowU/float64(max(nLow, 1)), nLow, fit, hard)
		if !(minU > 0) {
			t.Errorf("%s: u = %v somewhere, want > 0 everywhere", c.name, minU)
		}
		if !(fit < hard) {
			t.Errorf("%s: NLL %v at the fit, %v with the hard positive part", c.name, fit, hard)
		}
		if math.Abs(lc-c.wantC) > 0.15*c.wantC {
			t.Errorf("%s: c = %v, want %v ± 15 %%", c.name, lc, c.wantC)
		}
		if c.a == 1 && math.Abs(lam-1) > 0.05 {
			t.Errorf("%s: λ = %v with replicates agreeing with a, want 1 ± 5 %%", c.name, lam)
		}
		if c.a == 2 && !(lam < 0.75) {
			t.Errorf("%s: λ = %v, want < 0.75 (residuals below the replicates' noise)", c.name, lam)
		}
		if c.name == "crossing" && nLow > 0 && !(lowU/float64(nLow) > 0.1) {
			t.Errorf("%s: mean u %v where s ≤ a, true 0.3", c.name, lowU/float64(nLow))
		}
	}
}
