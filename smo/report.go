package smo

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/deup-screening/deup/internal/moments"

	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/plotstyle"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/deup-screening/deup/uq"
)

// Summary is the content of results.json: per method, the best value so far
// after each acquisition for each seed, and the number of acquisitions to
// get within Tolerance of the global maximum (null if never).
type Summary struct {
	Function  string                    `json:"function"`
	Dim       int                       `json:"dim"`
	GlobalMax jsonfloat.Float           `json:"global_max"`
	Steps     int                       `json:"steps"`
	Init      int                       `json:"init"`
	Seeds     []uint64                  `json:"seeds"`
	Tolerance jsonfloat.Float           `json:"tolerance"`
	Order     []string                  `json:"method_order"`
	Methods   map[string]*MethodSummary `json:"methods"`
	runs      map[string][]*Result      // for results.csv
}

// MethodSummary is one method's runs, seeds in Summary.Seeds order.
type MethodSummary struct {
	BestSoFar      []jsonfloat.Floats `json:"best_so_far"`
	StepsToOptimum []*int             `json:"steps_to_optimum"`
	InitialBest    jsonfloat.Floats   `json:"initial_best"`
	Reached        int                `json:"reached_optimum"` // seeds that reached it
	FinalMean      jsonfloat.Float    `json:"final_mean"`
	FinalSD        jsonfloat.Float    `json:"final_sd"` // sample standard deviation over seeds
	WallSeconds    jsonfloat.Floats   `json:"wall_seconds"`
}

// Summarize builds the Summary of runs grouped by method (each method's
// runs in the same seed order).
func Summarize(f Function, opt Options, seeds []uint64, order []string, runs map[string][]*Result) *Summary {
	opt = opt.withDefaults()
	s := &Summary{Function: f.Name, Dim: f.Dim, GlobalMax: jsonfloat.Float(f.Max), Steps: opt.Steps, Init: opt.Init,
		Seeds: seeds, Tolerance: jsonfloat.Float(Tolerance), Order: order, Methods: map[string]*MethodSummary{}, runs: runs}
	for _, m := range order {
		ms := &MethodSummary{}
		var finals []float64
		for _, r := range runs[m] {
			ms.BestSoFar = append(ms.BestSoFar, r.BestSoFar)
			ms.InitialBest = append(ms.InitialBest, r.InitialBest)
			ms.WallSeconds = append(ms.WallSeconds, r.Wall.Seconds())
			if r.StepsToOptimum >= 0 {
				st := r.StepsToOptimum
				ms.StepsToOptimum = append(ms.StepsToOptimum, &st)
				ms.Reached++
			} else {
				ms.StepsToOptimum = append(ms.StepsToOptimum, nil)
			}
			if n := len(r.BestSoFar); n > 0 {
				finals = append(finals, r.BestSoFar[n-1])
			}
		}
		fm, fsd := uq.MeanSD(finals)
		ms.FinalMean, ms.FinalSD = jsonfloat.Float(fm), jsonfloat.Float(fsd)
		s.Methods[m] = ms
	}
	return s
}

