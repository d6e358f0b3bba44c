package doseresp

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/deup-screening/deup/internal/plotstyle"
)

// matrixGrid is a block's matrix as a heat-map grid: column j at x = j, row
// i at y = i (dose indices; the tick labels give the doses).
type matrixGrid [][]float64

func (m matrixGrid) Dims() (c, r int)   { return len(m[0]), len(m) }
func (m matrixGrid) Z(c, r int) float64 { return m[r][c] }
func (m matrixGrid) X(c int) float64    { return float64(c) }
func (m matrixGrid) Y(r int) float64    { return float64(r) }

// doseTicks labels the dose indices with the doses.
type doseTicks []float64

func (d doseTicks) Ticks(min, max float64) []plot.Tick {
	t := make([]plot.Tick, len(d))
	for i, x := range d {
		t[i] = plot.Tick{Value: float64(i), Label: fmt.Sprintf("%.3g", x)}
	}
	return t
}

// heatmap draws m with the diverging blue–red palette (Moreland 2009),
// symmetric around 0 for a synergy surface, over its range for responses.
func heatmap(b *Block, m [][]float64, title string, symmetric bool) (*plot.Plot, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range m {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if symmetric {
		a := math.Max(math.Abs(lo), math.Abs(hi))
		lo, hi = -a, a
	}
	if !(hi > lo) {
		lo, hi = lo-1, lo+1
	}
	pal, err := blueRed(64)
	if err != nil {
		return nil, err
	}
	h := plotter.NewHeatMap(matrixGrid(m), pal)
	h.Min, h.Max = lo, hi
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s (%.3g to %.3g)", title, lo, hi)
	p.X.Label.Text = doseLabel(b.DrugCol, b.Unit)
	p.Y.Label.Text = doseLabel(b.DrugRow, b.Unit)
	p.X.Tick.Marker, p.Y.Tick.Marker = doseTicks(b.ConcCol), doseTicks(b.ConcRow)
	p.Add(h)
	return p, nil
}

// colors is a palette of the given colours.
type colors []color.Color

func (c colors) Colors() []color.Color { return c }

// blueRed is Moreland's smooth blue–red palette in n colours, taken at
// i/(n−1) of its range for i = 0..n−1. (Its own Palette(n) steps from the
// minimum by (max−min)/(n−1) and can overshoot the maximum by a rounding
// error, which it refuses with a panic.) The heat map maps its Min..Max
// onto these colours.
func blueRed(n int) (colors, error) {
	cm := moreland.SmoothBlueRed()
	cm.SetMin(0)
	cm.SetMax(1)
	out := make(colors, n)
	for i := range out {
		c, err := cm.At(float64(i) / float64(n-1))
		if err != nil {
			return nil, fmt.Errorf("doseresp: palette: %w", err)
		}
		out[i] = c
	}
	return out, nil
}

func doseLabel(drug, unit string) string {
	if unit == "" {
		return drug
	}
	return drug + " (" + unit + ")"
}

// curves draws both drugs' single-drug responses (doses > 0, log axis) and
// their fitted curves.
func curves(b *Block, r *Result) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "single drugs (% inhibition) and fits"
	p.X.Label.Text = doseLabel("dose", b.Unit)
	p.Y.Label.Text = "% inhibition"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	for k, s := range []struct {
		name string
		dose []float64
		y    []float64
		fit  Curve
	}{
		{b.DrugRow, b.ConcRow, column(r.Response, 0), r.RowFit},
		{b.DrugCol, b.ConcCol, r.Response[0], r.ColFit},
	} {
		var pts, line plotter.XYs
		for i, x := range s.dose {
			if x > 0 {
				pts = append(pts, plotter.XY{X: x, Y: s.y[i]})
			}
		}
		if len(pts) == 0 {
			continue
		}
		lo, hi := math.Log(pts[0].X), math.Log(pts[len(pts)-1].X)
		for q := 0; q <= 60; q++ {
			x := math.Exp(lo + (hi-lo)*float64(q)/60)
			if y := s.fit.AtDose(x); !math.IsNaN(y) && !math.IsInf(y, 0) {
				line = append(line, plotter.XY{X: x, Y: y})
			}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = plotstyle.Color(k)
		sc.GlyphStyle.Radius = vg.Points(2.5)
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("%s (%s)", s.name, s.fit.Model), sc)
		if len(line) > 1 {
			l, err := plotter.NewLine(line)
			if err != nil {
				return nil, err
			}
			l.LineStyle.Color = plotstyle.Color(k)
			l.LineStyle.Width = vg.Points(1.5)
			p.Add(l)
		}
	}
	// A log axis needs a positive range: gonum widens a one-value range
	// by ±1, to 0 or below, and its log scale panics there. One dose (or
	// the same dose for both drugs) gets half a decade on each side; no
	// positive dose at all, a linear axis.
	switch {
	case p.X.Min > 0 && p.X.Min == p.X.Max:
		p.X.Min, p.X.Max = p.X.Min/math.Sqrt(10), p.X.Max*math.Sqrt(10)
	case !(p.X.Min > 0 && p.X.Max > p.X.Min):
		p.X.Scale = plot.LinearScale{}
		p.X.Tick.Marker = plot.DefaultTicks{}
	}
	p.Legend.Top = true
	return p, nil
}

// WritePlots draws the first n scored blocks (all for n < 0) into dir
// (created if needed): per block, block-ID.png/.svg with the response
// matrix, the landscape of each synergy it was scored with (ZIP, Loewe, HSA
// and Bliss by default) as heat maps (blue < 0 < red) and the single-drug
// curves with their fits. It returns the paths written.
func WritePlots(dir string, scored []Scored, n int) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	done := 0
	for _, s := range scored {
		if s.Result == nil || (n >= 0 && done >= n) {
			continue
		}
		done++
		b, r := s.Block, s.Result
		var ps []*plot.Plot
		resp, err := heatmap(b, r.Response, "response, % inhibition", false)
		if err != nil {
			return paths, err
		}
		ps = append(ps, resp)
		for _, sf := range r.Synergy {
			p, err := heatmap(b, sf.Wells, sf.Synergy.Title+" δ", true)
			if err != nil {
				return paths, err
			}
			ps = append(ps, p)
		}
		c, err := curves(b, r)
		if err != nil {
			return paths, err
		}
		ps = append(ps, c)
		out, err := plotstyle.SaveGrid(dir, "block-"+fileSafe(b.ID), ps, 3)
		paths = append(paths, out...)
		if err != nil {
			return paths, err
		}
	}
	return paths, nil
}

// fileSafe keeps letters, digits, '-', '_' and '.' of a block id.
func fileSafe(id string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, id)
	if s == "" || s[0] == '.' {
		s = "_" + s
	}
	return s
}
