package doseresp

import (
	"errors"
	"fmt"
	"math"
)

// Block is one dose–response matrix: drug Row at ConcRow[i] and drug Col at
// ConcCol[j] give Response[i][j], the mean % inhibition of N[i][j]
// replicates with sample standard deviation SD[i][j] (NaN for one replicate).
// Doses ascend and both start at 0 (the single-drug row and column).
type Block struct {
	ID, DrugRow, DrugCol, CellLine string
	Unit                           string // concentration unit, "" if not given
	ConcRow, ConcCol               []float64
	Response, SD                   [][]float64
	N                              [][]int
}

// Baseline is SynergyFinder's CorrectBaseLine method.
type Baseline uint8

const (
	// BaselineNone leaves the responses as they are ("non", DrugComb's setting).
	BaselineNone Baseline = iota
	// BaselinePart corrects only the negative responses ("part").
	BaselinePart
	// BaselineAll corrects every response ("all").
	BaselineAll
)

// ParseBaseline reads "non", "part" or "all".
func ParseBaseline(s string) (Baseline, error) {
	switch s {
	case "", "non", "none":
		return BaselineNone, nil
	case "part":
		return BaselinePart, nil
	case "all":
		return BaselineAll, nil
	}
	return 0, fmt.Errorf("doseresp: baseline %q: want non, part or all", s)
}

// Options configures Score. The zero value is DrugComb's pipeline: no
// baseline correction, the reference models of Synergies.
type Options struct {
	Baseline Baseline
	// Synergies is the score table: the reference models scored, in the
	// order of the tables' columns; nil is Synergies().
	Synergies []Synergy
}

// Summary is a block's sensitivity scores, the rest of its row of
// DrugComb's summary table (the synergies' means are the Result's
// Surfaces).
type Summary struct {
	IC50Row, IC50Col    float64
	RIRow, RICol        float64
	CSSRow, CSSCol, CSS float64
	S                   float64 // CSS − (RIRow + RICol)
}

// Result is a scored block: one synergy Surface per reference model (ZIP's
// fallbacks count the rows and columns where both the LL.4 and L.4 fits
// failed, so the observed responses were used; Loewe's the wells where its
// equation had no solution from its start and max(y_row(x1+x2),
// y_col(x1+x2)) was used), the single-drug fits and the summary.
type Result struct {
	Response       [][]float64 // after baseline correction (as scored)
	Synergy        []Surface   // in the order of Options.Synergies
	RowFit, ColFit Curve
	Summary        Summary
}

// ErrBlock reports a block that cannot be scored.
var ErrBlock = errors.New("doseresp: block cannot be scored")

// Check reports whether a block has the shape Score needs.
func (b *Block) Check() error {
	nr, nc := len(b.ConcRow), len(b.ConcCol)
	switch {
	case nr < 2 || nc < 2:
		return fmt.Errorf("%w: %d×%d doses, needs at least 2×2 (dose 0 and one dose of each drug)", ErrBlock, nr, nc)
	case b.ConcRow[0] != 0:
		return fmt.Errorf("%w: no single-drug wells of %s (conc_col = 0 missing)", ErrBlock, b.DrugRow)
	case b.ConcCol[0] != 0:
		return fmt.Errorf("%w: no single-drug wells of %s (conc_row = 0 missing)", ErrBlock, b.DrugCol)
	case len(b.Response) != nr:
		return fmt.Errorf("%w: %d response rows for %d doses", ErrBlock, len(b.Response), nr)
	}
	for i, row := range b.Response {
		if len(row) != nc {
			return fmt.Errorf("%w: row %d has %d responses for %d doses", ErrBlock, i, len(row), nc)
		}
		for j, v := range row {
			if !finite(v) {
				return fmt.Errorf("%w: no response at conc_row %g, conc_col %g", ErrBlock, b.ConcRow[i], b.ConcCol[j])
			}
		}
	}
	return nil
}