// WriteJSON writes s as indented JSON.
func (s *Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// WriteCSV writes one row per method, seed and step: method, seed, step,
// value, best_so_far. Step 0 is the initial design (value = its best); step
// s >= 1 is the s-th acquisition.
func WriteCSV(w io.Writer, order []string, runs map[string][]*Result, init int) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"method", "seed", "step", "value", "best_so_far"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, m := range order {
		for _, r := range runs[m] {
			seed := strconv.FormatUint(r.Seed, 10)
			cw.Write([]string{m, seed, "0", g(r.InitialBest), g(r.InitialBest)})
			for s, b := range r.BestSoFar {
				cw.Write([]string{m, seed, strconv.Itoa(s + 1), g(r.Y[init+s]), g(b)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteFiles writes results.json (WriteJSON), results.csv (WriteCSV of the
// runs summarized) and the figure best_so_far.png, best_so_far.svg (Plot)
// into dir.
func (s *Summary) WriteFiles(dir string) error {
	if err := atomicfile.WriteNamed(filepath.Join(dir, "results.json"), s.WriteJSON); err != nil {
		return err
	}
	csv := func(w io.Writer) error { return WriteCSV(w, s.Order, s.runs, s.Init) }
	if err := atomicfile.WriteNamed(filepath.Join(dir, "results.csv"), csv); err != nil {
		return err
	}
	return s.Plot(filepath.Join(dir, "best_so_far.png"), filepath.Join(dir, "best_so_far.svg"))
}

// Curve returns, per step 0..Steps (0 = initial design), the mean over the
// method's seeds of the best value so far and its standard error
// sd/sqrt(n) (0 for one seed).
func (s *Summary) Curve(method string) (mean, se []float64) {
	ms := s.Methods[method]
	n := len(ms.BestSoFar)
	for step := 0; step <= s.Steps; step++ {
		v := make([]float64, 0, n)
		for i := range ms.BestSoFar {
			if step == 0 {
				v = append(v, ms.InitialBest[i])
			} else if step-1 < len(ms.BestSoFar[i]) {
				v = append(v, ms.BestSoFar[i][step-1])
			}
		}
		m, sd := uq.MeanSD(v)
		mean = append(mean, m)
		if len(v) > 1 {
			se = append(se, sd/math.Sqrt(float64(len(v))))
		} else {
			se = append(se, 0)
		}
	}
	return mean, se
}

// Plot draws the mean best value so far per method against the number of
// acquisitions, with a band of ± one standard error, and the global maximum
// as a dashed line (like the paper's Figs. 2-3), and saves it to each path
// (the extension, .png or .svg, picks the format).
func (s *Summary) Plot(paths ...string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s (d=%d): best value so far, mean ± s.e. over %d seeds", s.Function, s.Dim, len(s.Seeds))
	p.X.Label.Text = "acquisitions after the initial design"
	p.Y.Label.Text = "best value so far"
	p.Legend.Top = false
	p.Legend.Left = false
	// Integer step labels (the default ticker prints 25.00).
	p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
		ticks := plot.DefaultTicks{}.Ticks(min, max)
		for i := range ticks {
			if ticks[i].Label != "" {
				ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
			}
		}
		return ticks
	})
	lo, hi := float64(s.GlobalMax), float64(s.GlobalMax)
	for i, m := range s.Order {
		mean, se := s.Curve(m)
		for k := range mean {
			lo, hi = math.Min(lo, mean[k]-se[k]), math.Max(hi, mean[k]+se[k])
		}
		c := plotutil.Color(i)
		poly, l, err := plotstyle.MeanBand(0, mean, se, c)
		if err != nil {
			return fmt.Errorf("smo: plot: %w", err)
		}
		p.Add(poly, l)
		p.Legend.Add(m, l)
	}
	opt, err := plotter.NewLine(plotter.XYs{{X: 0, Y: float64(s.GlobalMax)}, {X: float64(s.Steps), Y: float64(s.GlobalMax)}})
	if err != nil {
		return fmt.Errorf("smo: plot: %w", err)
	}
	opt.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	opt.Color = color.Gray{Y: 90}
	p.Add(opt)
	p.Legend.Add("global max", opt)
	// Head room so the global-maximum line does not sit on the frame.
	pad := 0.05 * (hi - lo)
	if !(pad > 0) {
		pad = 0.05
	}
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	for _, path := range paths {
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, path); err != nil {
			return fmt.Errorf("smo: plot: %w", err)
		}
	}
	return nil
}

// WriteTable writes the function's line, then one line per method: seeds
// that reached the optimum, their steps ("-" for a seed that did not), the
// final best value mean ± sample sd, and the mean wall time per run.
func (s *Summary) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s d=%d, global max %.10g, %d initial points, %d steps, seeds %v\n", s.Function, s.Dim, s.GlobalMax, s.Init, s.Steps, s.Seeds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "method\treached\tsteps to optimum\tfinal best (mean ± sd)\twall/run")
	for _, m := range s.Order {
		ms := s.Methods[m]
		steps := make([]string, len(ms.StepsToOptimum))
		for i, p := range ms.StepsToOptimum {
			steps[i] = "-"
			if p != nil {
				steps[i] = fmt.Sprint(*p)
			}
		}
		var wall float64
		for _, v := range ms.WallSeconds {
			wall += v / float64(len(ms.WallSeconds))
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%s\t%.1fs\n", m, ms.Reached, len(ms.BestSoFar), strings.Join(steps, ","), moments.Format(float64(ms.FinalMean), float64(ms.FinalSD), 4, "n/a"), wall)
	}
	return tw.Flush()
}
