package ood

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/deup-screening/deup/deup"

	"github.com/deup-screening/deup/internal/streams"
)

// Problem is the set of examples of an experiment, addressed by index
// 0..len(Y)-1. Groups[i] lists the groups of example i (its class; a drug
// pair's two drug clusters): an example is out of distribution for a model
// when one of its groups had no example in that model's training set.
type Problem struct {
	Y      []float64
	Groups [][]int
	// X is the x feature of each example (the input or an embedding of it);
	// needed only when a feature set contains x.
	X [][]float64
}

func (p *Problem) validate() error {
	n := len(p.Y)
	if n == 0 {
		return errors.New("ood: problem has no examples")
	}
	if len(p.Groups) != n {
		return fmt.Errorf("ood: %d examples but %d group lists", n, len(p.Groups))
	}
	if p.X != nil && len(p.X) != n {
		return fmt.Errorf("ood: %d examples but %d x rows", n, len(p.X))
	}
	for i, y := range p.Y {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return fmt.Errorf("ood: example %d: target %v", i, y)
		}
		if len(p.Groups[i]) == 0 {
			return fmt.Errorf("ood: example %d has no group", i)
		}
	}
	return nil
}

// Fitter trains the main predictor, with its model variance, on the
// examples train, using val (disjoint from train) for early stopping. It
// may be called concurrently only if the implementation says so; Run calls
// it sequentially.
type Fitter interface {
	Fit(ctx context.Context, train, val []int, seed uint64) (MainModel, error)
}

// MainModel is a fitted main predictor: the mean and the model variance of
// examples idx.
type MainModel interface {
	Predict(idx []int) (mean, variance []float64, err error)
}

// DensityFitter fits a density estimator on the examples train.
type DensityFitter interface {
	FitDensity(train []int) (Density, error)
}

// Density returns log q(x | training set) of examples idx.
type Density interface {
	LogDensity(idx []int) ([]float64, error)
}

// Kind says where an entry of the error data D_e comes from.
type Kind uint8

const (
	// OutOfGroup: the example has a group held out of the fold (out of
	// distribution for the fold's estimators).
	OutOfGroup Kind = iota
	// InGroup: an example of the fold's seen groups held out of its
	// training (in distribution, out of sample).
	InGroup
	// InSample: an example the fold's estimators were trained on (b = 1);
	// used only by feature sets with b.
	InSample
	// Test: an entry of the final estimators on a test example.
	Test
)