// Score computes the synergy surfaces (one per row of opt's score table),
// the single-drug fits and the block summary as TidyComb's CalculateMat does (see the package doc).
func Score(b *Block, opt Options) (*Result, error) {
	if err := b.Check(); err != nil {
		return nil, err
	}
	nr, nc := len(b.ConcRow), len(b.ConcCol)
	resp := make([][]float64, nr)
	for i := range resp {
		resp[i] = append([]float64(nil), b.Response[i]...)
	}
	if err := correctBaseline(resp, b.ConcRow, b.ConcCol, opt.Baseline); err != nil {
		return nil, err
	}
	rowY, colY := column(resp, 0), resp[0]
	rowFit, err := FitDoseResponse(b.ConcRow, rowY, Free())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.DrugRow, err)
	}
	colFit, err := FitDoseResponse(b.ConcCol, colY, Free())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.DrugCol, err)
	}
	r := &Result{Response: resp, RowFit: rowFit, ColFit: colFit}
	syn := opt.Synergies
	if syn == nil {
		syn = Synergies()
	}
	f := &Fitted{Response: resp, ConcRow: b.ConcRow, ConcCol: b.ConcCol, RowFit: rowFit, ColFit: colFit}
	r.Synergy = make([]Surface, len(syn))
	for k, m := range syn {
		d, n := m.Delta(f)
		r.Synergy[k] = Surface{Synergy: m, Wells: d, Mean: innerMean(d), Fallbacks: n}
	}

	s := &r.Summary
	s.RIRow = Sensitivity(b.ConcRow, rowY)
	s.RICol = Sensitivity(b.ConcCol, colY)
	s.IC50Row = math.Min(rowFit.IC50(), b.ConcRow[nr-1])
	s.IC50Col = math.Min(colFit.IC50(), b.ConcCol[nc-1])
	// css_col: the column drug's curve with the row drug fixed at its IC50;
	// css_row: the row drug's curve with the column drug at its IC50
	// (TidyComb's ImputeIC50).
	atRow := make([]float64, nc)
	if nr == 2 {
		copy(atRow, resp[1])
	} else {
		for j := range atRow {
			if j == 0 { // the row drug's own curve: rowFit is that fit
				atRow[j] = predictWith(rowFit, nil, rowY, s.IC50Row)
				continue
			}
			atRow[j] = PredictResponse(b.ConcRow, column(resp, j), s.IC50Row)
		}
	}
	atCol := make([]float64, nr)
	if nc == 2 {
		for i := range atCol {
			atCol[i] = resp[i][1]
		}
	} else {
		for i := range atCol {
			if i == 0 {
				atCol[i] = predictWith(colFit, nil, colY, s.IC50Col)
				continue
			}
			atCol[i] = PredictResponse(b.ConcCol, resp[i], s.IC50Col)
		}
	}
	s.CSSCol = Sensitivity(b.ConcCol, atRow)
	s.CSSRow = Sensitivity(b.ConcRow, atCol)
	s.CSS = meanNaN(s.CSSRow, s.CSSCol)
	s.S = s.CSS - (s.RIRow + s.RICol)
	return r, nil
}

func column(m [][]float64, j int) []float64 {
	c := make([]float64, len(m))
	for i := range m {
		c[i] = m[i][j]
	}
	return c
}

// innerMean is the mean over the wells with both doses > 0.
func innerMean(m [][]float64) float64 {
	var s float64
	var n int
	for i := 1; i < len(m); i++ {
		for j := 1; j < len(m[i]); j++ {
			if !math.IsNaN(m[i][j]) {
				s += m[i][j]
				n++
			}
		}
	}
	return s / float64(n)
}

// meanNaN is R's mean(c(...), na.rm = TRUE).
func meanNaN(v ...float64) float64 {
	var s float64
	var n int
	for _, x := range v {
		if !math.IsNaN(x) {
			s += x
			n++
		}
	}
	return s / float64(n)
}

// HSA returns y_ij − max(y_i0, y_0j) for the wells with both doses > 0 and 0
// on the single-drug row and column (Berenbaum 1989; SynergyFinder's HSA).
// m is % inhibition, m[0][0] the no-drug well.
func HSA(m [][]float64) [][]float64 {
	return reference(m, func(a, b float64) float64 { return math.Max(a, b) })
}

// Bliss returns y_ij − (y_i0 + y_0j − y_i0·y_0j/100) for the wells with both
// doses > 0 and 0 on the single-drug row and column (Bliss 1939 on %
// inhibition; SynergyFinder's Bliss).
func Bliss(m [][]float64) [][]float64 {
	return reference(m, func(a, b float64) float64 { return a + b - a*b/100 })
}

