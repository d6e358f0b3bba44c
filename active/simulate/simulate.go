package simulate

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/surrogate"

	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/uq"
)

// Strategy is a named pair of surrogate and acquisition function compared
// by a simulation.
type Strategy struct {
	Name        string
	Model       string // surrogate.New name
	Acquisition string // active.ParseAcquisition syntax
}

// ParseStrategy reads a strategy name: deup-ridge-ucb, deup-ridge-ei, deup-ridge-thompson
// (interactive DEUP with UCB, EI, Thompson sampling), greedy (mu of the
// main predictor), explore (DEUP's sigma_epistemic), random, ensemble-ucb
// (bootstrap ensemble, UCB on its spread), or MODEL-ACQUISITION for any
// surrogate.New model and active.ParseAcquisition name (e.g. bayes-ridge-ucb).
func ParseStrategy(name string) (Strategy, error) {
	s := Strategy{Name: name}
	switch name {
	case "greedy":
		s.Model, s.Acquisition = "bayes-ridge", "greedy"
	case "explore":
		s.Model, s.Acquisition = surrogate.RidgeDEUP, "explore"
	case "random":
		s.Model, s.Acquisition = "bayes-ridge", "random"
	default:
		i := strings.LastIndex(name, "-")
		if i < 0 {
			return s, fmt.Errorf("active: unknown strategy %q (want deup-ridge-ucb, deup-ridge-ei, deup-ridge-thompson, greedy, explore, random, ensemble-ucb or MODEL-ACQUISITION)", name)
		}
		s.Model, s.Acquisition = name[:i], name[i+1:]
	}
	known := false
	for _, m := range surrogate.Names {
		known = known || m == s.Model
	}
	if s.Model == surrogate.LegacyRidgeDEUP {
		return s, fmt.Errorf("active: strategy %q is now called %q (DEUP on a Bayesian-ridge main predictor); the DEUP network is %q", name, surrogate.RidgeDEUP+"-"+s.Acquisition, "deup-net-"+s.Acquisition)
	}
	if !known {
		return s, fmt.Errorf("active: strategy %q: unknown model %q (want %s)", name, s.Model, strings.Join(surrogate.Names, ", "))
	}
	if _, err := active.ParseAcquisition(s.Acquisition); err != nil {
		return s, fmt.Errorf("active: strategy %q: %w", name, err)
	}
	return s, nil
}

// Config configures a retrospective simulation.
type Config struct {
	Init       int        // initial measured pairs
	Batch      int        // pairs per round
	Rounds     int        // rounds per run
	MaxPerDrug int        // diversity rule (0: none)
	MaxPerLine int        // at most this many pairs of one cell line per batch (0: none); active.Config.MaxPerLine
	Strategies []Strategy // compared on the same initial sets
	Seeds      int        // runs per strategy; seed s uses Seed0+s
	Seed0      uint64
	TopFrac    float64 // 0 means 0.01 (RECOVER's top 1 %)
	Features   string  // surrogate.NewEncoder spec ("" means surrogate.DefaultFeatures)
	Workers    int     // parallel runs; 0 means GOMAXPROCS
	Explore    float64 // every run's active.Config.Explore (0: off)
	// LineFeatures are the cell lines' numeric features, every run's
	// active.Config.LineFeatures (nil: none; read by the network models).
	LineFeatures [][]float64
}

// Trace is one run's per-round record. Index 0 is the initial set; index r
// is after round r's measurements. TestRMSE[r] is the error, on every pair
// not yet measured, of the model that chose round r (NaN at index 0).
type Trace struct {
	Strategy string
	Seed     uint64
	Measured []int
	Best     []float64
	TopFound []float64 // fraction of the top pairs measured so far
	TestRMSE []float64
	// SigmaCorr[r] is uq.Corr on the pairs not yet measured when round r
	// was chosen: the Pearson correlation of the choosing model's
	// sigma_total with |y - mu| (NaN at index 0, and where sigma is
	// constant).
	SigmaCorr []float64
	ModelVers []string
	// NewChemistry[r] is how many of round r's pairs have a drug measured
	// in at most RareDrugPairs pairs before the round (0 at index 0): how
	// far a strategy's batches move towards drugs the model knows little.
	NewChemistry []int
}

// RareDrugPairs is the most measured pairs a drug may have for a pair of
// it to count in Trace.NewChemistry (fixed before any measurement).
const RareDrugPairs = 2

// newChemistry counts the pairs of chosen with a drug that has at most
// RareDrugPairs pairs in before.
func newChemistry(before, chosen []active.PairOnLine) int {
	deg := map[int]int{}
	for _, p := range before {
		deg[p.A]++
		if p.B != p.A {
			deg[p.B]++
		}
	}
	n := 0
	for _, p := range chosen {
		if deg[p.A] <= RareDrugPairs || deg[p.B] <= RareDrugPairs {
			n++
		}
	}
	return n
}

