package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/plotstyle"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/ood"
	"github.com/deup-screening/deup/uq"
)

func oodCommand() *Command {
	return &Command{Name: "ood", Short: "reject difficult pairs: DEUP on drugs the model never saw, against the baselines (paper §5.3.2)", Run: runOOD}
}

const oodDefaultMethods = "deup-dv,deup-d,deup-v,deup-xdv,deup-dvb,deup-twohead,ensemble,mcdropout,due"

const oodDesc = `Which predicted pairs should not be trusted because they involve drugs unlike
anything measured? For each seed, holds out whole clusters of similar drugs
(Butina clusters of the Morgan fingerprints, Tanimoto distance cutoff 0.6)
until --holdout-drugs of the drugs are out; the pairs of two kept drugs are
split 70/30 into training and in-distribution test pairs; the pairs with one
or two held-out drugs are the out-of-distribution test pairs. Every method
trains on the same training pairs (15 % of them set aside for early
stopping) and is scored on the same test pairs.

DEUP (paper Algorithm 2 with group folds): the clusters of the training
drugs are split into --folds folds; for each fold the main predictor (the
MC-Dropout two-tower network: mean, and the variance of its passes) is
trained without the fold's drugs, and its squared errors on the pairs with a
fold drug (out of distribution), on held-out pairs of the other drugs (in
distribution) and, for the b feature, on its own training pairs, train the
error predictor (a small MLP on log losses) from the features:
x the pair (the sum of its drugs' first 8 principal components of the
fingerprints), d the log-density (a Tanimoto kernel density of each drug
among the training drugs, h = 0.1, summed over the two drugs), v the log
variance of the MC-Dropout passes, b the seen bit. deup-<features> names one
error predictor (for example deup-dv, deup-xdvb); they share the trainings.

Baselines: deup-twohead (the two-head DEUP network of deup train, sigma
from its out-of-sample head), ensemble (3 MSE members), mcdropout (the
variance of the same network DEUP uses), due; density (-log q alone) on
request.

Scores, mean and sample sd over seeds: srcc (Spearman of each method's
uncertainty with its own squared error on the test pairs), auroc (the
uncertainty separating out-of-distribution pairs from in-distribution ones),
rejection_auc (the mean, over rejected fractions 0 to 0.99, of the kept
pairs' mean squared error divided by that of all pairs: 1 is no better than
random, lower is better); srcc and auroc on the in-distribution pairs with
the one-unseen pairs, and with the two-unseen pairs, apart. On the synthetic
default also srcc_excess_risk: the Spearman correlation with the true excess
risk (mu - true mean)^2.

Writes into --out: results.json, results.md (the table), rejection.png and
rejection.svg (the rejection curves, mean over seeds). n_in and n_out in
results.json are test pairs summed over seeds.

Without --screen, runs on the embedded synthetic default screen (its first
cell line).

Next: compare with the measured tables in docs/ood.md; deup bench --split-by
drugs scores the same question on the 40/30/30 benchmark.`

