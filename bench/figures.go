package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/plotstyle"
	"github.com/deup-screening/deup/uq"
)

// Figure file base names written by WriteFigures (each as .png and .svg).
const (
	FigPairs       = "pairs"       // 50 test pairs ordered by score: truth and mu ± sigma per method
	FigCalibration = "calibration" // observed vs expected coverage, all methods
	FigResiduals   = "residuals"   // |residual| against sigma per method
)

// WriteFigures writes the four figures (pairs, calibration, residuals and
// conformal) into dir as PNG and SVG and returns the paths written.
func (r *Result) WriteFigures(dir string) ([]string, error) {
	if len(r.Rows) == 0 {
		return nil, ErrNoRows
	}
	var paths []string
	panels, err := r.pairPanels(50)
	if err != nil {
		return nil, err
	}
	ps, err := saveGrid(dir, FigPairs, panels, 2)
	if err != nil {
		return nil, err
	}
	paths = append(paths, ps...)
	cal, err := r.calibrationPlot()
	if err != nil {
		return nil, err
	}
	ps, err = saveGrid(dir, FigCalibration, []*plot.Plot{cal}, 1)
	if err != nil {
		return nil, err
	}
	paths = append(paths, ps...)
	res, err := r.residualPanels()
	if err != nil {
		return nil, err
	}
	ps, err = saveGrid(dir, FigResiduals, res, 2)
	if err != nil {
		return nil, err
	}
	paths = append(paths, ps...)
	conf, err := r.conformalPanels()
	if err != nil {
		return nil, err
	}
	ps, err = saveGrid(dir, FigConformal, conf, 2)
	if err != nil {
		return nil, err
	}
	return append(paths, ps...), nil
}

// byMethod returns the predictions of one method (all seeds, or one seed
// when seed is not nil).
func (r *Result) byMethod(method string, seed *uint64) []PairPrediction {
	var out []PairPrediction
	for _, p := range r.Predictions {
		if p.Method == method && (seed == nil || p.Seed == *seed) {
			out = append(out, p)
		}
	}
	return out
}

type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// pairPanels: the paper's figure. The test pairs of the first seed are
// ordered by the observed score (the truth, black), n of them evenly spaced
// over that order, and each method's mu ± sigma drawn over them.
func (r *Result) pairPanels(n int) ([]*plot.Plot, error) {
	seed := r.Seeds[0]
	var out []*plot.Plot
	for ri, row := range r.Rows {
		preds := r.byMethod(row.Method, &seed)
		if len(preds) == 0 {
			continue
		}
		sort.SliceStable(preds, func(i, j int) bool { return preds[i].Y < preds[j].Y })
		k := min(n, len(preds))
		truth := make(plotter.XYs, k)
		ep := errPoints{XYs: make(plotter.XYs, k), YErrors: make(plotter.YErrors, k)}
		for j := 0; j < k; j++ {
			p := preds[j*(len(preds)-1)/max(k-1, 1)]
			truth[j] = plotter.XY{X: float64(j + 1), Y: p.Y}
			ep.XYs[j] = plotter.XY{X: float64(j + 1), Y: p.Mu}
			ep.YErrors[j] = struct{ Low, High float64 }{p.SigmaTotal, p.SigmaTotal}
		}
		p := plot.New()
		p.Title.Text = row.Method
		p.X.Label.Text = fmt.Sprintf("%d of %d test pairs (seed %d), evenly spaced in order of observed score", k, len(preds), seed)
		p.Y.Label.Text = "score"
		ts, err := plotter.NewScatter(truth)
		if err != nil {
			return nil, err
		}
		ts.GlyphStyle.Color = color.Black
		ts.GlyphStyle.Shape = draw.CrossGlyph{}
		ms, err := plotter.NewScatter(ep.XYs)
		if err != nil {
			return nil, err
		}
		c := plotstyle.Color(ri)
		ms.GlyphStyle.Color = c
		ms.GlyphStyle.Shape = draw.CircleGlyph{}
		eb, err := plotter.NewYErrorBars(ep)
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color = c
		p.Add(eb, ms, ts, plotter.NewGrid())
		p.Legend.Add("observed", ts)
		p.Legend.Add("mu ± sigma", ms)
		p.Legend.Top, p.Legend.Left = true, true // the low scores are on the left: the top left is empty
		out = append(out, p)
	}
	return out, nil
}

