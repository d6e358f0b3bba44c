package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/model/due"
	"github.com/deup-screening/deup/uq"
)

// The built-in trained methods' names, in table order (Config.Registry
// may add others).
const (
	DEUP        = methods.DEUP
	Ensemble    = methods.Ensemble
	EnsembleNLL = methods.EnsembleNLL
	MCDropout   = methods.MCDropout
	DUE         = methods.DUE
	// Constant is the reference row derived from DEUP (see the package doc).
	Constant = "constant"
)

// Config of a benchmark run. Zero values mean the defaults shown.
type Config struct {
	Methods []string // trained methods, in table order; default Registry's BenchDefaults (deup, ensemble, mcdropout, due)
	// Registry builds the methods by name and ranks their trainings;
	// nil means methods.Default().
	Registry *methods.Registry
	Seeds    []uint64   // one split and one training per seed; default 1, 2, 3
	Fracs    [3]float64 // train/validation/test fractions; default 0.4/0.3/0.3
	Model    model.Config
	DEUP     deupnet.Options // DEUP's σ path
	DUE      due.Config      // Seed is overridden per seed
	// Members of the ensembles; default 3 (the paper).
	Members int
	// Passes of MC-Dropout at prediction; default 3 (the paper). ExtraPasses
	// adds a row with that many passes of the same network; default 30,
	// negative for none.
	Passes, ExtraPasses int
	Dropout             float64 // MC-Dropout rate; default 0.1
	// Workers is how many trainings run at the same time (each a method
	// on a seed's split, or one member of an ensemble); default 1. The
	// results do not depend on it: every training is seeded and results
	// are merged in table order. The train-seconds column is wall time
	// (for an ensemble the sum of its members'), so with more than one
	// worker it includes time shared with the other trainings.
	Workers int
	// Alpha is the miscoverage of the conformal intervals scored for
	// every row (coverage 1 − Alpha); default 0.1.
	Alpha float64
	// Split, when set, makes each seed's split instead of SplitRandom with
	// Fracs (for example drugcomb.SplitByDrug: test pairs with a held-out
	// drug).
	Split func(seed uint64) (drugcomb.Split, error)
	// Folds, when set, makes K-fold cross-validation of each seed instead
	// of one split: it returns the seed's K splits (FoldSplitter), each
	// trained and scored as a run of its own (Result.Runs); Split and
	// Fracs are then unused.
	Folds func(seed uint64) ([]drugcomb.Split, error)
	// Protocol names the split for results.json (written with Folds).
	Protocol Protocol
	// PerLineReference adds the per-line reference row (PerLine) on a
	// dataset with several cell lines: one DEUP per line, trained on that
	// line alone, on the same split and scored on the same test pairs.
	PerLineReference bool
}

func (c Config) withDefaults() Config {
	if c.Registry == nil {
		c.Registry = methods.Default()
	}
	if len(c.Methods) == 0 {
		c.Methods = c.Registry.BenchDefaults()
	}
	if len(c.Seeds) == 0 {
		c.Seeds = []uint64{1, 2, 3}
	}
	if c.Fracs == ([3]float64{}) {
		c.Fracs = [3]float64{0.4, 0.3, 0.3}
	}
	if c.Members == 0 {
		c.Members = 3
	}
	if c.Passes == 0 {
		c.Passes = 3
	}
	if c.ExtraPasses == 0 {
		c.ExtraPasses = 30
	}
	if c.Dropout == 0 {
		c.Dropout = 0.1
	}
	if c.Workers <= 0 {
		c.Workers = 1
	}
	if c.Alpha == 0 {
		c.Alpha = 0.1
	}
	return c
}