// Progress is sent after each round of each run.
type Progress struct {
	Strategy string
	Seed     uint64
	Round    int
}

// Run runs every strategy with every seed on the table t (the oracle:
// pairs are revealed when chosen) and returns the traces, strategies in
// order, seeds in order within each. Runs are independent and run in
// parallel; each is deterministic.
func Run(ctx context.Context, t active.TableOracle, base active.Config, cfg Config, progress func(Progress)) ([]Trace, error) {
	if cfg.TopFrac == 0 {
		cfg.TopFrac = 0.01
	}
	if cfg.Seeds < 1 || cfg.Rounds < 1 || cfg.Batch < 1 || len(cfg.Strategies) == 0 {
		return nil, fmt.Errorf("active: simulate needs seeds, rounds, batch >= 1 and a strategy (got %d, %d, %d, %d)", cfg.Seeds, cfg.Rounds, cfg.Batch, len(cfg.Strategies))
	}
	if cfg.Init+cfg.Rounds*cfg.Batch >= len(t) {
		return nil, fmt.Errorf("active: %d initial + %d rounds x %d exceeds the %d measured pairs", cfg.Init, cfg.Rounds, cfg.Batch, len(t))
	}
	top := active.TopFraction(t, cfg.TopFrac)
	traces := make([]Trace, len(cfg.Strategies)*cfg.Seeds)
	workers := cfg.Workers
	if workers <= 0 {
		workers = kernels.Workers()
	}
	// Runs k = strategy·Seeds + seed on the project's one pool, each
	// holding a worker of the process's budget that its kernels share.
	var mu sync.Mutex
	err := kernels.Jobs(ctx, len(traces), workers, func(ctx context.Context, k int) error {
		si, seed := k/cfg.Seeds, k%cfg.Seeds
		tr, err := simulateOne(ctx, t, top, base, cfg, cfg.Strategies[si], cfg.Seed0+uint64(seed), func(p Progress) {
			if progress != nil {
				mu.Lock()
				progress(p)
				mu.Unlock()
			}
		})
		traces[k] = tr
		return err
	})
	if err != nil {
		return nil, err
	}
	return traces, nil
}

func simulateOne(ctx context.Context, t active.TableOracle, top map[active.PairOnLine]bool, base active.Config, cfg Config, st Strategy, seed uint64, progress func(Progress)) (Trace, error) {
	tr := Trace{Strategy: st.Name, Seed: seed}
	initial, cands, err := active.SplitInitial(t, cfg.Init, seed)
	if err != nil {
		return tr, err
	}
	cc := base
	cc.Mode, cc.Model, cc.Acquisition = active.Retrospective, st.Model, st.Acquisition
	cc.Batch, cc.Rounds, cc.MaxPerDrug, cc.MaxPerLine, cc.Seed, cc.Features = cfg.Batch, cfg.Rounds, cfg.MaxPerDrug, cfg.MaxPerLine, seed, cfg.Features
	cc.Explore, cc.LineFeatures = cfg.Explore, cfg.LineFeatures
	enc, err := surrogate.NewEncoder(cc)
	if err != nil {
		return tr, err
	}
	sur, err := surrogate.NewFor(cc, enc)
	if err != nil {
		return tr, err
	}
	c, err := active.Create(active.NewMemoryStore(), cc, initial, cands)
	if err != nil {
		return tr, err
	}
	var prev []active.PairOnLine
	record := func(rmse, corr float64, version string) {
		found := 0
		var now, chosen []active.PairOnLine
		seen := map[active.PairOnLine]bool{}
		for _, p := range prev {
			seen[p] = true
		}
		for _, m := range c.Measured() {
			if top[m.Pair] {
				found++
			}
			now = append(now, m.Pair)
			if !seen[m.Pair] {
				chosen = append(chosen, m.Pair)
			}
		}
		nc := 0
		if prev != nil {
			nc = newChemistry(prev, chosen)
		}
		tr.NewChemistry = append(tr.NewChemistry, nc)
		prev = now
		tr.Measured = append(tr.Measured, len(c.Measured()))
		tr.Best = append(tr.Best, c.Best())
		tr.TopFound = append(tr.TopFound, float64(found)/float64(len(top)))
		tr.TestRMSE = append(tr.TestRMSE, rmse)
		tr.SigmaCorr = append(tr.SigmaCorr, corr)
		tr.ModelVers = append(tr.ModelVers, version)
	}
	record(math.NaN(), math.NaN(), "")
	for r := 1; r <= cfg.Rounds; r++ {
		if err := ctx.Err(); err != nil {
			return tr, err
		}
		prop, err := c.Step(ctx, sur, t)
		if err != nil {
			return tr, fmt.Errorf("active: %s seed %d round %d: %w", st.Name, seed, r, err)
		}
		var ss float64
		y, mu, sig := make([]float64, len(prop.Pool)), make([]float64, len(prop.Pool)), make([]float64, len(prop.Pool))
		for i, p := range prop.Pool {
			d := prop.Preds[i].Mu - t[p]
			ss += d * d
			y[i], mu[i], sig[i] = t[p], prop.Preds[i].Mu, prop.Preds[i].SigmaTotal
		}
		record(math.Sqrt(ss/float64(len(prop.Pool))), uq.Corr(y, mu, sig), prop.Round.ModelVersion)
		progress(Progress{Strategy: st.Name, Seed: seed, Round: r})
	}
	return tr, nil
}

