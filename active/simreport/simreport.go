// Package simreport writes the results of a retrospective campaign
// simulation (simulate.Run): report.json, the per-run and summary CSV
// tables, and a figure of every strategy together (PNG and SVG).
//
// Round index 0 of every series is the initial set; index r is after round
// r. The standard error is the sample standard deviation over seeds divided
// by sqrt(seeds) (0 with one seed). test_rmse[0] is null (no model chose the
// initial set).
package simreport

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/active/simulate"

	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/plotstyle"
	"github.com/deup-screening/deup/internal/vocab"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Series are one strategy's summaries.
type Series struct {
	Top1Found simulate.Summary `json:"top1_found"`
	Best      simulate.Summary `json:"best"`
	TestRMSE  simulate.Summary `json:"test_rmse"`
	// SigmaCorr is simulate.Trace.SigmaCorr: corr(sigma_total, |y - mu|)
	// on the unmeasured pool (null at index 0).
	SigmaCorr simulate.Summary `json:"sigma_corr"`
	// RareShare is simulate.Trace.RareShare: the share of a round's picks
	// with a drug measured in at most simulate.RareDrugPairs pairs before
	// it (null at index 0).
	RareShare simulate.Summary `json:"rare_share"`
}

// Difference is one DEUP strategy against the greedy reference, paired
// by seed (simulate.PairedDiff): per round, the mean and standard error
// of the strategy's value minus the reference's.
type Difference struct {
	Strategy  string           `json:"strategy"`
	Reference string           `json:"reference"`
	Seeds     int              `json:"seeds"` // runs paired
	Top1Found simulate.Summary `json:"top1_found"`
	Best      simulate.Summary `json:"best"`
}

// Reference returns the greedy strategy the differences are taken
// against: deup-net-greedy (the DEUP network's own mu) when order has it,
// else greedy (the Bayesian ridge's mu), else "".
func Reference(order []string) string {
	ref := ""
	for _, n := range order {
		if n == "deup-net-greedy" {
			return n
		}
		if n == "greedy" {
			ref = n
		}
	}
	return ref
}

// Report is report.json.
type Report struct {
	Acquisitions map[string]Series `json:"acquisitions"`
	Rounds       int               `json:"rounds"`
	Seeds        int               `json:"seeds"`
	// Extras.
	Order      []string        `json:"order"` // strategies in the order given
	Screen     string          `json:"screen"`
	CellLine   string          `json:"cell_line,omitempty"`
	Pairs      int             `json:"pairs"`     // measured pairs in the screen (the oracle)
	TopPairs   int             `json:"top_pairs"` // pairs in the top fraction
	TopFrac    jsonfloat.Float `json:"top_frac"`
	Init       int             `json:"init"`
	Batch      int             `json:"batch"`
	MaxPerDrug int             `json:"max_per_drug"`
	MaxPerLine int             `json:"max_per_line,omitempty"` // per cell line cap of a panel's batch (0: none)
	Explore    jsonfloat.Float `json:"explore,omitempty"`      // the acquisitions' explore weight (0: off)
	Features   string          `json:"features"`
	Measured   []int           `json:"measured"` // pairs measured after each round
	// Differences holds every strategy named deup-* (but the reference)
	// minus Reference(Order), paired by seed; empty without a reference.
	Differences []Difference    `json:"differences"`
	WallSeconds jsonfloat.Float `json:"wall_seconds"`
}