// Validate checks the configuration.
func (c Config) Validate() error {
	c = c.withDefaults()
	seen := map[string]bool{}
	for _, m := range c.Methods {
		if _, ok := c.Registry.Lookup(m); !ok {
			return fmt.Errorf("bench: unknown method %q (known: %s)", m, strings.Join(c.Registry.Names(), ", "))
		}
		if seen[m] {
			return fmt.Errorf("bench: method %q listed twice", m)
		}
		seen[m] = true
	}
	var sum float64
	for _, f := range c.Fracs {
		if !(f > 0) {
			return fmt.Errorf("bench: split fractions %v: each must be > 0", c.Fracs)
		}
		sum += f
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("bench: split fractions %v sum to %v, want 1", c.Fracs, sum)
	}
	if c.Members < 1 || c.Passes < 2 || !(c.Dropout > 0 && c.Dropout < 1) {
		return fmt.Errorf("bench: members %d (want ≥ 1), passes %d (want ≥ 2), dropout %v (want in (0,1))", c.Members, c.Passes, c.Dropout)
	}
	if !(c.Alpha > 0 && c.Alpha < 1) {
		return fmt.Errorf("bench: alpha %v: the conformal miscoverage must be in (0, 1) (0.1 for 90 %% intervals)", c.Alpha)
	}
	return nil
}

// Rows returns the table rows Run produces for c, in order.
func (c Config) Rows() []string {
	c = c.withDefaults()
	var rows []string
	for _, m := range c.Methods {
		rows = append(rows, m)
		if m == MCDropout && c.ExtraPasses > 0 {
			rows = append(rows, extraName(c.ExtraPasses))
		}
	}
	if slices.Contains(c.Methods, DEUP) {
		rows = append(rows, Constant)
	}
	if c.PerLineReference {
		rows = append(rows, PerLine)
	}
	return rows
}

func extraName(t int) string { return fmt.Sprintf("%s-t%d", MCDropout, t) }

// Event reports progress: Done of Total trainings finished; Train is the
// last epoch report of the training under way; Fold is its fold under
// K-fold cross-validation (Folds folds), -1 without.
type Event struct {
	Done, Total int
	Method      string
	Seed        uint64
	Fold, Folds int
	Train       model.Progress
}

// where names the training: "seed S", or "seed S fold F/K".
func (e Event) where() string {
	if e.Folds > 0 {
		return fmt.Sprintf("seed %d fold %d/%d", e.Seed, e.Fold+1, e.Folds)
	}
	return fmt.Sprintf("seed %d", e.Seed)
}

// Detail says where the run is for a progress bar: the method and seed,
// and the epoch of the network in training (its member in an ensemble)
// with its validation RMSE, or "done" when the training finished.
func (e Event) Detail() string {
	if e.Train.Done {
		return fmt.Sprintf("%s %s done", e.Method, e.where())
	}
	if e.Train.Members > 1 {
		return fmt.Sprintf("%s %s member %d/%d epoch %d/%d val-rmse %.3g", e.Method, e.where(), e.Train.Member+1, e.Train.Members, e.Train.Epoch, e.Train.MaxEpochs, e.Train.ValRMSE)
	}
	return fmt.Sprintf("%s %s epoch %d/%d val-rmse %.3g", e.Method, e.where(), e.Train.Epoch, e.Train.MaxEpochs, e.Train.ValRMSE)
}

// PairPrediction is one test pair's prediction by one method under one seed.
type PairPrediction struct {
	Seed   uint64
	Fold   int // under K-fold cross-validation; -1 without
	Method string
	Pair   int // index into the screen's pairs
	Y      float64
	model.Prediction
	Truth float64 // true mean (synthetic screens); NaN otherwise
}

// TruthMetrics scores uncertainty against a known truth (see the package doc).
type TruthMetrics struct {
	EpiCorr     float64 `json:"epi_corr"`
	EpiSpearman float64 `json:"epi_spearman"`
	EpiRatio    float64 `json:"epi_ratio"`
	AleaCorr    float64 `json:"alea_corr"`
}