func runOOD(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup ood", "deup ood [--screen DIR] [--holdout-drugs 0.2] [--folds 5] [--seeds 3] [--methods "+oodDefaultMethods+"] [--out DIR]", oodDesc)
	screenDir := fs.String("screen", "", "screen directory (default: the synthetic default screen)")
	holdout := fs.Float64("holdout-drugs", 0.2, "fraction of the drugs held out, by whole clusters")
	folds := fs.Int("folds", 5, "group folds of DEUP's Algorithm 2")
	seeds := fs.Int("seeds", 3, "number of seeds: 1..N")
	methods := fs.String("methods", oodDefaultMethods, "comma-separated methods: deup-<subset of xdvb>, deup-twohead, ensemble, mcdropout, due, density")
	out := fs.String("out", "ood-out", "output directory")
	cellLine := fs.String("cell-line", "", "cell line (default: the screen's first)")
	score := fs.String("score", "", "score column (default: the first)")
	epochs := fs.Int("epochs", 0, "maximum epochs per training (0: the default, 300)")
	patience := fs.Int("patience", 10, "early-stopping patience of every network (10, not bench's 25, to keep 3 seeds on PC-3 within 5 minutes on 2 cores)")
	members := fs.Int("members", 3, "ensemble members")
	passes := fs.Int("passes", 30, "MC-Dropout passes (the v feature and the mcdropout row)")
	workers := fs.Int("workers", 2, "trainings run at the same time (the results do not depend on it)")
	noFigs := fs.Bool("no-figures", false, "do not draw the figures")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 0, 0); err != nil {
		return err
	}
	switch {
	case !(*holdout > 0 && *holdout < 1):
		return fmt.Errorf("%w: --holdout-drugs %v, want in (0, 1)", ErrUsage, *holdout)
	case *folds < 2:
		return fmt.Errorf("%w: --folds %d, want ≥ 2", ErrUsage, *folds)
	case *seeds < 1:
		return fmt.Errorf("%w: --seeds %d, want ≥ 1", ErrUsage, *seeds)
	case *members < 1 || *passes < 2 || *workers < 1:
		return fmt.Errorf("%w: --members %d, --passes %d, --workers %d: want ≥ 1, ≥ 2, ≥ 1", ErrUsage, *members, *passes, *workers)
	}
	set := oodSettings{
		HoldOut: *holdout, InTest: 0.3, Folds: *folds,
		Model:   model.Config{MaxEpochs: *epochs, Patience: *patience},
		Members: *members, Passes: *passes, Dropout: 0.1,
		Cutoff: 0.6, Bandwidth: 0.1, PCADims: 8, Workers: *workers,
	}
	set.DUE.MaxEpochs, set.DUE.Patience = *epochs, *patience
	for _, m := range strings.Split(*methods, ",") {
		if m = strings.TrimSpace(m); m != "" {
			set.Methods = append(set.Methods, m)
		}
	}
	if err := checkOODMethods(set.Methods); err != nil {
		return err
	}
	for s := 1; s <= *seeds; s++ {
		set.Seeds = append(set.Seeds, uint64(s))
	}
	start := time.Now()
	sc, name, err := loadScreen(*screenDir)
	if err != nil {
		return err
	}
	if sc, err = oneCellLine(sc, *cellLine); err != nil {
		return err
	}
	si, err := scoreIndex(sc, *score)
	if err != nil {
		return err
	}
	sc, f, _, err := buildFeatures(env, sc, *screenDir, features.Config{Kind: features.Fingerprint})
	if err != nil {
		return err
	}
	d, err := model.NewDataset(sc, f, si)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	x, err := newOODExperiment(sc, d, set)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "screen %s, cell line %s, score %s: %d drugs in %d clusters, %d pairs; %d seeds, %d folds, methods %s\n",
		name, sc.CellLines[0], sc.ScoreNames[si], len(sc.Drugs), x.nClust, len(d.Pairs), *seeds, *folds, strings.Join(set.Methods, ","))
	bar := progress.New(env.Stderr, "ood", *seeds*oodTicks(set))
	results, err := x.run(ctx, func(done int, detail string) { bar.Set(done, detail+" done") })
	bar.Finish()
	if err != nil {
		return err
	}
	rep := scoreOOD(results, set.Methods, sc.Truth)
	rep.Screen = name
	rep.WallSeconds = time.Since(start).Seconds()
	if err := rep.writeMarkdown(env.Stdout); err != nil {
		return err
	}
	written := []string{}
	for _, w := range []struct {
		name string
		fn   func(io.Writer) error
	}{{"results.json", rep.writeJSON}, {"results.md", rep.writeMarkdown}} {
		path := filepath.Join(*out, w.name)
		if err := writeFile(path, w.fn); err != nil {
			return err
		}
		written = append(written, path)
	}
	if !*noFigs {
		paths := []string{filepath.Join(*out, "rejection.png"), filepath.Join(*out, "rejection.svg")}
		if err := rep.plotRejection(paths...); err != nil {
			return err
		}
		written = append(written, paths...)
	}
	fmt.Fprintf(env.Stdout, "time: %s\n", rep.timing(results))
	fmt.Fprintf(env.Stdout, "wrote %s\n", strings.Join(written, ", "))
	fmt.Fprintf(env.Stdout, "total wall time %.1f s%s\n", rep.WallSeconds, usageNote())
	return nil
}