// Summary is the mean and standard error over seeds, per round. In JSON,
// NaN is written as null.
type Summary struct {
	Mean Floats `json:"mean"`
	SE   Floats `json:"se"`
}

// Floats is a []float64 whose JSON form writes NaN and infinities as null
// and every number as a float (0.0, not 0): internal/jsonfloat.
type Floats = jsonfloat.Floats

// Summarize returns the per-round mean and standard error (sample sd over
// sqrt(seeds); 0 with one seed) of the values picked by get across traces.
// NaN entries (the test error of index 0) are skipped; a round with no
// finite value gets mean and se NaN and is listed in the second result.
func Summarize(traces []Trace, get func(Trace) []float64) (Summary, []int) {
	if len(traces) == 0 {
		return Summary{}, nil
	}
	n := len(get(traces[0]))
	s := Summary{Mean: make([]float64, n), SE: make([]float64, n)}
	var empty []int
	for r := 0; r < n; r++ {
		var sum, sum2 float64
		k := 0
		for _, t := range traces {
			v := get(t)[r]
			if math.IsNaN(v) {
				continue
			}
			sum += v
			sum2 += v * v
			k++
		}
		if k == 0 {
			empty = append(empty, r)
			s.Mean[r], s.SE[r] = math.NaN(), math.NaN()
			continue
		}
		m := sum / float64(k)
		s.Mean[r] = m
		if k > 1 {
			v := math.Max(sum2-float64(k)*m*m, 0) / float64(k-1)
			s.SE[r] = math.Sqrt(v / float64(k))
		}
	}
	return s, empty
}

// RareShare returns, per round, the share of the round's pairs that have a
// drug measured in at most RareDrugPairs pairs before it:
// NewChemistry[r] / (Measured[r] - Measured[r-1]); NaN at index 0 and for
// a round that measured nothing.
func (t Trace) RareShare() []float64 {
	out := make([]float64, len(t.NewChemistry))
	for r := range out {
		out[r] = math.NaN()
		if r > 0 && r < len(t.Measured) {
			if n := t.Measured[r] - t.Measured[r-1]; n > 0 {
				out[r] = float64(t.NewChemistry[r]) / float64(n)
			}
		}
	}
	return out
}

// PairedDiff returns, per round, the mean and standard error over seeds of
// get(a) - get(b), each of a's runs paired with b's run of the same seed
// (the same initial set): the standard error of the paired differences,
// sd/sqrt(seeds), smaller than the two strategies' own when their runs
// move together. Seeds missing from either side are left out; n is the
// number of pairs.
func PairedDiff(a, b []Trace, get func(Trace) []float64) (s Summary, n int) {
	bySeed := map[uint64]Trace{}
	for _, t := range b {
		bySeed[t.Seed] = t
	}
	var diffs []Trace
	for _, ta := range a {
		tb, ok := bySeed[ta.Seed]
		if !ok {
			continue
		}
		va, vb := get(ta), get(tb)
		d := make([]float64, min(len(va), len(vb)))
		for i := range d {
			d[i] = va[i] - vb[i]
		}
		diffs = append(diffs, Trace{Best: d})
	}
	s, _ = Summarize(diffs, func(t Trace) []float64 { return t.Best })
	return s, len(diffs)
}

// NewChemistryTotal is the sum of NewChemistry over the rounds of a run.
func (t Trace) NewChemistryTotal() int {
	n := 0
	for _, v := range t.NewChemistry {
		n += v
	}
	return n
}

// NewChemistryMeans returns, per strategy, the mean over its runs of the
// pairs of new chemistry chosen in all rounds (Trace.NewChemistryTotal).
func NewChemistryMeans(traces []Trace) map[string]float64 {
	sum, n := map[string]float64{}, map[string]int{}
	for _, tr := range traces {
		sum[tr.Strategy] += float64(tr.NewChemistryTotal())
		n[tr.Strategy]++
	}
	for k := range sum {
		sum[k] /= float64(n[k])
	}
	return sum
}