// Row is one method's results over the seeds. Each per-seed slice has one
// entry per run (Result.Runs): per seed, or under K-fold
// cross-validation per seed and fold, seed-major.
type Row struct {
	Method       string
	PerSeed      []uq.Metrics
	Truth        []TruthMetrics // per seed; nil without a truth
	TrainSeconds []float64      // per seed
	Note         string         // the method's AleatoricNote
	Floored      []int          // per seed: test pairs whose sigma was raised to the floor
	Conformal    []Conformal    // per seed
	Epi          []EpiSummary   // per seed: σ_epistemic by unseen drugs (epistemic.go)
	// Lines holds, per seed, the scores of each cell line's test pairs
	// (Result.LineNames order); nil on a one-line dataset.
	Lines [][]LineScore
}

// Conformal holds one seed's conformal intervals of one row, scored on the
// test pairs: Plain (mu ± q) and Normalized (mu ± q sigma), each test
// half calibrated on the other half (uq.CrossConformal).
type Conformal struct {
	Plain, Normalized uq.IntervalMetrics
}

// SigmaFloor is the smallest sigma scored, as a fraction of the standard
// deviation of the screen's targets: a method that predicts sigma = 0 (for
// example MC-Dropout when every pass drops the same units) is scored as
// predicting this, and Row.Floored counts how often.
const SigmaFloor = 1e-6

// Result of a benchmark run.
type Result struct {
	Seeds []uint64
	Rows  []Row
	// TestPairs is the number of test pairs per seed: under K-fold
	// cross-validation the sum over a seed's folds (every pair once,
	// except under folds by drug: a pair whose drugs are in two folds is
	// tested in both).
	TestPairs int
	// Folds is K under K-fold cross-validation (Config.Folds), 0 without;
	// Runs lists the trainings' runs in the order of Row's per-seed
	// entries.
	Folds       int
	Runs        []RunInfo
	Protocol    Protocol
	Predictions []PairPrediction
	WallSeconds float64
	HasTruth    bool
	Screen      string
	Alpha       float64 // miscoverage of the conformal intervals
	// LineNames are the dataset's cell lines when it has several (a
	// panel): every row is then also scored per line (Row.Lines).
	LineNames []string
}

// RunInfo is one run of a benchmark: a seed's split, or one fold of it
// (Fold -1 without folds), with its number of test pairs.
type RunInfo struct {
	Seed  uint64
	Fold  int
	NTest int
}

// Protocol names a benchmark's split for results.json: what the test
// set holds out (SplitBy, the --split-by values), the folds (0: one
// split per seed) and how the out-of-sample part is drawn (OOSBy,
// drugcomb.DrawOOS).
type Protocol struct {
	SplitBy string
	Folds   int
	OOSBy   string
}

// Row returns the named row, or nil.
func (r *Result) Row(name string) *Row {
	for i := range r.Rows {
		if r.Rows[i].Method == name {
			return &r.Rows[i]
		}
	}
	return nil
}

