package deupnet

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/deup-screening/deup/drugcomb"
)

// TestTrigamma checks ψ′ against closed forms: ψ′(1) = π²/6 and ψ′(1/2) =
// π²/2 (Abramowitz & Stegun 6.4.2, 6.4.4), ψ′(10) = π²/6 − Σ_{k=1}^{9}
// 1/k² (the recurrence 6.4.6), and that trigammaInverse inverts it.
func TestTrigamma(t *testing.T) {
	s9 := 0.0
	for k := 1.0; k <= 9; k++ {
		s9 += 1 / (k * k)
	}
	for _, c := range []struct{ x, want float64 }{
		{1, math.Pi * math.Pi / 6},
		{0.5, math.Pi * math.Pi / 2},
		{10, math.Pi*math.Pi/6 - s9},
	} {
		if got := trigamma(c.x); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("trigamma(%v) = %.12g, want %.12g", c.x, got, c.want)
		}
	}
	for _, x := range []float64{0.05, 0.5, 1, 7, 300} {
		if got := trigammaInverse(trigamma(x)); math.Abs(got-x) > 1e-7*x {
			t.Errorf("trigammaInverse(trigamma(%v)) = %v", x, got)
		}
	}
}

// TestSqueezeVar checks Smyth's (2004) moment estimator on hand-made
// variances. With s = 1, 2, 4 on 2 df each, e_k = log s_k − ψ(1) + log 1 =
// log s_k + γ, so var(e) = (log 2)² = 0.48 < ψ′(1) = 1.64: d0 = ∞ (0 here)
// and s0² = exp(mean e) = 2·e^γ. With s = 0.01, 1, 100 the excess variance
// v = (log 100)² − ψ′(1) is positive: d0/2 solves ψ′(d0/2) = v and log s0²
// = γ + ψ(d0/2) − log(d0/2). Fewer than three variances give the pooled
// one.
func TestSqueezeVar(t *testing.T) {
	const gamma = 0.5772156649015329
	s0, d0 := squeezeVar([]float64{1, 2, 4}, []float64{2, 2, 2}, 7)
	if d0 != 0 || math.Abs(s0-2*math.Exp(gamma)) > 1e-9 {
		t.Errorf("1,2,4: s0² %v, d0 %v; want %v, ∞ (0)", s0, d0, 2*math.Exp(gamma))
	}
	s0, d0 = squeezeVar([]float64{0.01, 1, 100}, []float64{2, 2, 2}, 7)
	v := math.Pow(math.Log(100), 2) - math.Pi*math.Pi/6
	if math.Abs(trigamma(d0/2)-v) > 1e-6*v {
		t.Errorf("0.01,1,100: ψ′(d0/2) = %v, want %v", trigamma(d0/2), v)
	}
	if want := math.Exp(gamma + mathext.Digamma(d0/2) - math.Log(d0/2)); math.Abs(s0-want) > 1e-9*want {
		t.Errorf("0.01,1,100: s0² %v, want %v", s0, want)
	}
	if s0, d0 = squeezeVar([]float64{1, 3}, []float64{1, 1}, 2); s0 != 2 || d0 != 0 {
		t.Errorf("two variances: s0² %v, d0 %v; want the pooled 2, ∞", s0, d0)
	}
	if got := moderated(2, 4, 10, 1); got != (4*2+10)/5.0 {
		t.Errorf("moderated(2, 4, 10, 1) = %v, want 3.6", got)
	}
}

