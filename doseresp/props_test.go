package doseresp

import (
	"math"
	"testing"
)

// ll4 is drc's LL.4 curve, for generating exact data.
func ll4(b, c, d, e float64) func(float64) float64 {
	return func(x float64) float64 { return Curve{Model: LL4, B: b, C: c, D: d, E: e}.At(x) }
}

// grid builds a block with y[i][j] = f(ConcRow[i], ConcCol[j]).
func grid(rows, cols []float64, f func(xr, xc float64) float64) *Block {
	b := &Block{ID: "t", DrugRow: "A", DrugCol: "B", ConcRow: rows, ConcCol: cols}
	for _, xr := range rows {
		var y, sd []float64
		var n []int
		for _, xc := range cols {
			y = append(y, f(xr, xc))
			sd = append(sd, math.NaN())
			n = append(n, 1)
		}
		b.Response, b.SD, b.N = append(b.Response, y), append(b.SD, sd), append(b.N, n)
	}
	return b
}

func TestFitRecoversLL4(t *testing.T) {
	for _, tc := range []struct {
		name       string
		b, c, d, e float64
	}{
		{"increasing inhibition", -1.5, 0, 90, 2},
		{"steep", -4, 5, 70, 0.5},
		{"nM doses", -1, -10, 100, 300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := ll4(tc.b, tc.c, tc.d, tc.e)
			dose := []float64{0, tc.e / 27, tc.e / 9, tc.e / 3, tc.e, 3 * tc.e, 9 * tc.e, 27 * tc.e}
			y := make([]float64, len(dose))
			for i, x := range dose {
				y[i] = f(x)
			}
			c, err := FitDoseResponse(dose, y, Free())
			if err != nil {
				t.Fatal(err)
			}
			if c.Model != LL4 {
				t.Fatalf("model %s, want LL.4", c.Model)
			}
			for _, p := range [][2]float64{{c.B, tc.b}, {c.C, tc.c}, {c.D, tc.d}, {c.E, tc.e}} {
				if math.Abs(p[0]-p[1]) > 1e-3*math.Max(1, math.Abs(p[1])) {
					t.Errorf("fit %+v, want b=%g c=%g d=%g e=%g", c, tc.b, tc.c, tc.d, tc.e)
					break
				}
			}
		})
	}
}

// Two doses (0 and one more) leave drc's LL.4 self-starter without a slope:
// SynergyFinder falls back to L.4 on ln dose, which fits both points.
func TestFitTwoDosesFallsBackToL4(t *testing.T) {
	c, err := FitDoseResponse([]float64{0, 5}, []float64{0, 40}, Free())
	if err != nil {
		t.Fatal(err)
	}
	if c.Model != L4 {
		t.Fatalf("model %s, want L.4", c.Model)
	}
	if got := c.AtDose(5); math.Abs(got-40) > 0.1 {
		t.Errorf("fit at 5 = %v, want 40", got)
	}
}

func TestHSAAndBlissByHand(t *testing.T) {
	// y00 = 0, row drug alone 20, column drug alone 30, together 50:
	// HSA = 50 − max(20, 30) = 20; Bliss = 50 − (20 + 30 − 20·30/100) = 6.
	m := [][]float64{{0, 30}, {20, 50}}
	if got := HSA(m)[1][1]; got != 20 {
		t.Errorf("HSA = %v, want 20", got)
	}
	if got := Bliss(m)[1][1]; math.Abs(got-6) > 1e-12 {
		t.Errorf("Bliss = %v, want 6", got)
	}
	for _, d := range [][][]float64{HSA(m), Bliss(m)} {
		if d[0][0] != 0 || d[0][1] != 0 || d[1][0] != 0 {
			t.Errorf("single-drug wells not 0: %v", d)
		}
	}
}

var (
	doses  = []float64{0, 0.25, 0.5, 1, 2, 4}
	drugA  = ll4(-1.2, 0, 100, 1)
	drugB  = ll4(-2, 0, 100, 0.8)
	bliss0 = func(xr, xc float64) float64 {
		a, b := drugA(xr), drugB(xc)
		return a + b - a*b/100
	}
)

// Independent effects: Bliss δ is 0 everywhere, and so is ZIP, whose
// row and column refits (c fixed at the other drug's effect, d = 100) are
// exact for drugs with c = 0 and d = 100 (Yadav et al. 2015, eq. 6).
func TestIndependentEffectsScoreZero(t *testing.T) {
	r, err := Score(grid(doses, doses, bliss0), Options{})
	if err != nil {
		t.Fatal(err)
	}
	bl, zp := r.Surface("bliss").Wells, r.Surface("zip").Wells
	for i := range bl {
		for j := range bl[i] {
			if math.Abs(bl[i][j]) > 1e-9 {
				t.Errorf("Bliss[%d][%d] = %v, want 0", i, j, bl[i][j])
			}
			if math.Abs(zp[i][j]) > 1e-2 {
				t.Errorf("ZIP[%d][%d] = %v, want 0", i, j, zp[i][j])
			}
		}
	}
}