// Build summarizes traces (from simulate.Run with cfg) into a Report.
func Build(traces []simulate.Trace, cfg simulate.Config) *Report {
	r := &Report{Acquisitions: map[string]Series{}, Rounds: cfg.Rounds, Seeds: cfg.Seeds,
		Init: cfg.Init, Batch: cfg.Batch, MaxPerDrug: cfg.MaxPerDrug, MaxPerLine: cfg.MaxPerLine, Features: cfg.Features, TopFrac: jsonfloat.Float(cfg.TopFrac),
		Explore: jsonfloat.Float(cfg.Explore)}
	for _, st := range cfg.Strategies {
		var ts []simulate.Trace
		for _, t := range traces {
			if t.Strategy == st.Name {
				ts = append(ts, t)
			}
		}
		var s Series
		s.Top1Found, _ = simulate.Summarize(ts, func(t simulate.Trace) []float64 { return t.TopFound })
		s.Best, _ = simulate.Summarize(ts, func(t simulate.Trace) []float64 { return t.Best })
		s.TestRMSE, _ = simulate.Summarize(ts, func(t simulate.Trace) []float64 { return t.TestRMSE })
		s.SigmaCorr, _ = simulate.Summarize(ts, func(t simulate.Trace) []float64 { return t.SigmaCorr })
		s.RareShare, _ = simulate.Summarize(ts, func(t simulate.Trace) []float64 { return t.RareShare() })
		r.Acquisitions[st.Name] = s
		r.Order = append(r.Order, st.Name)
		if r.Measured == nil && len(ts) > 0 {
			r.Measured = append([]int(nil), ts[0].Measured...)
		}
	}
	r.Differences = []Difference{}
	ref := Reference(r.Order)
	of := func(name string) []simulate.Trace {
		var ts []simulate.Trace
		for _, t := range traces {
			if t.Strategy == name {
				ts = append(ts, t)
			}
		}
		return ts
	}
	for _, name := range r.Order {
		if ref == "" || name == ref || !strings.HasPrefix(name, "deup-") {
			continue
		}
		d := Difference{Strategy: name, Reference: ref}
		d.Top1Found, d.Seeds = simulate.PairedDiff(of(name), of(ref), func(t simulate.Trace) []float64 { return t.TopFound })
		d.Best, _ = simulate.PairedDiff(of(name), of(ref), func(t simulate.Trace) []float64 { return t.Best })
		r.Differences = append(r.Differences, d)
	}
	return r
}

// WriteJSON writes the report, indented.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func ff(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return string(vocab.AppendFloat(nil, v, 8)) // 0.0, not 0: a float column to pandas and DuckDB
}

// WriteRunsCSV writes one row per run and round:
// strategy,seed,round,measured,best,top1_found,test_rmse,sigma_corr,
// rare_share,model_version.
func WriteRunsCSV(w io.Writer, traces []simulate.Trace) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"strategy", "seed", "round", "measured", "best", "top1_found", "test_rmse", "sigma_corr", "rare_share", "model_version"})
	for _, t := range traces {
		rare := t.RareShare()
		for r := range t.Best {
			cw.Write([]string{t.Strategy, strconv.FormatUint(t.Seed, 10), strconv.Itoa(r), strconv.Itoa(t.Measured[r]),
				ff(t.Best[r]), ff(t.TopFound[r]), ff(t.TestRMSE[r]), ff(at(t.SigmaCorr, r)), ff(at(rare, r)), t.ModelVers[r]})
		}
	}
	cw.Flush()
	return cw.Error()
}

// at is v[i], NaN past its end (a trace built without the series).
func at(v []float64, i int) float64 {
	if i < len(v) {
		return v[i]
	}
	return math.NaN()
}

// WriteSummaryCSV writes one row per strategy and round with means and
// standard errors; then one row per DEUP strategy and round of its
// difference from the reference (Report.Differences), the strategy column
// "A-B" (e.g. deup-net-ucb-deup-net-greedy), the difference's mean and se
// in the top1_found and best columns, the others empty.
func (r *Report) WriteSummaryCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"strategy", "round", "measured", "top1_found_mean", "top1_found_se", "best_mean", "best_se", "test_rmse_mean", "test_rmse_se",
		"sigma_corr_mean", "sigma_corr_se", "rare_share_mean", "rare_share_se"})
	measured := func(i int) string {
		if i < len(r.Measured) {
			return strconv.Itoa(r.Measured[i])
		}
		return "0"
	}
	for _, name := range r.Order {
		s := r.Acquisitions[name]
		for i := range s.Best.Mean {
			cw.Write([]string{name, strconv.Itoa(i), measured(i), ff(s.Top1Found.Mean[i]), ff(s.Top1Found.SE[i]),
				ff(s.Best.Mean[i]), ff(s.Best.SE[i]), ff(s.TestRMSE.Mean[i]), ff(s.TestRMSE.SE[i]),
				ff(at(s.SigmaCorr.Mean, i)), ff(at(s.SigmaCorr.SE, i)), ff(at(s.RareShare.Mean, i)), ff(at(s.RareShare.SE, i))})
		}
	}
	for _, d := range r.Differences {
		for i := range d.Top1Found.Mean {
			cw.Write([]string{d.Strategy + "-" + d.Reference, strconv.Itoa(i), measured(i), ff(d.Top1Found.Mean[i]), ff(d.Top1Found.SE[i]),
				ff(d.Best.Mean[i]), ff(d.Best.SE[i]), "", "", "", "", "", ""})
		}
	}
	cw.Flush()
	return cw.Error()
}