func (k Kind) String() string {
	switch k {
	case OutOfGroup:
		return "out-of-group"
	case InGroup:
		return "in-group"
	case InSample:
		return "in-sample"
	case Test:
		return "test"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Entry is one example scored by one set of estimators (a fold's, or the
// final ones): the raw stationarizing features and the realized loss.
type Entry struct {
	Example     int
	Fold        int // 0..K-1; -1 for the final estimators
	Kind        Kind
	Mean        float64 // the main predictor's prediction
	LogDensity  float64 // log q(x); NaN when no density was fitted
	LogVariance float64 // log max(V(x), VarFloor)
	Seen        bool    // b: the example is in the estimators' training set
	Loss        float64 // (y - Mean)^2
}

// DefaultValFrac is the default Config.ValFrac.
const DefaultValFrac = 0.15

// Config of Run. Zero values mean the defaults shown.
type Config struct {
	Folds int // K group folds of Algorithm 2; default 5
	// ValFrac of each training set (a fold's or the final one) is set
	// aside for the main predictor's early stopping; default 0.15.
	ValFrac float64
	// InFrac of each fold's in-distribution examples is held out of its
	// training and scored as in-distribution D_e entries; default 0.2.
	InFrac float64
	// InSampleFrac of each fold's training examples are scored in sample
	// (b = 1) for feature sets with b; default 0.2.
	InSampleFrac float64
	// VarFloor floors the model variance before the log; default 1e-12.
	VarFloor float64
	Main     Fitter
	Density  DensityFitter // required when a feature set has d
	// Error is the error predictor's regressor, trained on log losses
	// (deup.LogErrors); one fit per feature set.
	Error    deup.Learner
	Seed     uint64
	Progress func(Event) // may be nil
}

// Event reports a finished training of the main predictor: Done of Total
// (K folds, then the final one).
type Event struct {
	Done, Total int
	Stage       string // "fold 2/5" or "final"
	Seconds     float64
}

func (c Config) withDefaults() Config {
	if c.Folds == 0 {
		c.Folds = 5
	}
	if c.ValFrac == 0 {
		c.ValFrac = DefaultValFrac
	}
	if c.InFrac == 0 {
		c.InFrac = 0.2
	}
	if c.InSampleFrac == 0 {
		c.InSampleFrac = 0.2
	}
	if c.VarFloor <= 0 {
		c.VarFloor = 1e-12
	}
	return c
}

func (c Config) check(sets []deup.FeatureSet, p *Problem) error {
	switch {
	case c.Folds < 2:
		return fmt.Errorf("ood: %d folds, want at least 2", c.Folds)
	case !(c.ValFrac > 0 && c.ValFrac < 1), !(c.InFrac > 0 && c.InFrac < 1), !(c.InSampleFrac > 0 && c.InSampleFrac <= 1):
		return fmt.Errorf("ood: fractions val %v, in %v, in-sample %v: want in (0, 1)", c.ValFrac, c.InFrac, c.InSampleFrac)
	case c.Main == nil:
		return errors.New("ood: config has no main fitter")
	case c.Error == nil && len(sets) > 0:
		return errors.New("ood: config has no error learner")
	}
	for _, s := range sets {
		if s == 0 {
			return errors.New("ood: empty feature set")
		}
		if s&deup.FeatD != 0 && c.Density == nil {
			return fmt.Errorf("ood: feature set %s needs a density fitter", s)
		}
		if s&deup.FeatX != 0 && p.X == nil {
			return fmt.Errorf("ood: feature set %s needs the problem's X", s)
		}
	}
	return nil
}

// Result of Run.
type Result struct {
	Test []int // the test examples, in the caller's order
	// Final holds the final estimators' entries on Test (Kind Test).
	Final []Entry
	// FinalModel is the main predictor trained on all training data.
	FinalModel MainModel
	// Errors holds D_e: every fold's out-of-group, in-group and in-sample
	// entries.
	Errors []Entry
	// Uncertainty[k][j] is feature set k's predicted loss e(phi(x)) on
	// Test[j].
	Uncertainty [][]float64
	Sets        []deup.FeatureSet
	// Where the time went, in seconds.
	FoldSeconds, FinalSeconds, ErrorSeconds float64
}

// Run is DEUP for rejecting difficult examples (paper §5.3.2, Algorithm 2
// with group folds): it splits the groups of the training examples into K
// folds; for each fold it trains the main predictor (with its variance) and
// the density on the training examples without a group of the fold, and
// scores the held-out examples into D_e; it then trains the final
// estimators on all training examples, fits one error predictor per feature
// set on D_e and predicts the loss of every test example. Randomness comes
// only from cfg.Seed.
func Run(ctx context.Context, p *Problem, train, test []int, sets []deup.FeatureSet, cfg Config) (*Result, error) {
	cfg = cfg.withDefaults()
	if err := p.validate(); err != nil {
		return nil, err
	}
	if err := cfg.check(sets, p); err != nil {
		return nil, err
	}
	if err := checkIndices(p, train, test); err != nil {
		return nil, err
	}
	needD := false
	for _, s := range sets {
		needD = needD || s&deup.FeatD != 0
	}
	folds, err := GroupFolds(p, train, cfg.Folds, cfg.Seed)
	if err != nil {
		return nil, err
	}
	total := cfg.Folds + 1
	res := &Result{Test: test, Sets: sets}
	rng := rand.New(rand.NewPCG(cfg.Seed, streams.OOD))
	for k := 0; k < cfg.Folds; k++ {
		t0 := time.Now()
		out, rest := HeldOut(p, train, folds[k])
		if len(out) == 0 || len(rest) < 3 {
			return nil, fmt.Errorf("ood: fold %d holds out %d examples and leaves %d to train on", k+1, len(out), len(rest))
		}
		in, rest := takeFrac(rng, rest, cfg.InFrac)
		val, fit := takeFrac(rng, rest, cfg.ValFrac)
		if len(fit) == 0 || len(val) == 0 {
			return nil, fmt.Errorf("ood: fold %d: %d examples to train on, too few to set a validation part aside", k+1, len(rest))
		}
		m, err := cfg.Main.Fit(ctx, fit, val, mix(cfg.Seed, uint64(k+1)))
		if err != nil {
			return nil, fmt.Errorf("ood: fold %d: %w", k+1, err)
		}
		var dens Density
		if needD {
			if dens, err = cfg.Density.FitDensity(fit); err != nil {
				return nil, fmt.Errorf("ood: fold %d: density: %w", k+1, err)
			}
		}
		ins, _ := takeFrac(rng, fit, cfg.InSampleFrac)
		for _, part := range []struct {
			idx  []int
			kind Kind
		}{{out, OutOfGroup}, {in, InGroup}, {ins, InSample}} {
			es, err := score(p, m, dens, part.idx, k, part.kind, cfg.VarFloor)
			if err != nil {
				return nil, fmt.Errorf("ood: fold %d: %w", k+1, err)
			}
			res.Errors = append(res.Errors, es...)
		}
		res.FoldSeconds += time.Since(t0).Seconds()
		if cfg.Progress != nil {
			cfg.Progress(Event{Done: k + 1, Total: total, Stage: fmt.Sprintf("fold %d/%d", k+1, cfg.Folds), Seconds: time.Since(t0).Seconds()})
		}
	}
	t0 := time.Now()
	fit, val := FinalSplit(train, cfg.ValFrac, cfg.Seed)
	m, err := cfg.Main.Fit(ctx, fit, val, mix(cfg.Seed, 0))
	if err != nil {
		return nil, fmt.Errorf("ood: final: %w", err)
	}
	res.FinalModel = m
	var dens Density
	if needD {
		if dens, err = cfg.Density.FitDensity(fit); err != nil {
			return nil, fmt.Errorf("ood: final: density: %w", err)
		}
	}
	if res.Final, err = score(p, m, dens, test, -1, Test, cfg.VarFloor); err != nil {
		return nil, fmt.Errorf("ood: final: %w", err)
	}
	res.FinalSeconds = time.Since(t0).Seconds()
	if cfg.Progress != nil {
		cfg.Progress(Event{Done: total, Total: total, Stage: "final", Seconds: res.FinalSeconds})
	}
	t0 = time.Now()
	for _, s := range sets {
		e, err := FitError(p, res.Errors, s, cfg.Error)
		if err != nil {
			return nil, err
		}
		u := make([]float64, len(res.Final))
		for j, en := range res.Final {
			u[j] = e.Predict(Features(nil, p, en, s))
		}
		res.Uncertainty = append(res.Uncertainty, u)
	}
	res.ErrorSeconds = time.Since(t0).Seconds()
	return res, nil
}

// FitError fits the error predictor of feature set s on the entries of
// D_e (in-sample entries only when s has b), with targets log(loss + 1e-8)
// (deup.LogErrors).
func FitError(p *Problem, de []Entry, s deup.FeatureSet, l deup.Learner) (deup.Predictor, error) {
	var phi [][]float64
	var loss []float64
	for _, en := range de {
		if en.Kind == InSample && s&deup.FeatB == 0 {
			continue
		}
		phi = append(phi, Features(nil, p, en, s))
		loss = append(loss, en.Loss)
	}
	e, err := deup.LogErrors{Learner: l}.FitErrors(phi, loss)
	if err != nil {
		return nil, fmt.Errorf("ood: error predictor %s: %w", s, err)
	}
	return e, nil
}

// Features appends the stationarizing features of entry en for set s to
// dst, in the order x, d, v, b (deup's order): x = p.X[en.Example], d the
// log-density, v the log variance, b 1 if seen.
func Features(dst []float64, p *Problem, en Entry, s deup.FeatureSet) []float64 {
	if s&deup.FeatX != 0 {
		dst = append(dst, p.X[en.Example]...)
	}
	if s&deup.FeatD != 0 {
		dst = append(dst, en.LogDensity)
	}
	if s&deup.FeatV != 0 {
		dst = append(dst, en.LogVariance)
	}
	if s&deup.FeatB != 0 {
		b := 0.0
		if en.Seen {
			b = 1
		}
		dst = append(dst, b)
	}
	return dst
}

func score(p *Problem, m MainModel, dens Density, idx []int, fold int, kind Kind, floor float64) ([]Entry, error) {
	if len(idx) == 0 {
		return nil, nil
	}
	mean, v, err := m.Predict(idx)
	if err != nil {
		return nil, err
	}
	if len(mean) != len(idx) || len(v) != len(idx) {
		return nil, fmt.Errorf("model returned %d means and %d variances for %d examples", len(mean), len(v), len(idx))
	}
	var ld []float64
	if dens != nil {
		if ld, err = dens.LogDensity(idx); err != nil {
			return nil, err
		}
		if len(ld) != len(idx) {
			return nil, fmt.Errorf("density returned %d values for %d examples", len(ld), len(idx))
		}
	}
	out := make([]Entry, len(idx))
	for j, i := range idx {
		if math.IsNaN(mean[j]) || math.IsInf(mean[j], 0) || math.IsNaN(v[j]) || v[j] < 0 {
			return nil, fmt.Errorf("example %d: mean %v, variance %v", i, mean[j], v[j])
		}
		d := p.Y[i] - mean[j]
		e := Entry{Example: i, Fold: fold, Kind: kind, Mean: mean[j], LogVariance: math.Log(math.Max(v[j], floor)), Seen: kind == InSample, Loss: d * d, LogDensity: math.NaN()}
		if ld != nil {
			if math.IsNaN(ld[j]) || math.IsInf(ld[j], 1) {
				return nil, fmt.Errorf("example %d: log-density %v", i, ld[j])
			}
			e.LogDensity = math.Max(ld[j], -1e3) // -Inf (zero density) floored
		}
		out[j] = e
	}
	return out, nil
}

func checkIndices(p *Problem, train, test []int) error {
	seen := make(map[int]bool, len(train))
	for _, i := range train {
		if i < 0 || i >= len(p.Y) {
			return fmt.Errorf("ood: training index %d out of range [0,%d)", i, len(p.Y))
		}
		if seen[i] {
			return fmt.Errorf("ood: training index %d repeated", i)
		}
		seen[i] = true
	}
	for _, i := range test {
		if i < 0 || i >= len(p.Y) {
			return fmt.Errorf("ood: test index %d out of range [0,%d)", i, len(p.Y))
		}
		if seen[i] {
			return fmt.Errorf("ood: example %d is both a training and a test example", i)
		}
	}
	if len(test) == 0 {
		return errors.New("ood: no test examples")
	}
	return nil
}

// GroupFolds assigns the groups of the training examples to k folds: groups
// in a seeded random order, each to the fold with the fewest training
// examples so far (counting an example once per group it has), so folds
// hold similar numbers of examples. It returns the groups of each fold,
// sorted. There must be at least k groups.
func GroupFolds(p *Problem, train []int, k int, seed uint64) ([][]int, error) {
	count := map[int]int{}
	for _, i := range train {
		for _, g := range p.Groups[i] {
			count[g]++
		}
	}
	if len(count) < k {
		return nil, fmt.Errorf("ood: %d groups among the training examples, need at least %d for %d folds", len(count), k, k)
	}
	groups := make([]int, 0, len(count))
	for g := range count {
		groups = append(groups, g)
	}
	slices.Sort(groups)
	rng := rand.New(rand.NewPCG(seed, streams.OODFolds))
	rng.Shuffle(len(groups), func(i, j int) { groups[i], groups[j] = groups[j], groups[i] })
	// Largest groups first (stable on the shuffled order), each to the
	// lightest fold.
	slices.SortStableFunc(groups, func(a, b int) int { return count[b] - count[a] })
	folds := make([][]int, k)
	load := make([]int, k)
	for _, g := range groups {
		best := 0
		for f := 1; f < k; f++ {
			if load[f] < load[best] {
				best = f
			}
		}
		folds[best] = append(folds[best], g)
		load[best] += count[g]
	}
	for f := range folds {
		slices.Sort(folds[f])
	}
	return folds, nil
}

// HeldOut splits train into the examples with at least one group in
// groups (out) and the others (rest), both in train's order.
func HeldOut(p *Problem, train []int, groups []int) (out, rest []int) {
	in := make(map[int]bool, len(groups))
	for _, g := range groups {
		in[g] = true
	}
	for _, i := range train {
		hit := false
		for _, g := range p.Groups[i] {
			hit = hit || in[g]
		}
		if hit {
			out = append(out, i)
		} else {
			rest = append(rest, i)
		}
	}
	return out, rest
}

// FinalSplit is the partition of the training examples on which Run trains
// the final estimators: val (round(frac*n), at least 1) for early stopping
// and fit, both sorted, drawn from seed. Baselines that must train on the
// same data use it too.
func FinalSplit(train []int, frac float64, seed uint64) (fit, val []int) {
	rng := rand.New(rand.NewPCG(seed, streams.OODFinal))
	val, fit = takeFrac(rng, train, frac)
	return fit, val
}

// takeFrac draws round(frac*n) (at least 1 when n >= 2) elements of idx
// at random; it returns them and the rest, both sorted.
func takeFrac(rng *rand.Rand, idx []int, frac float64) (taken, rest []int) {
	n := len(idx)
	m := int(math.Round(frac * float64(n)))
	if m == 0 && n >= 2 {
		m = 1
	}
	perm := rng.Perm(n)
	for j, pi := range perm {
		if j < m {
			taken = append(taken, idx[pi])
		} else {
			rest = append(rest, idx[pi])
		}
	}
	slices.Sort(taken)
	slices.Sort(rest)
	return taken, rest
}

// mix derives a training seed from the run seed and a fold number
// (splitmix64 finalizer).
func mix(seed, k uint64) uint64 {
	z := seed*0x9e3779b97f4a7c15 + k + 1
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