// Run trains and scores every method of cfg on every seed. d holds the
// screen's pairs (Pairs[i] is sc.Pairs[i]); truth, when not nil, is the true
// mean and noise variance per pair. progress may be nil.
func Run(ctx context.Context, d *model.Dataset, truth *drugcomb.Truth, cfg Config, progress func(Event)) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if truth != nil && (len(truth.Mean) != len(d.Pairs) || len(truth.NoiseVar) != len(d.Pairs)) {
		return nil, fmt.Errorf("bench: truth for %d/%d pairs, dataset has %d", len(truth.Mean), len(truth.NoiseVar), len(d.Pairs))
	}
	start := time.Now()
	_, ysd := uq.MeanSD(d.Y)
	floor := SigmaFloor * ysd
	res := &Result{Seeds: cfg.Seeds, HasTruth: truth != nil, Alpha: cfg.Alpha, Protocol: cfg.Protocol}
	nl := d.Lines()
	if nl > 1 {
		res.LineNames = d.LineNames
	}
	if cfg.PerLineReference && nl < 2 {
		return nil, fmt.Errorf("bench: the per-line reference needs a dataset with several cell lines")
	}
	// The per-line reference's models are one-line models, trained with
	// the one-line settings but PerLinePatience; the methods on a panel
	// take the panel's (methods.Config.Panel) in the fields cfg
	// leaves zero.
	lineCfg := cfg
	if lineCfg.Model.Patience == 0 {
		lineCfg.Model.Patience = PerLinePatience
	}
	if nl > 1 {
		mc := methods.Config{Model: cfg.Model, DUE: cfg.DUE}.Panel()
		cfg.Model, cfg.DUE = mc.Model, mc.DUE
	}
	rows := cfg.Rows()
	byName := map[string]*Row{}
	for _, name := range rows {
		res.Rows = append(res.Rows, Row{Method: name})
	}
	for i := range res.Rows {
		byName[res.Rows[i].Method] = &res.Rows[i]
	}
	total := 0
	// A job trains one method on one seed's split (out: its index among
	// those trainings, in table order), or one member of an ensemble
	// (member ≥ 0; the worker that finishes a training's last member
	// joins them and predicts): finer jobs share the workers more evenly.
	type job struct {
		seed   uint64
		fold   int // -1 without folds
		name   string
		split  drugcomb.Split
		out    int
		member int
		line   int // the per-line reference's line; -1 otherwise
	}
	var jobs []job
	var trainings []job // one per output, in table order
	addJobs := func(seed uint64, fold int, split drugcomb.Split) {
		for _, name := range cfg.Methods {
			t := job{seed, fold, name, split, len(trainings), -1, -1}
			trainings = append(trainings, t)
			if name != Ensemble && name != EnsembleNLL {
				jobs = append(jobs, t)
				continue
			}
			for k := range cfg.Members {
				t.member = k
				jobs = append(jobs, t)
			}
		}
		if cfg.PerLineReference {
			t := job{seed, fold, PerLine, split, len(trainings), -1, -1}
			trainings = append(trainings, t)
			total += nl // one training per line
			for l := range nl {
				t.line = l
				jobs = append(jobs, t)
			}
		}
	}
	for _, seed := range cfg.Seeds {
		var splits []drugcomb.Split
		if cfg.Folds != nil {
			var err error
			if splits, err = cfg.Folds(seed); err != nil {
				return nil, fmt.Errorf("bench: seed %d: %w", seed, err)
			}
			res.Folds = len(splits)
		} else {
			split := drugcomb.SplitRandom(len(d.Pairs), cfg.Fracs, seed)
			if cfg.Split != nil {
				var err error
				if split, err = cfg.Split(seed); err != nil {
					return nil, fmt.Errorf("bench: seed %d: %w", seed, err)
				}
			}
			splits = []drugcomb.Split{split}
		}
		res.TestPairs = 0
		for f, split := range splits {
			fold := -1
			if cfg.Folds != nil {
				fold = f
			}
			if err := checkSplit(len(d.Pairs), split, cfg.Alpha, fold); err != nil {
				return nil, err
			}
			res.TestPairs += len(split.Test)
			res.Runs = append(res.Runs, RunInfo{Seed: seed, Fold: fold, NTest: len(split.Test)})
			total += len(cfg.Methods)
			addJobs(seed, fold, split)
		}
	}
	// The members of each ensemble training (trainings index), gathered
	// until the last is done.
	type memberSet struct {
		parts []*model.DeepEnsemble
		left  int
		secs  float64
	}
	members := map[int]*memberSet{}
	// The per-line reference's predictions of each seed (trainings
	// index), filled line by line.
	type lineSet struct {
		test, val []model.Prediction
		left      int
		secs      float64
	}
	perLine := map[int]*lineSet{}
	for _, j := range jobs {
		if j.line == 0 {
			perLine[j.out] = &lineSet{test: make([]model.Prediction, len(j.split.Test)), val: make([]model.Prediction, len(j.split.Val)), left: nl}
		}
	}
	for _, j := range jobs {
		if j.member == 0 {
			members[j.out] = &memberSet{parts: make([]*model.DeepEnsemble, cfg.Members), left: cfg.Members}
		}
	}
	// Trainings run on cfg.Workers goroutines of kernels.Jobs (each holding
	// a worker of the process's budget, which its kernels share), fed longest first
	// (feedOrder); their outputs are added to the result in job order
	// afterwards, so the result is the same whatever the number of workers
	// and the feed order. Progress events are serialized.
	var mu sync.Mutex
	done := 0
	report := func(e Event) {
		if progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		e.Done, e.Total = done, total
		progress(e)
	}
	outs := make([]jobOut, len(trainings))
	order := feedOrder(cfg.Registry, len(jobs), func(k int) string { return jobs[k].name })
	err := kernels.Jobs(ctx, len(order), cfg.Workers, func(ctx context.Context, idx int) error {
		j := jobs[order[idx]]
		progress := func(p model.Progress) {
			report(Event{Method: j.name, Seed: j.seed, Fold: j.fold, Folds: res.Folds, Train: p})
		}
		var o jobOut
		var err error
		if j.line >= 0 {
			set := perLine[j.out]
			// Each line writes its own test and validation slots.
			secs, err := runPerLine(ctx, d, lineCfg, j.seed, j.split, j.line, set.test, set.val, progress)
			if err != nil {
				return err
			}
			mu.Lock()
			set.secs += secs
			set.left--
			last := set.left == 0
			done++
			mu.Unlock()
			report(Event{Method: j.name, Seed: j.seed, Fold: j.fold, Folds: res.Folds, Train: model.Progress{Done: true}})
			if last {
				outs[j.out] = jobOut{rows: []jobRow{{PerLine, set.test, fmt.Sprintf("%s: one network per cell line, trained on that line alone (same split, same test pairs): mu alone (squared error, one-line settings, patience %d), sigma = the line's validation RMSE of mu", PerLine, lineCfg.Model.Patience), set.val}}, secs: set.secs}
			}
			return nil
		}
		if j.member < 0 {
			o, err = runJob(ctx, d, cfg, j.name, j.seed, j.split, progress)
		} else {
			mc := cfg.Model
			mc.Seed = j.seed
			part := model.EnsembleMember(mc, cfg.Members, j.name == EnsembleNLL, j.member)
			t0 := time.Now()
			if err = part.Fit(ctx, d, j.split, progress); err != nil {
				err = fmt.Errorf("bench: %s, seed %d, member %d: %w", j.name, j.seed, j.member+1, err)
			}
			mu.Lock()
			set := members[j.out]
			set.parts[j.member] = part
			set.secs += time.Since(t0).Seconds()
			set.left--
			last := set.left == 0
			mu.Unlock()
			if err == nil && !last {
				return nil
			}
			if err == nil {
				var e *model.DeepEnsemble
				if e, err = model.JoinEnsemble(set.parts...); err == nil {
					o, err = predictJob(d, cfg, j.name, j.seed, j.split, e, set.secs)
				}
				set.parts = nil
			}
		}
		if err != nil {
			return err
		}
		outs[j.out] = o
		mu.Lock()
		done++
		mu.Unlock()
		report(Event{Method: j.name, Seed: j.seed, Fold: j.fold, Folds: res.Folds, Train: model.Progress{Done: true}})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k, j := range trainings {
		test, yTest := j.split.Test, valuesOf(d.Y, j.split.Test)
		for _, r := range outs[k].rows {
			if err := res.add(byName[r.name], j.seed, j.fold, test, yTest, r.pred, truth, outs[k].secs, r.note, floor, cfg.Alpha); err != nil {
				return nil, err
			}
			row := byName[r.name]
			var noise []float64
			if truth != nil {
				noise = make([]float64, len(test))
				for q, i := range test {
					noise[q] = math.Sqrt(truth.NoiseVar[i])
				}
			}
			if nl > 1 {
				lines := make([]int, len(test))
				mu, sigma := make([]float64, len(test)), make([]float64, len(test))
				for q, i := range test {
					lines[q], mu[q], sigma[q] = d.Pairs[i].Line, r.pred[q].Mu, r.pred[q].SigmaTotal
				}
				row.Lines = append(row.Lines, scoreLines(lines, nl, yTest, mu, sigma))
			}
			row.Epi = append(row.Epi, summarizeEpistemic(r.pred, d.PairsAt(test), yTest, noise, r.val, d.PairsAt(j.split.Val), seenDrugs(d, j.split.Train), floor))
		}
	}
	res.WallSeconds = time.Since(start).Seconds()
	return res, nil
}

// jobOut is what one training contributes: its rows' test predictions
// (the method's, and for MC-Dropout the extra-passes row, for DEUP the
// constant row) and its training time.
type jobOut struct {
	rows []jobRow
	secs float64
}

type jobRow struct {
	name string
	pred []model.Prediction
	note string
	val  []model.Prediction // the validation pairs' (for EpiSummary)
}

// seenDrugs is the set of drugs of the pairs idx.
func seenDrugs(d *model.Dataset, idx []int) map[int]bool {
	seen := map[int]bool{}
	for _, i := range idx {
		seen[d.Pairs[i].A], seen[d.Pairs[i].B] = true, true
	}
	return seen
}

// runJob trains one method on one seed's split and predicts its test pairs.
func runJob(ctx context.Context, d *model.Dataset, cfg Config, name string, seed uint64, split drugcomb.Split, progress func(model.Progress)) (jobOut, error) {
	if name == DEUP && noveltyInert(d, split) {
		cfg.DEUP.NoveltyHoldout = -1
	}
	m := newMethod(name, cfg, seed)
	t0 := time.Now()
	if err := m.Fit(ctx, d, split, progress); err != nil {
		return jobOut{}, fmt.Errorf("bench: %s, seed %d: %w", name, seed, err)
	}
	return predictJob(d, cfg, name, seed, split, m, time.Since(t0).Seconds())
}

// noveltyInert reports whether DEUP's novelty fold (model/novelty.go)
// cannot change a prediction the benchmark scores: every drug of the
// validation and test pairs is a drug of a training pair. The fold scales
// σ_total by 1 + β₁ν + β₂ν², and ν, the pair's effective number of drugs
// unlike every D_in drug, is exactly 0 for a drug of D_in (Tanimoto 1 to
// itself); so the fold's extra training of μ′ (as long as DEUP's own) is
// skipped there, with the same numbers (TestNoveltyInertSameNumbers).
func noveltyInert(d *model.Dataset, split drugcomb.Split) bool {
	seen := seenDrugs(d, split.Train)
	for _, part := range [][]int{split.Val, split.Test} {
		for _, i := range part {
			if !seen[d.Pairs[i].A] || !seen[d.Pairs[i].B] {
				return false
			}
		}
	}
	return true
}

// predictJob predicts the test pairs with the trained method m (and the
// extra rows of MC-Dropout and DEUP); secs is its training time.
func predictJob(d *model.Dataset, cfg Config, name string, seed uint64, split drugcomb.Split, m model.Method, secs float64) (jobOut, error) {
	test := d.PairsAt(split.Test)
	out := jobOut{secs: secs}
	pred, err := m.Predict(d.Features, test)
	if err != nil {
		return jobOut{}, fmt.Errorf("bench: %s, seed %d: predict: %w", name, seed, err)
	}
	valPairs := d.PairsAt(split.Val)
	valPred, err := m.Predict(d.Features, valPairs)
	if err != nil {
		return jobOut{}, fmt.Errorf("bench: %s, seed %d: predict validation: %w", name, seed, err)
	}
	out.rows = append(out.rows, jobRow{name, pred, m.AleatoricNote(), valPred})
	switch name {
	case MCDropout:
		if cfg.ExtraPasses > 0 {
			mc := m.(*model.MCDropout)
			mc.SetPasses(cfg.ExtraPasses)
			pred, err := mc.Predict(d.Features, test)
			if err != nil {
				return jobOut{}, fmt.Errorf("bench: %s, seed %d: predict: %w", extraName(cfg.ExtraPasses), seed, err)
			}
			vp, err := mc.Predict(d.Features, valPairs)
			if err != nil {
				return jobOut{}, fmt.Errorf("bench: %s, seed %d: predict validation: %w", extraName(cfg.ExtraPasses), seed, err)
			}
			out.rows = append(out.rows, jobRow{extraName(cfg.ExtraPasses), pred, mc.AleatoricNote(), vp})
		}
	case DEUP:
		// The constant reference: DEUP's μ, σ = validation RMSE of μ.
		val := valPred
		var se float64
		for k, i := range split.Val {
			r := val[k].Mu - d.Y[i]
			se += r * r
		}
		s := math.Sqrt(se / float64(len(split.Val)))
		cp := make([]model.Prediction, len(pred))
		for k := range pred {
			cp[k] = model.Prediction{Mu: pred[k].Mu, SigmaTotal: s, SigmaEpistemic: s}
		}
		cv := make([]model.Prediction, len(val))
		for k := range val {
			cv[k] = model.Prediction{Mu: val[k].Mu, SigmaTotal: s, SigmaEpistemic: s}
		}
		out.rows = append(out.rows, jobRow{Constant, cp, fmt.Sprintf("constant: DEUP's mu, one sigma = validation RMSE of mu (%.4g)", s), cv})
	}
	return out, nil
}

// feedRank ranks the jobs by their training time, longest first: a
// method's methods.Bench.Rank (measured for the built-in methods, see
// package methods), the per-line reference last.
func feedRank(reg *methods.Registry, method string) int {
	if method == PerLine {
		return 4 // one line's μ, the shortest: many of them fill the end evenly
	}
	rank, _ := reg.BenchRank(method)
	return rank
}

// feedOrder returns the order in which Run hands its n jobs (method
// name(k) for job k) to the workers: longest first (feedRank), and
// within a method in job order (seed order). With two workers the
// longest trainings then start first instead of one of them running
// alone at the end (longest-processing-time-first scheduling). It
// changes only when each training runs, never what it computes.
func feedOrder(reg *methods.Registry, n int, name func(k int) string) []int {
	order := make([]int, n)
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return feedRank(reg, name(a)) - feedRank(reg, name(b)) })
	return order
}