// A drug combined with itself is Loewe-additive: y(x1, x2) = f(x1 + x2)
// gives δ = 0 (Loewe 1953; the sham combination).
func TestShamCombinationLoeweZero(t *testing.T) {
	r, err := Score(grid(doses, doses, func(xr, xc float64) float64 { return drugA(xr + xc) }), Options{})
	if err != nil {
		t.Fatal(err)
	}
	lw := r.Surface("loewe")
	for i := range lw.Wells {
		for j := range lw.Wells[i] {
			if math.Abs(lw.Wells[i][j]) > 1e-3 {
				t.Errorf("Loewe[%d][%d] = %v, want 0", i, j, lw.Wells[i][j])
			}
		}
	}
	if lw.Fallbacks != 0 {
		t.Errorf("%d Loewe fallbacks, want 0", lw.Fallbacks)
	}
	// The same drug twice: both fits and IC50s agree, CSS row = col.
	if s := r.Summary; math.Abs(s.IC50Row-s.IC50Col) > 1e-6 || math.Abs(s.RIRow-s.RICol) > 1e-3 || math.Abs(s.CSSRow-s.CSSCol) > 1e-3 {
		t.Errorf("sham summary not symmetric: %+v", s)
	}
}

// Sensitivity's closed form is the mean height of the fitted curve over
// log10 dose: compare with Simpson's rule on the same curve.
func TestSensitivityIsMeanHeight(t *testing.T) {
	for _, tc := range []struct{ b, c, d, e float64 }{{-1.2, 0, 100, 1}, {-3, 10, 60, 0.3}, {0.8, -5, 40, 2}} {
		f := ll4(tc.b, tc.c, tc.d, tc.e)
		dose := []float64{0.1, 0.3, 1, 3, 10}
		y := make([]float64, len(dose))
		for i, x := range dose {
			y[i] = f(x)
		}
		lo, hi := math.Log10(0.1), math.Log10(10)
		const n = 2000
		h := (hi - lo) / n
		var s float64
		for k := 0; k <= n; k++ {
			w := 2.0
			switch {
			case k == 0 || k == n:
				w = 1
			case k%2 == 1:
				w = 4
			}
			s += w * f(math.Pow(10, lo+float64(k)*h))
		}
		want := s * h / 3 / (hi - lo)
		if got := Sensitivity(dose, y); math.Abs(got-want) > 2e-3 {
			t.Errorf("%+v: Sensitivity = %v, want %v", tc, got, want)
		}
	}
	if got := Sensitivity([]float64{0, 5}, []float64{1, 42.5}); got != 42.5 {
		t.Errorf("one dose: %v, want its response 42.5", got)
	}
}

func TestCheckRejectsBadShapes(t *testing.T) {
	ok := grid([]float64{0, 1}, []float64{0, 1}, func(a, b float64) float64 { return a + b })
	for _, tc := range []struct {
		name string
		b    *Block
	}{
		{"one row dose", grid([]float64{0}, []float64{0, 1}, func(a, b float64) float64 { return 0 })},
		{"no zero row dose", grid([]float64{1, 2}, []float64{0, 1}, func(a, b float64) float64 { return 0 })},
		{"no zero column dose", grid([]float64{0, 1}, []float64{1, 2}, func(a, b float64) float64 { return 0 })},
		{"NaN response", func() *Block {
			b := grid([]float64{0, 1}, []float64{0, 1}, func(a, b float64) float64 { return 0 })
			b.Response[1][1] = math.NaN()
			return b
		}()},
	} {
		if _, err := Score(tc.b, Options{}); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if err := ok.Check(); err != nil {
		t.Errorf("good block: %v", err)
	}
}

func TestBaselineCorrection(t *testing.T) {
	b := grid(doses, doses, func(xr, xc float64) float64 { return bliss0(xr, xc) - 5 })
	none, err := Score(b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := Score(b, Options{Baseline: BaselineAll})
	if err != nil {
		t.Fatal(err)
	}
	// "all" moves every response by (100 − y)/100 · baseline, baseline ≈ −5
	// (the fitted minimum of both drugs): the no-drug well goes from −5 to ≈ 0.
	if got := all.Response[0][0]; math.Abs(got) > 0.5 || none.Response[0][0] != -5 {
		t.Errorf("corrected y00 = %v (uncorrected %v), want ≈ 0", got, none.Response[0][0])
	}
	if _, err := ParseBaseline("some"); err == nil {
		t.Error("ParseBaseline accepted \"some\"")
	}
}

// Doses in nM instead of µM: drc scales the dose by a power of ten before
// fitting, so every score is the same and the IC50s are 1000 times larger.
func TestDoseUnitInvariance(t *testing.T) {
	r1, err := Score(grid(doses, doses, func(xr, xc float64) float64 { return bliss0(xr, xc) + 3*xr*xc }), Options{})
	if err != nil {
		t.Fatal(err)
	}
	nM := make([]float64, len(doses))
	for i, x := range doses {
		nM[i] = 1000 * x
	}
	r2, err := Score(grid(nM, nM, func(xr, xc float64) float64 { return bliss0(xr/1000, xc/1000) + 3*xr*xc/1e6 }), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := r1.Summary, r2.Summary
	for _, p := range [][3]float64{{r1.Value("zip"), r2.Value("zip"), 1e-6}, {r1.Value("loewe"), r2.Value("loewe"), 1e-6},
		{r1.Value("hsa"), r2.Value("hsa"), 1e-9}, {r1.Value("bliss"), r2.Value("bliss"), 1e-9},
		{a.RIRow, b.RIRow, 1e-3}, {a.CSS, b.CSS, 1e-3}, {a.S, b.S, 1e-3}, {1000 * a.IC50Row, b.IC50Row, 1e-6 * b.IC50Row}} {
		if math.Abs(p[0]-p[1]) > p[2] {
			t.Errorf("µM %+v\nnM %+v", a, b)
			break
		}
	}
}