// TestFitAleatoricNoCliff: one replicated pair is enough for an estimate
// (the old rule needed 30), drugs are found by their bits in another
// feature matrix, and a screen without replicates gets none.
func TestFitAleatoricNoCliff(t *testing.T) {
	d := sigmaToy() // drugs A{0,1} B{1,2} C{3} D{0,1}; pairs AB BC AC DC AA
	d.N = []int{3, 1, 1, 1, 1}
	d.Var = []float64{8, math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	all := []int{0, 1, 2, 3, 4}
	a := fitAleatoric(d, all, 2) // standardized: 8/2² = 2
	if a == nil {
		t.Fatal("one replicated pair: no estimate")
	}
	// Two drugs have replicates (< 3): s0² is the pooled 2, d0 = ∞, and
	// every drug and every pair has it; RepN = (3+1+1+1+1)/5.
	if a.Pairs != 1 || a.DF != 2 || a.S0 != 2 || a.PriorDF != 0 || math.Abs(a.RepN-1.4) > 1e-12 {
		t.Errorf("got pairs %d df %v s0² %v d0 %v repN %v; want 1, 2, 2, 0, 1.4", a.Pairs, a.DF, a.S0, a.PriorDF, a.RepN)
	}
	c := a.context()
	for _, p := range [][2]int{{0, 1}, {2, 3}, {3, 3}} {
		if got := c.pair(d.Features, p[0], p[1], 0); got != 2 {
			t.Errorf("a(%v) = %v, want 2", p, got)
		}
	}
	// Three drugs with replicates: pairs AB (s² 2, 2 df) and BC (s² 0.5,
	// 1 df) and DC (s² 8, 1 df; D has A's bits): A pools AB and DC, B pools
	// AB and BC, C pools BC and DC.
	d.N = []int{3, 2, 1, 2, 1}
	d.Var = []float64{2, 0.5, math.NaN(), 8, math.NaN()}
	a = fitAleatoric(d, all, 1)
	sA, sB, sC := (2*2+8)/3.0, (2*2+0.5)/3.0, (0.5+8)/2.0
	s0, d0 := squeezeVar([]float64{sA, sB, sC}, []float64{3, 3, 2}, (2*2+0.5+8)/4)
	c = a.context()
	want := []float64{moderated(s0, d0, sA, 3), moderated(s0, d0, sB, 3), moderated(s0, d0, sC, 2), moderated(s0, d0, sA, 3)}
	for g, w := range want {
		if got := c.drug(d.Features, g, 0); math.Abs(got-w) > 1e-12 {
			t.Errorf("drug %d: s̃² %v, want %v", g, got, w)
		}
	}
	if got := c.pair(d.Features, 0, 2, 0); math.Abs(got-(want[0]+want[2])/2) > 1e-12 {
		t.Errorf("a(A, C) = %v, want the mean of the two drugs' %v", got, (want[0]+want[2])/2)
	}
	d.N = []int{1, 1, 1, 1, 1}
	if a := fitAleatoric(d, all, 1); a != nil {
		t.Errorf("no replicates: got an estimate %+v", a)
	}
}

// TestNoveltySplit: the moved pairs are exactly the training pairs of the
// held-out drugs, at least the share asked for and at most half; the same
// seed gives the same split; frac ≤ 0 changes nothing.
func TestNoveltySplit(t *testing.T) {
	tp := makeToy(1, 20, 32, 4, 0.1)
	sp := drugcomb.SplitRandom(len(tp.d.Pairs), [3]float64{0.5, 0.25, 0.25}, 1)
	for _, frac := range []float64{0.1, 0.15, 0.3} {
		got := noveltySplit(tp.d, sp, frac, 7)
		again := noveltySplit(tp.d, sp, frac, 7)
		if len(got.Train) != len(again.Train) || len(got.Val) != len(again.Val) {
			t.Fatalf("frac %v: not deterministic", frac)
		}
		moved := len(sp.Train) - len(got.Train)
		if len(got.Val) != len(sp.Val)+moved || moved < int(frac*float64(len(sp.Train))+0.5) || 2*moved > len(sp.Train) {
			t.Errorf("frac %v: moved %d of %d training pairs", frac, moved, len(sp.Train))
		}
		inTrain := map[int]bool{}
		for _, i := range got.Train {
			inTrain[tp.d.Pairs[i].A], inTrain[tp.d.Pairs[i].B] = true, true
		}
		kept := map[int]bool{}
		for _, i := range got.Train {
			kept[i] = true
		}
		for _, i := range sp.Train {
			p := tp.d.Pairs[i]
			if !kept[i] && inTrain[p.A] && inTrain[p.B] {
				t.Errorf("frac %v: moved pair %d (%d, %d) has two drugs still in training", frac, i, p.A, p.B)
			}
		}
	}
	if got := noveltySplit(tp.d, sp, -1, 7); len(got.Train) != len(sp.Train) {
		t.Errorf("frac -1 moved pairs")
	}
}

// TestNoveltySlope checks the fit of z = r/r̄₀ − 1 ≈ β₁ν + β₂ν² by hand.
// ν = 0, 0, 1, 2 with r = 1, 3, 4, 6: r̄₀ = 2, z = 1, 2 at ν = 1, 2, fit
// exactly by β = (1, 0). r = 2, 2, 4, 12: z = 1, 5, fit exactly only by
// β = (−1/2, 3/2), infeasible; of the one-term fits β₁ = Σνz/Σν² = 11/5
// (squared error 1.8) and β₂ = Σν²z/Σν⁴ = 21/17 (0.059) the second wins.
// Errors that fall with ν give 0; without a pair at ν = 0 there is no
// reference (0).
func TestNoveltySlope(t *testing.T) {
	for _, c := range []struct {
		name  string
		nu, r []float64
		beta  [2]float64
		r0    float64
	}{
		{"linear", []float64{0, 0, 1, 2}, []float64{1, 3, 4, 6}, [2]float64{1, 0}, 2},
		{"quadratic", []float64{0, 0, 1, 2}, []float64{2, 2, 4, 12}, [2]float64{0, 21.0 / 17}, 2},
		{"falling", []float64{0, 1}, []float64{4, 1}, [2]float64{0, 0}, 4},
		{"no reference", []float64{1, 2}, []float64{4, 1}, [2]float64{0, 0}, 0},
	} {
		beta, r0 := fitNoveltySlope(c.nu, c.r)
		if math.Abs(beta[0]-c.beta[0]) > 1e-12 || math.Abs(beta[1]-c.beta[1]) > 1e-12 || math.Abs(r0-c.r0) > 1e-12 {
			t.Errorf("%s: β %v r̄₀ %v, want %v %v", c.name, beta, r0, c.beta, c.r0)
		}
	}
}

// TestNoveltyNu: ν = (1 − T_a) + (1 − T_b) against the reference drugs of
// sigmaToy's pair (A, A), i.e. {A}: A and D (A's bits) are measured (0), C
// {3} shares no bit with A {0,1} (1), B {1,2} one of three (T = 1/3: 2/3);
// so ν(A, D) = 0, ν(A, C) = 1, ν(C, C) = 1 (a drug with itself counts
// once), ν(B, A) = 2/3.
func TestNoveltyNu(t *testing.T) {
	d := sigmaToy()
	c := newNoveltyCtx(noveltyRef(d, []int{4}), 8)
	for _, x := range []struct {
		a, b int
		want float64
	}{{0, 3, 0}, {0, 2, 1}, {2, 2, 1}, {1, 0, 2.0 / 3}} {
		if got := c.pair(d.Features, x.a, x.b); math.Abs(got-x.want) > 1e-12 {
			t.Errorf("ν(%d, %d) = %v, want %v", x.a, x.b, got, x.want)
		}
	}
}

// TestFitAleatoricLines: with several cell lines the pooling has a level
// per line (aleatoric's doc): the replicates of lines 0 and 2 have
// variance 1, those of lines 1 and 3 variance 9, line 4 has none, so a
// pair's a(x) follows its line and line 4's is s0²; the same screen as
// one line (LineNames empty) has no line level.
func TestFitAleatoricLines(t *testing.T) {
	tp := linesToy(5)
	d := tp.d
	rng := rand.New(rand.NewPCG(29, 3))
	np := len(d.Pairs) / 5
	for i := range d.Pairs {
		d.N[i], d.Var[i] = 1, math.NaN()
		// Lines 0–3 replicate 60 % of their pairs (sd 1, 3, 1, 3); line
		// 4 none.
		if l := d.Pairs[i].Line; l < 4 && rng.Float64() < 0.6 {
			sd := []float64{1, 3, 1, 3}[l]
			n := 2 + rng.IntN(3)
			xs := make([]float64, n)
			m := 0.0
			for k := range xs {
				xs[k] = sd * rng.NormFloat64()
				m += xs[k] / float64(n)
			}
			v := 0.0
			for _, x := range xs {
				v += (x - m) * (x - m) / float64(n-1)
			}
			d.N[i], d.Var[i] = n, v
		}
	}
	all := make([]int, len(d.Pairs))
	for i := range all {
		all[i] = i
	}
	a := fitAleatoric(d, all, 1)
	if len(a.LineVar) != 5 {
		t.Fatalf("%d line variances, want 5", len(a.LineVar))
	}
	t.Logf("s0² %.3f, line variances %.3g (prior df %.3g), drug prior df %.3g", a.S0, a.LineVar, a.LinePriorDF, a.PriorDF)
	c := a.context()
	mean := func(l int) float64 {
		s := 0.0
		for _, p := range d.Pairs[l*np : (l+1)*np] {
			s += c.pair(d.Features, p.A, p.B, l)
		}
		return s / float64(np)
	}
	// Means of the pairs' a(x) per line: near the line's truth (1 or 9),
	// line 4 (no replicates) at s0², between the two.
	for l, want := range []float64{1, 9, 1, 9} {
		if m := mean(l); m < 0.6*want || m > 1.5*want {
			t.Errorf("line %d: mean a(x) %.3f, want about %g", l, m, want)
		}
	}
	m0, m1, m2 := mean(0), mean(1), mean(4)
	if math.Abs(m2-a.S0) > 1e-12 || !(a.S0 > m0 && a.S0 < m1) {
		t.Errorf("line without replicates: mean a(x) %v, s0² %v (lines %v, %v)", m2, a.S0, m0, m1)
	}
	// A saved model file round-trips the line level.
	if err := a.check(0); err != nil {
		t.Errorf("check: %v", err)
	}
	// One line: no line level.
	d.LineNames = nil
	if b := fitAleatoric(d, all, 1); len(b.LineVar) != 0 || len(b.DrugLine) != 0 {
		t.Errorf("one line: line level %v %v", b.LineVar, b.DrugLine)
	}
}
