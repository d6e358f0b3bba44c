package drugs

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/deup-screening/deup/internal/moments"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/plotstyle"
	"github.com/deup-screening/deup/ood"
	"github.com/deup-screening/deup/uq"
)

// Stat is a mean and sample sd over seeds.
type Stat = jsonfloat.MeanSD

func statOf(x []float64) Stat { return jsonfloat.NewMeanSD(uq.MeanSD(x)) }

// methodJSON is one method's entry of results.json.
type methodJSON struct {
	SRCC           Stat  `json:"srcc"`
	AUROC          Stat  `json:"auroc"`
	RejectionAUC   Stat  `json:"rejection_auc"`
	SRCCOneUnseen  Stat  `json:"srcc_one_unseen"`
	SRCCTwoUnseen  Stat  `json:"srcc_two_unseen"`
	AUROCOneUnseen Stat  `json:"auroc_one_unseen"`
	AUROCTwoUnseen Stat  `json:"auroc_two_unseen"`
	SRCCExcessRisk *Stat `json:"srcc_excess_risk,omitempty"`
	RMSE           Stat  `json:"rmse"`
	TrainSeconds   Stat  `json:"train_seconds"`
	// SigmaEpistemic: unseen0, unseen1, unseen2, zero_fraction,
	// small_fraction (EpiNames), as deup bench's results.json; absent for a
	// method without one.
	SigmaEpistemic map[string]Stat `json:"sigma_epistemic,omitempty"`
}

// EpiNames are the keys of results.json's methods.NAME.sigma_epistemic,
// those of deup bench (bench.EpiNames): the mean σ_epistemic of the test
// pairs with 0, 1 and 2 held-out drugs, the share of test pairs with
// σ_epistemic = 0, and the share with σ_epistemic below a tenth of
// σ_total (√u: a method's total variance or predicted loss).
func EpiNames() []string {
	return []string{"unseen0", "unseen1", "unseen2", "zero_fraction", "small_fraction"}
}

// epiSummary is Scores.Epi of one method's σ_epistemic epi (total
// variance u) on test pairs with unseen counts unseen, in EpiNames' order
// (NaN where a group is empty, all NaN without epi).
func epiSummary(epi, u []float64, unseen []int8) [5]float64 {
	out := [5]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	if len(epi) == 0 {
		return out
	}
	var sum [3]float64
	var n [3]int
	zeros, small := 0, 0
	for k, e := range epi {
		sum[unseen[k]] += e
		n[unseen[k]]++
		if !(e > 0) {
			zeros++
		}
		if !(e > 0) || e < 0.1*math.Sqrt(max(u[k], 0)) {
			small++
		}
	}
	for g := range sum {
		if n[g] > 0 {
			out[g] = sum[g] / float64(n[g])
		}
	}
	out[3] = float64(zeros) / float64(len(epi))
	out[4] = float64(small) / float64(len(epi))
	return out
}

// Report is the scored run.
type Report struct {
	Screen      string
	Methods     []string
	Seeds       []uint64
	PerSeed     map[string][]Scores
	Curves      map[string][]float64 // mean rejection curve over seeds
	NIn, NOut   int
	NOne, NTwo  int
	WallSeconds float64
	HasTruth    bool
}

type Scores struct {
	// Epi is the σ_epistemic summary, in EpiNames' order (NaN without one).
	Epi                    [5]float64
	SRCC, AUROC, RejAUC    float64
	SRCCOne, SRCCTwo       float64
	AUROCOne, AUROCTwo     float64
	SRCCExcess, RMSE, Secs float64
}