func reference(m [][]float64, ref func(row, col float64) float64) [][]float64 {
	d := make([][]float64, len(m))
	for i := range m {
		d[i] = make([]float64, len(m[i]))
		if i == 0 {
			continue
		}
		for j := 1; j < len(m[i]); j++ {
			d[i][j] = m[i][j] - ref(m[i][0], m[0][j])
		}
	}
	return d
}

// zip is SynergyFinder 2.0's ZIP (Yadav et al. 2015): the expected response
// y_i + y_j − y_i·y_j/100 from the single-drug fits (predicted at the raw
// dose, as drc's predict does with newdata for an L.4 model fitted on
// ln(dose)), against the observed surface smoothed by refitting each column
// over the row doses > 0 (lower asymptote fixed at the column drug's fit at
// that dose, upper at 100) and each row over the column doses > 0, averaged.
func zip(m [][]float64, concRow, concCol []float64, rowFit, colFit Curve) ([][]float64, int) {
	nr, nc := len(concRow)-1, len(concCol)-1
	rowPred := make([]float64, nr)
	for i := range rowPred {
		rowPred[i] = rowFit.At(concRow[i+1])
	}
	colPred := make([]float64, nc)
	for j := range colPred {
		colPred[j] = colFit.At(concCol[j+1])
	}
	byCol := make([][]float64, nr) // columns refitted over the row doses
	byRow := make([][]float64, nr)
	for i := range byCol {
		byCol[i] = append([]float64(nil), m[i+1][1:]...)
		byRow[i] = append([]float64(nil), m[i+1][1:]...)
	}
	raw := 0
	if nr > 1 || nc > 1 {
		dose := concRow[1:]
		y := make([]float64, nr)
		for j := 0; j < nc; j++ {
			for i := range y {
				y[i] = m[i+1][j+1]
			}
			fit, ok := smooth(dose, y, colPred[j])
			raw += b2i(!ok)
			for i := range y {
				byCol[i][j] = fit[i]
			}
		}
		dose = concCol[1:]
		for i := 0; i < nr; i++ {
			fit, ok := smooth(dose, m[i+1][1:], rowPred[i])
			raw += b2i(!ok)
			copy(byRow[i], fit)
		}
	}
	d := make([][]float64, nr+1)
	d[0] = make([]float64, nc+1)
	for i := 0; i < nr; i++ {
		d[i+1] = make([]float64, nc+1)
		for j := 0; j < nc; j++ {
			exp := rowPred[i] + colPred[j] - rowPred[i]*colPred[j]/100
			d[i+1][j+1] = (byCol[i][j]+byRow[i][j])/2 - exp
		}
	}
	return d, raw
}