// plots returns five panels (top-1 % found, best score, test RMSE, sigma
// corr and the share of picks on rare drugs, against pairs measured), one
// line per strategy with a band of ±1 standard error over seeds, and a
// legend. Every panel spans the same pairs-measured range (the RMSE has no
// value at the initial set, but its axis starts there too), count axes are
// labelled in whole numbers, and each strategy's points are shifted by a
// few pairs (at most a fifth of a batch in all) so that strategies with
// identical curves stay visible side by side.
func (r *Report) plots(title string) ([]*plot.Plot, *plot.Plot, error) {
	panels := []struct {
		name, ylabel string
		get          func(Series) simulate.Summary
	}{
		{"top pairs found", fmt.Sprintf("fraction of top %g%% found", 100*r.TopFrac), func(s Series) simulate.Summary { return s.Top1Found }},
		{"best score found", "best score so far", func(s Series) simulate.Summary { return s.Best }},
		{"model error on unmeasured pairs", "test RMSE", func(s Series) simulate.Summary { return s.TestRMSE }},
		{"sigma vs error on unmeasured pairs", "corr(sigma_total, |y - mu|)", func(s Series) simulate.Summary { return s.SigmaCorr }},
		{"picks on rare drugs", fmt.Sprintf("share with a drug in <= %d pairs", simulate.RareDrugPairs), func(s Series) simulate.Summary { return s.RareShare }},
	}
	var xmin, xmax float64
	if n := len(r.Measured); n > 0 {
		xmin, xmax = float64(r.Measured[0]), float64(r.Measured[n-1])
	}
	pad := 0.03 * (xmax - xmin)
	var out []*plot.Plot
	for pi, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.name
		if pi == 0 && title != "" {
			p.Title.Text = title + ": " + pn.name
		}
		p.X.Label.Text = "pairs measured"
		p.X.Tick.Marker = plotstyle.CountTicks{}
		p.Y.Label.Text = pn.ylabel
		for si, name := range r.Order {
			sm := pn.get(r.Acquisitions[name])
			dx := r.xShift(si)
			var pts, lo, hi plotter.XYs
			for i, m := range sm.Mean {
				if math.IsNaN(m) || i >= len(r.Measured) {
					continue
				}
				x := float64(r.Measured[i]) + dx
				pts = append(pts, plotter.XY{X: x, Y: m})
				se := at(sm.SE, i)
				if math.IsNaN(se) {
					se = 0
				}
				lo, hi = append(lo, plotter.XY{X: x, Y: m - se}), append(hi, plotter.XY{X: x, Y: m + se})
			}
			if len(pts) == 0 {
				continue
			}
			l, sc, err := plotter.NewLinePoints(pts)
			if err != nil {
				return nil, nil, err
			}
			style(si, l, sc)
			// The band: mean ± one standard error over seeds, a
			// translucent polygon under the line.
			ring := append(plotter.XYs(nil), lo...)
			for i := len(hi) - 1; i >= 0; i-- {
				ring = append(ring, hi[i])
			}
			band, err := plotter.NewPolygon(ring)
			if err != nil {
				return nil, nil, err
			}
			cr, cg, cb, _ := l.Color.RGBA()
			band.Color = color.NRGBA{R: uint8(cr >> 8), G: uint8(cg >> 8), B: uint8(cb >> 8), A: 48}
			band.LineStyle.Width = 0
			p.Add(band, l, sc)
		}
		// After Add, which widens the axes to the data: the same range in
		// every panel.
		p.X.Min, p.X.Max = xmin+r.xShift(0)-pad, xmax+r.xShift(len(r.Order)-1)+pad
		out = append(out, p)
	}
	// The legend has its own narrow strip, so that it hides no curve.
	leg := plot.New()
	leg.HideAxes()
	leg.Legend.Top, leg.Legend.Left = true, true
	leg.Legend.TextStyle.Font.Size = vg.Points(11)
	leg.Legend.ThumbnailWidth = vg.Points(30)
	for si, name := range r.Order {
		l, sc, err := plotter.NewLinePoints(plotter.XYs{{X: 0, Y: 0}})
		if err != nil {
			return nil, nil, err
		}
		style(si, l, sc)
		leg.Legend.Add(name, l, sc)
	}
	return out, leg, nil
}