// checkSplit refuses a split (fold ≥ 0: that fold's) too small to train
// and score on.
func checkSplit(n int, split drugcomb.Split, alpha float64, fold int) error {
	where := ""
	if fold >= 0 {
		where = fmt.Sprintf(" (fold %d)", fold+1)
	}
	if len(split.Test) < 3 || len(split.Val) < 3 || len(split.Train) < 3 {
		return fmt.Errorf("bench: split of %d pairs too small%s (train %d, val %d, test %d)", n, where, len(split.Train), len(split.Val), len(split.Test))
	}
	if need := uq.MinCalibration(alpha); len(split.Test)/2 < need {
		return fmt.Errorf("bench: %d test pairs%s are too few for conformal intervals at coverage %v: each half of the test split calibrates the other and needs at least %d pairs (lower the coverage or enlarge the test split)", len(split.Test), where, 1-alpha, need)
	}
	return nil
}

func (res *Result) add(row *Row, seed uint64, fold int, idx []int, y []float64, pred []model.Prediction, truth *drugcomb.Truth, secs float64, note string, floor, alpha float64) error {
	if len(pred) != len(idx) {
		return fmt.Errorf("bench: %s, seed %d: %d predictions for %d pairs", row.Method, seed, len(pred), len(idx))
	}
	mu, sigma := make([]float64, len(pred)), make([]float64, len(pred))
	floored := 0
	for k := range pred {
		if pred[k].SigmaTotal < floor {
			pred[k].SigmaTotal = floor
			floored++
		}
		mu[k], sigma[k] = pred[k].Mu, pred[k].SigmaTotal
	}
	row.Floored = append(row.Floored, floored)
	if err := uq.Validate(y, mu, sigma); err != nil {
		return fmt.Errorf("bench: %s, seed %d: %w", row.Method, seed, err)
	}
	row.PerSeed = append(row.PerSeed, uq.Score(y, mu, sigma, seed))
	conf, err := scoreConformal(y, mu, sigma, alpha, seed)
	if err != nil {
		return fmt.Errorf("bench: %s, seed %d: conformal: %w", row.Method, seed, err)
	}
	row.Conformal = append(row.Conformal, conf)
	row.TrainSeconds = append(row.TrainSeconds, secs)
	row.Note = note
	for k, p := range pred {
		pp := PairPrediction{Seed: seed, Fold: fold, Method: row.Method, Pair: idx[k], Y: y[k], Prediction: p, Truth: math.NaN()}
		if truth != nil {
			pp.Truth = truth.Mean[idx[k]]
		}
		res.Predictions = append(res.Predictions, pp)
	}
	if truth != nil {
		row.Truth = append(row.Truth, scoreTruth(pred, idx, truth))
	}
	return nil
}