// Score scores every method on every seed. Each method's loss is the
// squared error of its own mean.
func Score(results []*SeedResult, methods []string, truth *drugcomb.Truth) *Report {
	rep := &Report{Methods: methods, PerSeed: map[string][]Scores{}, Curves: map[string][]float64{}, HasTruth: truth != nil}
	for _, r := range results {
		rep.Seeds = append(rep.Seeds, r.Seed)
		isOOD := make([]bool, len(r.Test))
		var in, one, two []int // positions in r.Test
		for k, u := range r.Unseen {
			isOOD[k] = u > 0
			switch u {
			case 0:
				in = append(in, k)
			case 1:
				one = append(one, k)
			default:
				two = append(two, k)
			}
		}
		rep.NIn += len(in)
		rep.NOut += len(one) + len(two)
		rep.NOne += len(one)
		rep.NTwo += len(two)
		for _, m := range methods {
			mu, u := r.Mu[m], r.U[m]
			loss := make([]float64, len(mu))
			var se float64
			for k, i := range r.Test {
				dv := mu[k] - r.Y(i)
				loss[k] = dv * dv
				se += loss[k]
			}
			sc := ood.Score(u, loss, isOOD)
			s := Scores{SRCC: sc.SRCC, AUROC: sc.AUROC, RejAUC: sc.RejectionAUC, RMSE: math.Sqrt(se / float64(len(mu))), SRCCExcess: math.NaN(), Epi: epiSummary(r.Epi[m], u, r.Unseen)}
			s.SRCCOne, s.AUROCOne = subsetScores(u, loss, isOOD, in, one)
			s.SRCCTwo, s.AUROCTwo = subsetScores(u, loss, isOOD, in, two)
			if truth != nil {
				exc := make([]float64, len(mu))
				for k, i := range r.Test {
					dv := mu[k] - truth.Mean[i]
					exc[k] = dv * dv
				}
				s.SRCCExcess = uq.SRCC(u, exc)
			}
			job := m
			if _, ok := r.Seconds[m]; !ok {
				job = "deup" // the deup-* rows, mcdropout and density share its trainings
			}
			s.Secs = r.Seconds[job]
			rep.PerSeed[m] = append(rep.PerSeed[m], s)
			c := ood.RejectionCurve(u, loss)
			if rep.Curves[m] == nil {
				rep.Curves[m] = make([]float64, len(c))
			}
			for j := range c {
				rep.Curves[m][j] += c[j] / float64(len(results))
			}
		}
	}
	return rep
}

// subsetScores is the SRCC on the pairs at positions sub and the AUROC of
// in against sub (NaN when sub has fewer than 2 pairs).
func subsetScores(u, loss []float64, isOOD []bool, in, sub []int) (srcc, auroc float64) {
	if len(sub) < 2 {
		return math.NaN(), math.NaN()
	}
	su, sl := make([]float64, len(sub)), make([]float64, len(sub))
	for k, i := range sub {
		su[k], sl[k] = u[i], loss[i]
	}
	srcc = uq.SRCC(su, sl)
	var au []float64
	var pos []bool
	for _, i := range in {
		au, pos = append(au, u[i]), append(pos, false)
	}
	for _, i := range sub {
		au, pos = append(au, u[i]), append(pos, true)
	}
	return srcc, uq.AUROC(au, pos)
}

func (rep *Report) stats(m string, get func(Scores) float64) Stat {
	var x []float64
	for _, s := range rep.PerSeed[m] {
		x = append(x, get(s))
	}
	return statOf(x)
}