// oodTicks is the number of progress ticks (finished trainings) per seed.
func oodTicks(set oodSettings) int {
	_, sets, _ := oodSets(set.Methods)
	n := 0
	if len(sets) > 0 || slices.Contains(set.Methods, oodMCDropout) || slices.Contains(set.Methods, oodDensity) {
		n += set.Folds + 1
	}
	if slices.Contains(set.Methods, oodEnsemble) {
		n += set.Members
	}
	for _, m := range []string{oodDUE, oodTwoHead} {
		if slices.Contains(set.Methods, m) {
			n++
		}
	}
	return n
}

// oodStat is a mean and sample sd over seeds.
type oodStat struct {
	Mean jsonfloat.Float `json:"mean"`
	SD   jsonfloat.Float `json:"sd"`
}

func statOf(x []float64) oodStat {
	m, sd := uq.MeanSD(x)
	return oodStat{jsonfloat.Float(m), jsonfloat.Float(sd)}
}

// oodMethodJSON is one method's entry of results.json.
type oodMethodJSON struct {
	SRCC           oodStat  `json:"srcc"`
	AUROC          oodStat  `json:"auroc"`
	RejectionAUC   oodStat  `json:"rejection_auc"`
	SRCCOneUnseen  oodStat  `json:"srcc_one_unseen"`
	SRCCTwoUnseen  oodStat  `json:"srcc_two_unseen"`
	AUROCOneUnseen oodStat  `json:"auroc_one_unseen"`
	AUROCTwoUnseen oodStat  `json:"auroc_two_unseen"`
	SRCCExcessRisk *oodStat `json:"srcc_excess_risk,omitempty"`
	RMSE           oodStat  `json:"rmse"`
	TrainSeconds   oodStat  `json:"train_seconds"`
}

// oodReport is the scored run.
type oodReport struct {
	Screen      string
	Methods     []string
	Seeds       []uint64
	PerSeed     map[string][]oodScores
	Curves      map[string][]float64 // mean rejection curve over seeds
	NIn, NOut   int
	NOne, NTwo  int
	WallSeconds float64
	HasTruth    bool
}

type oodScores struct {
	SRCC, AUROC, RejAUC    float64
	SRCCOne, SRCCTwo       float64
	AUROCOne, AUROCTwo     float64
	SRCCExcess, RMSE, Secs float64
}

// scoreOOD scores every method on every seed. Each method's loss is the
// squared error of its own mean.
func scoreOOD(results []*oodSeedResult, methods []string, truth *drugcomb.Truth) *oodReport {
	rep := &oodReport{Methods: methods, PerSeed: map[string][]oodScores{}, Curves: map[string][]float64{}, HasTruth: truth != nil}
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
				dv := mu[k] - r.y(i)
				loss[k] = dv * dv
				se += loss[k]
			}
			sc := ood.Score(u, loss, isOOD)
			s := oodScores{SRCC: sc.SRCC, AUROC: sc.AUROC, RejAUC: sc.RejectionAUC, RMSE: math.Sqrt(se / float64(len(mu))), SRCCExcess: math.NaN()}
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

func (r *oodSeedResult) y(i int) float64 { return r.targets[i] }

func (rep *oodReport) stats(m string, get func(oodScores) float64) oodStat {
	var x []float64
	for _, s := range rep.PerSeed[m] {
		x = append(x, get(s))
	}
	return statOf(x)
}