// scoreConformal scores plain and sigma-normalized conformal intervals on
// the test pairs, each half of them calibrated on the other. The halves
// depend on the seed only, so every row of a seed shares them.
func scoreConformal(y, mu, sigma []float64, alpha float64, seed uint64) (Conformal, error) {
	var c Conformal
	for _, normalized := range []bool{false, true} {
		lo, hi, err := uq.CrossConformal(y, mu, sigma, alpha, normalized, seed)
		if err != nil {
			return c, err
		}
		m := uq.ScoreIntervals(y, lo, hi, sigma, alpha)
		if normalized {
			c.Normalized = m
		} else {
			c.Plain = m
		}
	}
	return c, nil
}

// scoreTruth computes TruthMetrics of predictions for pairs idx.
func scoreTruth(pred []model.Prediction, idx []int, truth *drugcomb.Truth) TruthMetrics {
	n := len(pred)
	epi, exc, alea, noise := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	var se, ss float64
	for k, p := range pred {
		i := idx[k]
		epi[k] = p.SigmaEpistemic
		exc[k] = math.Abs(p.Mu - truth.Mean[i])
		alea[k] = p.SigmaAleatoric
		noise[k] = math.Sqrt(truth.NoiseVar[i])
		se += exc[k] * exc[k]
		ss += epi[k] * epi[k]
	}
	return TruthMetrics{
		EpiCorr:     uq.Pearson(epi, exc),
		EpiSpearman: uq.Spearman(epi, exc),
		EpiRatio:    math.Sqrt(ss/float64(n)) / math.Sqrt(se/float64(n)),
		AleaCorr:    uq.Pearson(alea, noise),
	}
}

func newMethod(name string, cfg Config, seed uint64) model.Method {
	mc := cfg.Model
	mc.Seed = seed
	m, err := cfg.Registry.New(name, methods.Config{Model: mc, DEUP: cfg.DEUP, DUE: cfg.DUE, Members: cfg.Members, Passes: cfg.Passes, Dropout: cfg.Dropout})
	if err != nil {
		panic("bench: unvalidated method " + name + ": " + err.Error()) // Validate ran first
	}
	return m
}

func valuesOf(x []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for k, i := range idx {
		out[k] = x[i]
	}
	return out
}

// ErrNoRows is returned by writers given an empty result.
var ErrNoRows = errors.New("bench: no rows")