// smooth refits one row or column of the ZIP surface: one dose gives the
// response − 1e-10 (no fit); otherwise FitDoseResponse with c = lower and
// d = 100 fixed, its fitted values, or the responses themselves when both
// LL.4 and L.4 fail (ok false).
func smooth(dose, y []float64, lower float64) ([]float64, bool) {
	out := make([]float64, len(y))
	if len(y) == 1 {
		out[0] = y[0] - 1e-10
		return out, true
	}
	c, err := FitDoseResponse(dose, y, Fixed{C: lower, D: 100})
	if err != nil {
		copy(out, y)
		return out, false
	}
	for k, x := range dose {
		out[k] = c.AtDose(x)
	}
	return out, true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// loewe is SynergyFinder 2.0's Loewe: for doses x1 (column drug) and x2 (row
// drug) > 0 the additive response y solves
//
//	x1 / X_col(y) + x2 / X_row(y) = 1,
//
// X(y) the dose at which a drug alone gives y (e·((d−y)/(y−c))^(1/b) for
// LL.4, exp(e + ln((d−y)/(y−c))/b) for L.4), by Newton's method from
// y0 = max(c_col, c_row) + 1; where that fails the additive response is
// max(f_col(x1+x2), f_row(x1+x2)). y is capped at 100 and δ = observed − y.
func loewe(m [][]float64, concRow, concCol []float64, rowFit, colFit Curve) ([][]float64, int) {
	d := make([][]float64, len(concRow))
	d[0] = make([]float64, len(concCol))
	eq := func(y, x1, x2 float64) float64 {
		return x1/colFit.DoseAt(y) + x2/rowFit.DoseAt(y) - 1
	}
	y0 := math.Max(colFit.C, rowFit.C) + 1
	fallbacks := 0
	for i := 1; i < len(concRow); i++ {
		d[i] = make([]float64, len(concCol))
		for j := 1; j < len(concCol); j++ {
			x1, x2 := concCol[j], concRow[i]
			y, ok := newton1(func(y float64) float64 { return eq(y, x1, x2) }, y0)
			if !ok {
				fallbacks++
				y = math.Max(colFit.AtDose(x1+x2), rowFit.AtDose(x1+x2))
			}
			d[i][j] = m[i][j] - math.Min(y, 100)
		}
	}
	return d, fallbacks
}

// DoseAt inverts the curve: the dose at which it gives y (NaN outside its range).
func (c Curve) DoseAt(y float64) float64 {
	r := (c.D - y) / (y - c.C)
	if c.Model == L4 {
		return math.Exp(c.E + math.Log(r)/c.B)
	}
	return c.E * math.Pow(r, 1/c.B)
}

// newton1 solves f(y) = 0 by Newton's method with a forward-difference
// derivative (step sqrt(eps)·max(|y|, 1), nleqslv's) and step halving, in
// the spirit of nleqslv(method = "Newton") with its defaults (xtol = ftol =
// 1e-8, 150 iterations). ok is false where nleqslv stops with an error (f(y0)
// or the derivative not finite) or with a termination code ≥ 3 (no step
// reduces |f|).
func newton1(f func(float64) float64, y float64) (float64, bool) {
	const (
		ftol  = 1e-8
		xtol  = 1e-8
		maxit = 150
	)
	fy := f(y)
	if !finite(fy) {
		return 0, false
	}
	for it := 0; it < maxit; it++ {
		if math.Abs(fy) <= ftol {
			return y, true
		}
		// Forward difference as nleqslv's Jacobian; a non-finite value
		// there is an error in nleqslv (the caller falls back).
		yh := y + 1.4901161193847656e-08*math.Max(math.Abs(y), 1)
		h := yh - y
		fh := f(yh)
		slope := (fh - fy) / h
		if !finite(slope) || slope == 0 {
			return 0, false
		}
		step := -fy / slope
		lambda := 1.0
		moved := false
		for k := 0; k < 60; k++ {
			yn := y + lambda*step
			fn := f(yn)
			if finite(fn) && math.Abs(fn) < math.Abs(fy)*(1-1e-4*lambda) {
				dx := math.Abs(yn-y) / math.Max(math.Abs(yn), 1)
				y, fy, moved = yn, fn, true
				if dx <= xtol {
					// x converged with |f| > ftol: the root lies where
					// the curves cannot be evaluated (it stalls at an
					// asymptote); nleqslv ends with an error there.
					return y, math.Abs(fy) <= ftol
				}
				break
			}
			lambda /= 2
		}
		if !moved {
			return 0, false
		}
	}
	return y, math.Abs(fy) <= ftol
}

// correctBaseline is SynergyFinder's CorrectBaseLine: baseline = mean of the
// minimum fitted single-drug responses; "part" moves the negative responses,
// "all" every response, by y − (100 − y)/100 · baseline.
func correctBaseline(m [][]float64, concRow, concCol []float64, how Baseline) error {
	if how == BaselineNone {
		return nil
	}
	hasNeg := false
	for _, row := range m {
		for _, v := range row {
			hasNeg = hasNeg || v < 0
		}
	}
	if how == BaselinePart && !hasNeg {
		return nil
	}
	minFit := func(dose, y []float64) (float64, error) {
		c, err := FitDoseResponse(dose, y, Free())
		if err != nil {
			return 0, err
		}
		lo := math.Inf(1)
		for _, x := range dose {
			lo = math.Min(lo, c.AtDose(x))
		}
		return lo, nil
	}
	a, err := minFit(concRow, column(m, 0))
	if err != nil {
		return err
	}
	b, err := minFit(concCol, m[0])
	if err != nil {
		return err
	}
	base := (a + b) / 2
	for _, row := range m {
		for j, v := range row {
			if how == BaselineAll || v < 0 {
				row[j] = v - (100-v)/100*base
			}
		}
	}
	return nil
}