func (rep *oodReport) writeJSON(w io.Writer) error {
	type out struct {
		Methods     map[string]oodMethodJSON `json:"methods"`
		Order       []string                 `json:"method_order"`
		NIn         int                      `json:"n_in"`
		NOut        int                      `json:"n_out"`
		NOneUnseen  int                      `json:"n_one_unseen"`
		NTwoUnseen  int                      `json:"n_two_unseen"`
		Seeds       []uint64                 `json:"seeds"`
		Screen      string                   `json:"screen"`
		WallSeconds jsonfloat.Float          `json:"wall_seconds"`
	}
	o := out{Methods: map[string]oodMethodJSON{}, Order: rep.Methods, NIn: rep.NIn, NOut: rep.NOut, NOneUnseen: rep.NOne, NTwoUnseen: rep.NTwo, Seeds: rep.Seeds, Screen: rep.Screen, WallSeconds: jsonfloat.Float(rep.WallSeconds)}
	for _, m := range rep.Methods {
		j := oodMethodJSON{
			SRCC:           rep.stats(m, func(s oodScores) float64 { return s.SRCC }),
			AUROC:          rep.stats(m, func(s oodScores) float64 { return s.AUROC }),
			RejectionAUC:   rep.stats(m, func(s oodScores) float64 { return s.RejAUC }),
			SRCCOneUnseen:  rep.stats(m, func(s oodScores) float64 { return s.SRCCOne }),
			SRCCTwoUnseen:  rep.stats(m, func(s oodScores) float64 { return s.SRCCTwo }),
			AUROCOneUnseen: rep.stats(m, func(s oodScores) float64 { return s.AUROCOne }),
			AUROCTwoUnseen: rep.stats(m, func(s oodScores) float64 { return s.AUROCTwo }),
			RMSE:           rep.stats(m, func(s oodScores) float64 { return s.RMSE }),
			TrainSeconds:   rep.stats(m, func(s oodScores) float64 { return s.Secs }),
		}
		if rep.HasTruth {
			st := rep.stats(m, func(s oodScores) float64 { return s.SRCCExcess })
			j.SRCCExcessRisk = &st
		}
		o.Methods[m] = j
	}
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func fmtStat(s oodStat) string {
	if math.IsNaN(float64(s.Mean)) {
		return "–"
	}
	if math.IsNaN(float64(s.SD)) {
		return fmt.Sprintf("%.3f", float64(s.Mean))
	}
	return fmt.Sprintf("%.3f ± %.3f", float64(s.Mean), float64(s.SD))
}

// writeMarkdown writes the table: one row per method.
func (rep *oodReport) writeMarkdown(w io.Writer) error {
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
		for _, g := range []func(oodScores) float64{
			func(s oodScores) float64 { return s.SRCC }, func(s oodScores) float64 { return s.AUROC },
			func(s oodScores) float64 { return s.RejAUC }, func(s oodScores) float64 { return s.SRCCOne },
			func(s oodScores) float64 { return s.SRCCTwo }, func(s oodScores) float64 { return s.AUROCOne },
			func(s oodScores) float64 { return s.AUROCTwo }, func(s oodScores) float64 { return s.RMSE },
		} {
			cells = append(cells, fmtStat(rep.stats(m, g)))
		}
		if rep.HasTruth {
			cells = append(cells, fmtStat(rep.stats(m, func(s oodScores) float64 { return s.SRCCExcess })))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// timing says where the time went, summed over seeds.
func (rep *oodReport) timing(results []*oodSeedResult) string {
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
	for _, k := range []string{oodEnsemble, oodDUE, oodTwoHead} {
		if v, ok := jobs[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %.1f s", k, v))
		}
	}
	return strings.Join(parts, ", ") + " (training seconds summed over seeds; trainings run in parallel)"
}

// plotRejection draws the mean rejection curve of every method.
func (rep *oodReport) plotRejection(paths ...string) error {
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
