package doseresp

import (
	"math"
)

// Sensitivity is TidyComb's CalculateSens, the relative inhibition (RI) of a
// single-drug curve and the CSS of a combination curve: the doses > 0 are
// kept; one dose gives its response; otherwise an LL.4 fit on the dose
// (falling back to L.4 on log10 dose) is integrated over
// [log10 min dose, log10 max dose] and the mean height, in %, rounded to 3
// decimals as TidyComb does:
//
//	LL.4: 100/(c2−c1) · [ (d−c)·ln(1+10^(−b(x−m)))/(−b·ln 10) + c·x ]_{c1}^{c2}, m = log10 e
//	L.4:  100/(c2−c1) · ( d·(c2−c1) + (c−d)/b·[ln(1+exp(b(x−e)))]_{c1}^{c2} )
//
// with c, d in fractions (÷100). It returns NaN when neither fit succeeds.
func Sensitivity(dose, resp []float64) float64 {
	var x, y []float64
	for i, d := range dose {
		if d != 0 {
			x = append(x, d)
			y = append(y, resp[i])
		}
	}
	switch len(x) {
	case 0:
		return math.NaN()
	case 1:
		return y[0]
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	c1, c2 := math.Log10(lo), math.Log10(hi)
	if c, err := Fit(LL4, x, y, Free()); err == nil {
		return round3(scoreLL4(c.B, c.C/100, c.D/100, math.Log10(c.E), c1, c2))
	}
	lx := make([]float64, len(x))
	for i, v := range x {
		lx[i] = math.Log10(v)
	}
	c, err := Fit(L4, lx, y, Free())
	if err != nil {
		return math.NaN()
	}
	return round3(scoreL4(c.B, c.C/100, c.D/100, c.E, c1, c2))
}

// scoreLL4 is TidyComb's scoreCurve with threshold t = 0.
func scoreLL4(b, c, d, m, c1, c2 float64) float64 {
	at := func(x float64) float64 {
		return (d-c)*ownLog(-b, x, m)/(-b*math.Ln10) + c*x
	}
	return (at(c2) - at(c1)) / (c2 - c1) * 100
}

// ownLog is ln(1 + 10^(b(c−x))), b(c−x)·ln 10 where 10^(...) overflows.
func ownLog(b, c, x float64) float64 {
	arg := 1 + math.Pow(10, b*(c-x))
	if math.IsInf(arg, 0) {
		return b * (c - x) * math.Ln10
	}
	return math.Log(arg)
}

// scoreL4 is TidyComb's scoreCurve.L4 with threshold t = 0.
func scoreL4(b, c, d, e, c1, c2 float64) float64 {
	intY := d*(c2-c1) + (c-d)/b*(ownLog2(b*(c2-e))-ownLog2(b*(c1-e)))
	return intY / (c2 - c1) * 100
}

// ownLog2 is ln(1 + exp(x)), x where exp overflows.
func ownLog2(x float64) float64 {
	arg := 1 + math.Exp(x)
	if math.IsInf(arg, 0) {
		return x
	}
	return math.Log(arg)
}

// round3 is R's round(x, 3).
func round3(x float64) float64 {
	return math.Round(x*1000) / 1000
}

// PredictResponse is TidyComb's PredictResponse: the response of a curve
// fitted with FitDoseResponse to (dose, resp) at dose x (at ln x for an L.4
// fit); a constant response gives its first value, and a prediction above 100
// gives 100 (TidyComb draws 100 − U(0, 0.01) there; this package draws nothing).
func PredictResponse(dose, resp []float64, x float64) float64 {
	if constant(resp) {
		return resp[0]
	}
	c, err := FitDoseResponse(dose, resp, Free())
	return predictWith(c, err, resp, x)
}

// predictWith is PredictResponse with the fit of (dose, resp) already made.
func predictWith(c Curve, err error, resp []float64, x float64) float64 {
	if constant(resp) {
		return resp[0]
	}
	if err != nil {
		return math.NaN()
	}
	p := c.AtDose(x)
	if p > 100 {
		p = 100
	}
	return p
}