// calibrationPlot: observed against expected coverage of central intervals,
// every method pooled over seeds, with the diagonal.
func (r *Result) calibrationPlot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "calibration (all seeds pooled)"
	p.X.Label.Text = "expected coverage"
	p.Y.Label.Text = "observed coverage"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, err
	}
	diag.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	diag.LineStyle.Color = color.Gray{Y: 100}
	p.Add(diag, plotter.NewGrid())
	levels := uq.Levels(49)
	for ri, row := range r.Rows {
		preds := r.byMethod(row.Method, nil)
		if len(preds) == 0 {
			continue
		}
		y, mu, s := columns(preds)
		pts := uq.Calibration(y, mu, s, levels)
		xy := make(plotter.XYs, 0, len(pts)+1)
		xy = append(xy, plotter.XY{})
		for _, q := range pts {
			if !math.IsNaN(q.Observed) {
				xy = append(xy, plotter.XY{X: q.Expected, Y: q.Observed})
			}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.LineStyle.Color = plotstyle.Color(ri)
		l.LineStyle.Width = vg.Points(1.5)
		l.LineStyle.Dashes = plotutil.Dashes(ri)
		p.Add(l)
		p.Legend.Add(row.Method, l)
	}
	// Top left: the emptiest corner in practice (a curve reaches it only
	// when sigma is far too large); bottom right is where overconfident
	// methods run.
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs, p.Legend.YOffs = vg.Millimeter*3, -vg.Millimeter*3
	return p, nil
}

// residualPanels: |mu − y| against sigma, one panel per method, all seeds.
// Every panel has the same axes (sigma from 0 to the largest sigma of any
// method, |residual| from 0 to the largest residual), so that the methods'
// sigmas compare at a glance, and the dashed line |residual| = sigma is
// named in each panel's legend.
func (r *Result) residualPanels() ([]*plot.Plot, error) {
	var out []*plot.Plot
	var smax, rmax float64
	for _, row := range r.Rows {
		for _, q := range r.byMethod(row.Method, nil) {
			smax = max(smax, q.SigmaTotal)
			rmax = max(rmax, math.Abs(q.Mu-q.Y))
		}
	}
	for ri, row := range r.Rows {
		preds := r.byMethod(row.Method, nil)
		if len(preds) == 0 {
			continue
		}
		xy := make(plotter.XYs, len(preds))
		for i, q := range preds {
			xy[i] = plotter.XY{X: q.SigmaTotal, Y: math.Abs(q.Mu - q.Y)}
		}
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s (corr %s)", row.Method, pm(row.metric("corr"), 2))
		p.X.Label.Text = "sigma"
		p.Y.Label.Text = "|residual|"
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = plotstyle.Color(ri)
		sc.GlyphStyle.Radius = vg.Points(1.5)
		// |residual| = sigma: the 68 % line of a calibrated Gaussian.
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: smax, Y: smax}})
		if err != nil {
			return nil, err
		}
		l.LineStyle.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(sc, l, plotter.NewGrid())
		p.Legend.Add("|residual| = sigma", l)
		p.Legend.Top = true
		p.X.Min, p.X.Max = 0, smax
		p.Y.Min, p.Y.Max = 0, rmax
		out = append(out, p)
	}
	return out, nil
}

func columns(ps []PairPrediction) (y, mu, s []float64) {
	y, mu, s = make([]float64, len(ps)), make([]float64, len(ps)), make([]float64, len(ps))
	for i, p := range ps {
		y[i], mu[i], s[i] = p.Y, p.Mu, p.SigmaTotal
	}
	return y, mu, s
}

// saveGrid draws plots on a grid of cols columns and writes base.png and
// base.svg into dir.
func saveGrid(dir, base string, plots []*plot.Plot, cols int) ([]string, error) {
	if len(plots) == 0 {
		return nil, nil
	}
	cols = min(cols, len(plots))
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
		for j := range grid[i] {
			if k := i*cols + j; k < len(plots) {
				grid[i][j] = plots[k]
			}
		}
	}
	w, h := vg.Length(cols)*5*vg.Inch, vg.Length(rows)*3.5*vg.Inch
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	draw1 := func(dc draw.Canvas) {
		cs := plot.Align(grid, tiles, dc)
		for i := range grid {
			for j, p := range grid[i] {
				if p != nil {
					p.Draw(cs[i][j])
				}
			}
		}
	}
	var paths []string
	img := vgimg.New(w, h)
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	draw1(dc)
	png := filepath.Join(dir, base+".png")
	if err := writeTo(png, vgimg.PngCanvas{Canvas: img}); err != nil {
		return nil, err
	}
	paths = append(paths, png)
	sv := vgsvg.New(w, h)
	draw1(draw.New(sv))
	svg := filepath.Join(dir, base+".svg")
	if err := writeTo(svg, sv); err != nil {
		return nil, err
	}
	return append(paths, svg), nil
}

func writeTo(path string, c interface {
	WriteTo(w io.Writer) (int64, error)
}) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { _, err := c.WriteTo(w); return err }); err != nil {
		return fmt.Errorf("bench: %s: %w", path, err)
	}
	return nil
}
