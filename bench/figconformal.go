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
// nominal coverage dashed.
func (r *Result) conformalPanels() ([]*plot.Plot, error) {
	nominal := 100 * (1 - r.Alpha)
	var out []*plot.Plot
	for _, kind := range []string{"plain", "normalized"} {
		p := plot.New()
		title := "plain conformal (mu ± q)"
		if kind == "normalized" {
			title = "sigma-normalized conformal (mu ± q sigma)"
		}
		p.Title.Text = fmt.Sprintf("%s, %g %%: coverage by sigma quintile", title, nominal)
		p.X.Label.Text = "sigma quintile (1: smallest sigma)"
		p.Y.Label.Text = "coverage of test pairs (%, mean over seeds)"
		p.X.Min, p.X.Max = 0.8, float64(uq.Quintiles)+0.2
		p.Y.Max = 100
		p.X.Tick.Marker = plot.ConstantTicks(quintileTicks())
		nom, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: nominal}, {X: p.X.Max, Y: nominal}})
		if err != nil {
			return nil, err
		}
		nom.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
		nom.LineStyle.Color = color.Gray{Y: 100}
		p.Add(plotter.NewGrid(), nom)
		p.Legend.Add(fmt.Sprintf("nominal %g %%", nominal), nom)
		ymin := nominal
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
					ymin = min(ymin, m)
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
			p.Legend.Add(row.Method, l, s)
		}
		p.Y.Min = math.Max(0, math.Floor(ymin/10)*10-5)
		p.Legend.Top = false
		p.Legend.Left = true
		out = append(out, p)
	}
	return out, nil
}

func quintileTicks() []plot.Tick {
	t := make([]plot.Tick, uq.Quintiles)
	for g := range t {
		t[g] = plot.Tick{Value: float64(g + 1), Label: fmt.Sprint(g + 1)}
	}
	return t
}
