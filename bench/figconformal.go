package bench

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/deup-screening/deup/uq"
)

// FigConformal is the base name of the figure of conformal coverage by
// sigma quintile (written as .png and .svg by WriteFigures).
const FigConformal = "conformal"

// conformalPanels: coverage of the conformal intervals in each sigma
// quintile (smallest sigma first), mean over seeds, one line per row; one
// panel for plain and one for sigma-normalized intervals, with the
// nominal coverage dashed. The constant row has one sigma per seed, so its
// quintiles are groups of test pairs in pair (screen file) order.
func (r *Result) conformalPanels() ([]*plot.Plot, error) {
	nominal := 100 * (1 - r.Alpha)
	// One y range for both panels, with room below the lowest line for
	// the legend (bottom right).
	ymin := nominal
	for ri := range r.Rows {
		for _, kind := range []string{"plain", "normalized"} {
			for g := 1; g <= uq.Quintiles && len(r.Rows[ri].Conformal) > 0; g++ {
				if m, _ := uq.MeanSD(r.Rows[ri].conformalMetric(kind, fmt.Sprintf("q%d", g))); !math.IsNaN(m) {
					ymin = min(ymin, m)
				}
			}
		}
	}
	ylo := math.Max(0, math.Floor(ymin/10)*10-35)
	var out []*plot.Plot
	for _, kind := range []string{"plain", "normalized"} {
		p := plot.New()
		title := "plain conformal, mu ± q"
		if kind == "normalized" {
			title = "normalized conformal, mu ± q sigma"
		}
		p.Title.Text = fmt.Sprintf("%s (%g %%)", title, nominal)
		p.X.Label.Text = "sigma quintile (1: smallest sigma)"
		p.Y.Label.Text = "coverage of test pairs (%, mean over seeds)"
		p.X.Min, p.X.Max = 0.8, float64(uq.Quintiles)+0.2
		p.Y.Min, p.Y.Max = ylo, 100
		p.Y.Tick.Marker = plot.ConstantTicks(tensTicks(ylo))
		p.X.Tick.Marker = plot.ConstantTicks(quintileTicks())
		nom, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: nominal}, {X: p.X.Max, Y: nominal}})
		if err != nil {
			return nil, err
		}
		nom.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
		nom.LineStyle.Color = color.Gray{Y: 100}
		p.Add(plotter.NewGrid(), nom)
		p.Legend.Add(fmt.Sprintf("nominal %g %%", nominal), nom)
		for ri := range r.Rows {
			row := &r.Rows[ri]
			if len(row.Conformal) == 0 {
				continue
			}
			xy := make(plotter.XYs, 0, uq.Quintiles)
			for g := 1; g <= uq.Quintiles; g++ {
				m, _ := uq.MeanSD(row.conformalMetric(kind, fmt.Sprintf("q%d", g)))
				if !math.IsNaN(m) {
					xy = append(xy, plotter.XY{X: float64(g), Y: m})
				}
			}
			if len(xy) == 0 {
				continue
			}
			l, s, err := plotter.NewLinePoints(xy)
			if err != nil {
				return nil, err
			}
			c := plotutil.Color(ri)
			l.LineStyle.Color, l.LineStyle.Width, l.LineStyle.Dashes = c, vg.Points(1.5), plotutil.Dashes(ri)
			s.GlyphStyle.Color, s.GlyphStyle.Shape = c, plotutil.Shape(ri)
			p.Add(l, s)
			label := row.Method
			if row.Method == Constant {
				label += " (one sigma: quintiles in pair order)"
			}
			p.Legend.Add(label, l, s)
		}
		p.Legend.Top = false
		p.Legend.Left = false
		out = append(out, p)
	}
	return out, nil
}

// tensTicks labels every multiple of 10 from lo to 100.
func tensTicks(lo float64) []plot.Tick {
	var t []plot.Tick
	for v := math.Ceil(lo/10) * 10; v <= 100; v += 10 {
		t = append(t, plot.Tick{Value: v, Label: fmt.Sprint(v)})
	}
	return t
}

func quintileTicks() []plot.Tick {
	t := make([]plot.Tick, uq.Quintiles)
	for g := range t {
		t[g] = plot.Tick{Value: float64(g + 1), Label: fmt.Sprint(g + 1)}
	}
	return t
}