// xShift is the horizontal offset of strategy si's points: the strategies
// spread evenly over a fifth of the first batch, centred on the true count.
func (r *Report) xShift(si int) float64 {
	n := len(r.Order)
	if n < 2 || len(r.Measured) < 2 {
		return 0
	}
	step := 0.2 * float64(r.Measured[1]-r.Measured[0]) / float64(n-1)
	return (float64(si) - float64(n-1)/2) * step
}

// style gives strategy i its colour (cycling through plotstyle's 7), dash
// pattern and marker shape, so that up to 7*6 strategies stay
// distinguishable.
func style(i int, l *plotter.Line, sc *plotter.Scatter) {
	l.Color = plotstyle.Color(i)
	l.Dashes = plotutil.Dashes(i)
	l.Width = vg.Points(1.5)
	sc.Color = l.Color
	sc.Shape = plotutil.Shape(i)
	sc.Radius = vg.Points(2.5)
}

// WriteFigures writes base+".png" and base+".svg": the five panels side
// by side and the legend in a strip on their right.
func (r *Report) WriteFigures(base, title string) error {
	ps, leg, err := r.plots(title)
	if err != nil {
		return err
	}
	const w, h, legW = 24 * vg.Inch, 4.5 * vg.Inch, 1.9 * vg.Inch
	tiles := draw.Tiles{Rows: 1, Cols: len(ps), PadX: vg.Millimeter * 6, PadY: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2}
	render := func(c draw.Canvas) {
		c.SetColor(color.White)
		c.Fill(c.Rectangle.Path())
		grid := [][]*plot.Plot{ps}
		cs := plot.Align(grid, tiles, draw.Crop(c, 0, -legW, 0, 0))
		for i, p := range ps {
			p.Draw(cs[0][i])
		}
		leg.Draw(draw.Crop(c, w-legW, 0, vg.Millimeter*6, -vg.Millimeter*6))
	}
	img := vgimg.New(w, h)
	dc := draw.New(img)
	render(dc)
	if err := writeAtomic(base+".png", func(f io.Writer) error { _, err := vgimg.PngCanvas{Canvas: img}.WriteTo(f); return err }); err != nil {
		return err
	}
	svg := vgsvg.New(w, h)
	render(draw.New(svg))
	return writeAtomic(base+".svg", func(f io.Writer) error { _, err := svg.WriteTo(f); return err })
}

func writeAtomic(path string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("simreport: %s: %w", path, err)
	}
	return nil
}

// WriteAll writes report.json, runs.csv, summary.csv and simulation.png/.svg
// into dir.
func WriteAll(dir string, r *Report, traces []simulate.Trace, title string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"report.json", r.WriteJSON},
		{"runs.csv", func(w io.Writer) error { return WriteRunsCSV(w, traces) }},
		{"summary.csv", r.WriteSummaryCSV},
	}
	for _, f := range files {
		if err := writeAtomic(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	return r.WriteFigures(filepath.Join(dir, "simulation"), title)
}