func (rep *Report) WriteJSON(w io.Writer) error {
	type out struct {
		Methods     map[string]methodJSON `json:"methods"`
		Order       []string              `json:"method_order"`
		NIn         int                   `json:"n_in"`
		NOut        int                   `json:"n_out"`
		NOneUnseen  int                   `json:"n_one_unseen"`
		NTwoUnseen  int                   `json:"n_two_unseen"`
		Seeds       []uint64              `json:"seeds"`
		Screen      string                `json:"screen"`
		WallSeconds jsonfloat.Float       `json:"wall_seconds"`
	}
	o := out{Methods: map[string]methodJSON{}, Order: rep.Methods, NIn: rep.NIn, NOut: rep.NOut, NOneUnseen: rep.NOne, NTwoUnseen: rep.NTwo, Seeds: rep.Seeds, Screen: rep.Screen, WallSeconds: jsonfloat.Float(rep.WallSeconds)}
	for _, m := range rep.Methods {
		j := methodJSON{
			SRCC:           rep.stats(m, func(s Scores) float64 { return s.SRCC }),
			AUROC:          rep.stats(m, func(s Scores) float64 { return s.AUROC }),
			RejectionAUC:   rep.stats(m, func(s Scores) float64 { return s.RejAUC }),
			SRCCOneUnseen:  rep.stats(m, func(s Scores) float64 { return s.SRCCOne }),
			SRCCTwoUnseen:  rep.stats(m, func(s Scores) float64 { return s.SRCCTwo }),
			AUROCOneUnseen: rep.stats(m, func(s Scores) float64 { return s.AUROCOne }),
			AUROCTwoUnseen: rep.stats(m, func(s Scores) float64 { return s.AUROCTwo }),
			RMSE:           rep.stats(m, func(s Scores) float64 { return s.RMSE }),
			TrainSeconds:   rep.stats(m, func(s Scores) float64 { return s.Secs }),
		}
		if rep.HasTruth {
			st := rep.stats(m, func(s Scores) float64 { return s.SRCCExcess })
			j.SRCCExcessRisk = &st
		}
		if rep.hasEpi(m) {
			j.SigmaEpistemic = map[string]Stat{}
			for k, name := range EpiNames() {
				j.SigmaEpistemic[name] = rep.finiteStat(m, func(s Scores) float64 { return s.Epi[k] })
			}
		}
		o.Methods[m] = j
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(o)
}

// hasEpi reports a σ_epistemic summary of method m on some seed.
func (rep *Report) hasEpi(m string) bool {
	for _, s := range rep.PerSeed[m] {
		if !math.IsNaN(s.Epi[3]) {
			return true
		}
	}
	return false
}

// finiteStat is statOf over the finite values (a seed whose split has no
// pair of a group is left out).
func (rep *Report) finiteStat(m string, get func(Scores) float64) Stat {
	var x []float64
	for _, s := range rep.PerSeed[m] {
		if v := get(s); !math.IsNaN(v) {
			x = append(x, v)
		}
	}
	if len(x) == 0 {
		return jsonfloat.NewMeanSD(math.NaN(), math.NaN())
	}
	return statOf(x)
}

func fmtStat(s Stat) string {
	return moments.Format(float64(s.Mean), float64(s.SD), 3, "–")
}

// WriteMarkdown writes the table: one row per method.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "\n%s: %d seeds; test pairs per seed: %.0f in distribution, %.0f out (%.0f with one unseen drug, %.0f with two); mean ± sd over seeds\n\n",
		rep.Screen, len(rep.Seeds), float64(rep.NIn)/float64(len(rep.Seeds)), float64(rep.NOut)/float64(len(rep.Seeds)), float64(rep.NOne)/float64(len(rep.Seeds)), float64(rep.NTwo)/float64(len(rep.Seeds)))
	head := "| method | srcc | auroc | rejection_auc | srcc_one_unseen | srcc_two_unseen | auroc_one_unseen | auroc_two_unseen | rmse |"
	sep := "|---|---|---|---|---|---|---|---|---|"
	if rep.HasTruth {
		head += " srcc_excess_risk |"
		sep += "---|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, sep)
	for _, m := range rep.Methods {
		cells := []string{m}
		for _, g := range []func(Scores) float64{
			func(s Scores) float64 { return s.SRCC }, func(s Scores) float64 { return s.AUROC },
			func(s Scores) float64 { return s.RejAUC }, func(s Scores) float64 { return s.SRCCOne },
			func(s Scores) float64 { return s.SRCCTwo }, func(s Scores) float64 { return s.AUROCOne },
			func(s Scores) float64 { return s.AUROCTwo }, func(s Scores) float64 { return s.RMSE },
		} {
			cells = append(cells, fmtStat(rep.stats(m, g)))
		}
		if rep.HasTruth {
			cells = append(cells, fmtStat(rep.stats(m, func(s Scores) float64 { return s.SRCCExcess })))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	var epi []string
	for _, m := range rep.Methods {
		if rep.hasEpi(m) {
			epi = append(epi, m)
		}
	}
	if len(epi) > 0 {
		fmt.Fprintf(w, "\nsigma_epistemic: mean over the test pairs with 0, 1, 2 held-out drugs, and the share of test pairs with sigma_epistemic = 0 and below 0.1 sigma_total (deup-<set>: sqrt of the predicted loss, no aleatoric estimate); mean ± sd over seeds\n\n")
		fmt.Fprintf(w, "| method | %s |\n|---|---|---|---|---|---|\n", strings.Join(EpiNames(), " | "))
		for _, m := range epi {
			cells := []string{m}
			for k := range EpiNames() {
				cells = append(cells, fmtStat(rep.finiteStat(m, func(s Scores) float64 { return s.Epi[k] })))
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// Timing says where the time went, summed over seeds.
func (rep *Report) Timing(results []*SeedResult) string {
	var folds, final, errs float64
	jobs := map[string]float64{}
	for _, r := range results {
		folds += r.DEUPTime[0]
		final += r.DEUPTime[1]
		errs += r.DEUPTime[2]
		for k, v := range r.Seconds {
			jobs[k] += v
		}
	}
	parts := []string{fmt.Sprintf("DEUP folds %.1f s, final network %.1f s, error predictors %.1f s", folds, final, errs)}
	for _, k := range []string{Ensemble, DUE, TwoHead} {
		if v, ok := jobs[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %.1f s", k, v))
		}
	}
	return strings.Join(parts, ", ") + " (training seconds summed over seeds; trainings run in parallel)"
}

// WriteFiles writes results.json, results.md and, when figures, the
// rejection figures (rejection.png, rejection.svg) into dir, and returns
// their paths.
func (rep *Report) WriteFiles(dir string, figures bool) ([]string, error) {
	written := []string{}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{{"results.json", rep.WriteJSON}, {"results.md", rep.WriteMarkdown}} {
		path := filepath.Join(dir, f.name)
		if err := atomicfile.WriteNamed(path, f.write); err != nil {
			return nil, err
		}
		written = append(written, path)
	}
	if figures {
		paths := []string{filepath.Join(dir, "rejection.png"), filepath.Join(dir, "rejection.svg")}
		if err := rep.PlotRejection(paths...); err != nil {
			return nil, err
		}
		written = append(written, paths...)
	}
	return written, nil
}

// PlotRejection draws the mean rejection curve of every method.
func (rep *Report) PlotRejection(paths ...string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: rejecting the most uncertain pairs (mean over %d seeds)", rep.Screen, len(rep.Seeds))
	p.X.Label.Text = "fraction of test pairs rejected"
	p.Y.Label.Text = "mean squared error of the kept pairs / of all pairs"
	p.Legend.Top = false
	p.Legend.Left = true
	fr := ood.RejectionFractions()
	for i, m := range rep.Methods {
		c := rep.Curves[m]
		pts := make(plotter.XYs, 0, len(c))
		for j, v := range c {
			if !math.IsNaN(v) {
				pts = append(pts, plotter.XY{X: fr[j], Y: v})
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("ood: plot: %w", err)
		}
		l.Color = plotstyle.Color(i)
		l.Width = vg.Points(1.5)
		if i >= plotstyle.NumColors {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add(m, l)
	}
	for _, path := range paths {
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, path); err != nil {
			return fmt.Errorf("ood: plot: %w", err)
		}
	}
	return nil
}
