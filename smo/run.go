package smo

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/deup/mlp"
	"github.com/deup-screening/deup/gp"

	"github.com/deup-screening/deup/internal/streams"

	"github.com/deup-screening/deup/uq"
)

// Tolerance is how close to the global maximum a value must be for the run
// to have "reached the optimum".
const Tolerance = 1e-3

// Options configure a run. The zero value gives the paper's settings
// (App. SMO): 50 steps after 6 initial points; MLPs of 3x128 ReLU units with
// Adam at 1e-3 (500 full-batch epochs here; the paper does not say), dropout
// 0.3 with 100 test passes, ensembles of 3; GPs with a Matern-5/2 kernel
// (ARD when d > 1) fitted by marginal likelihood with 2 random restarts.
type Options struct {
	Steps int // acquisitions after the initial design; 0 means 50
	Init  int // initial points, uniform in the box; 0 means 6

	// Features of DEUP's error predictor; 0 means the paper's: x and v
	// when the main predictor is an MLP, v alone when it is a GP.
	Features deup.FeatureSet
	// DEUPMain is DEUP-EI's main predictor, "mlp" or "gp"; "" means the
	// paper's: an MLP for d <= 2 (App. SMO1-2), a GP above (App. SMO3).
	// TuRBO-DEUP-EI always uses TuRBO's GP.
	DEUPMain string

	MLP          mlp.Config // main predictor and baselines (zero: mlp defaults)
	Dropout      float64    // MC-Dropout probability; 0 means 0.3
	MCPasses     int        // MC-Dropout test passes; 0 means 100
	EnsembleSize int        // 0 means 3
	GPRestarts   int        // random restarts of every GP fit; 0 means 2, <0 means none
	// ErrorPrior is what DEUP's GP error predictor predicts far from its
	// data: "uninformed" (the default) is the variance of the initial
	// targets, the squared error of a constant predictor (a zero-mean GP on
	// log errors minus log Var(y_init)); "mean" is the average observed log
	// error (a GP on standardized log errors). The paper's code uses a
	// zero-mean GP on raw log errors (an error of 1 in y units).
	ErrorPrior string
	Maximizer  Maximizer
}

func (o Options) withDefaults() Options {
	if o.Steps == 0 {
		o.Steps = 50
	}
	if o.Init == 0 {
		o.Init = 6
	}
	if o.Dropout == 0 {
		o.Dropout = 0.3
	}
	if o.MCPasses == 0 {
		o.MCPasses = 100
	}
	if o.EnsembleSize == 0 {
		o.EnsembleSize = 3
	}
	if o.GPRestarts == 0 {
		o.GPRestarts = 2
	}
	if o.GPRestarts < 0 {
		o.GPRestarts = 0
	}
	return o
}

func (o *Options) gpLearner(d int, seed uint64) deup.GP {
	return deup.GP{Config: gp.FitConfig{Family: gp.Matern52, ARD: d > 1, Standardize: true, Restarts: o.GPRestarts, Seed: seed}}
}

// turboLearner is the GP of BoTorch's TuRBO tutorial: ARD Matern-5/2,
// lengthscales in [0.005, 4] (here relative to the data's span), noise
// floored at 1e-6 of the standardized variance.
func (o *Options) turboLearner(d int, seed uint64) deup.GP {
	return deup.GP{Config: gp.FitConfig{Family: gp.Matern52, ARD: true, Standardize: true, Restarts: o.GPRestarts, Seed: seed,
		MinLengthscale: 0.005, MaxLengthscale: 4}}
}

func (o *Options) deupConfig(f Function, seed uint64, turbo bool, y0 []float64) (deup.Config, error) {
	main := o.DEUPMain
	if turbo {
		main = "gp"
	}
	if main == "" {
		main = "mlp"
		if f.Dim > 2 {
			main = "gp"
		}
	}
	// The error predictor: a GP on log squared errors (paper App. SMO). Its
	// lengthscales are bounded below by 0.1 of each feature's span: with a
	// few dozen noisy log errors, many in-sample ones sharing a feature
	// value, an unbounded marginal-likelihood fit can pick a lengthscale of
	// ~1e-3 span that treats log v as an identifier and predicts the prior
	// everywhere else (seen on multi-optima; BoTorch's GPs avoid the same
	// through a Gamma(3, 6) lengthscale prior).
	egp := gp.FitConfig{Family: gp.Matern52, ARD: true, Restarts: o.GPRestarts, Seed: seed + 7, MinLengthscale: 0.1}
	var offset float64
	switch o.ErrorPrior {
	case "", "uninformed":
		_, sd := uq.PopMeanSD(y0)
		offset = math.Log(math.Max(sd*sd, 1e-12))
	case "mean":
		egp.Standardize = true
	default:
		return deup.Config{}, fmt.Errorf("smo: unknown error prior %q (want uninformed or mean)", o.ErrorPrior)
	}
	cfg := deup.Config{Error: deup.LogErrors{Learner: deup.GP{Config: egp}, Offset: offset}}
	set := o.Features
	switch main {
	case "mlp":
		c := o.MLP
		c.Seed = seed
		cfg.Main = mlp.Learner{Config: c}
		cfg.Features.Variance = o.gpLearner(f.Dim, seed+3)
		if set == 0 {
			set = deup.FeatX | deup.FeatV
		}
	case "gp":
		if turbo {
			cfg.Main = o.turboLearner(f.Dim, seed)
		} else {
			cfg.Main = o.gpLearner(f.Dim, seed)
		}
		if set == 0 {
			set = deup.FeatV
		}
	default:
		return deup.Config{}, fmt.Errorf("smo: unknown DEUP main predictor %q (want mlp or gp)", main)
	}
	cfg.Features.Set = set
	if set&deup.FeatV != 0 && cfg.Features.Variance == nil && main != "gp" {
		return deup.Config{}, fmt.Errorf("smo: feature v needs a variance model")
	}
	return cfg, nil
}

// InitialDesign draws n points uniformly in the unit cube from seed alone,
// so every method of a seed starts from the same points.
func InitialDesign(d, n int, seed uint64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, streams.SMOInitial))
	x := make([][]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = rng.Float64()
		}
	}
	return x
}

// Result is one run of one method from one seed.
type Result struct {
	Method string
	Seed   uint64
	X      [][]float64 // every evaluated point in the function's box, initial design first
	Y      []float64
	// InitialBest is the best value of the initial design; BestSoFar[s] the
	// best value after s+1 acquisitions.
	InitialBest float64
	BestSoFar   []float64
	// StepsToOptimum is the first number of acquisitions after which the
	// best value is within Tolerance of the global maximum (0 if the initial
	// design already is), or -1 if never.
	StepsToOptimum int
	Wall           time.Duration
}

// Run optimizes f with method from seed's initial design. progress, if not
// nil, is called after every acquisition with the number done. All
// randomness comes from seed.
func Run(ctx context.Context, f Function, method string, seed uint64, opt Options, progress func(step int)) (*Result, error) {
	start := time.Now()
	opt = opt.withDefaults()
	if opt.Init < 2 {
		return nil, fmt.Errorf("smo: need at least 2 initial points, have %d", opt.Init)
	}
	u0 := InitialDesign(f.Dim, opt.Init, seed)
	res := &Result{Method: method, Seed: seed, StepsToOptimum: -1}
	y0 := make([]float64, len(u0))
	best := math.Inf(-1)
	for i, u := range u0 {
		x := f.toBox(u)
		y0[i] = f.Eval(x)
		res.X, res.Y = append(res.X, x), append(res.Y, y0[i])
		best = math.Max(best, y0[i])
	}
	res.InitialBest = best
	if best >= f.Max-Tolerance {
		res.StepsToOptimum = 0
	}
	h := fnv.New64a()
	h.Write([]byte(method))
	mseed := seed*0x9e3779b97f4a7c15 ^ h.Sum64()
	p, err := newProposer(method, f, u0, y0, &opt, mseed)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(mseed, streams.SMOAcquisition))
	for s := 0; s < opt.Steps; s++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		u, err := p.propose(rng, s)
		if err != nil {
			return nil, fmt.Errorf("smo: %s seed %d step %d: %w", method, seed, s+1, err)
		}
		x := f.toBox(u)
		y := f.Eval(x)
		if err := p.observe(u, y); err != nil {
			return nil, fmt.Errorf("smo: %s seed %d step %d: %w", method, seed, s+1, err)
		}
		res.X, res.Y = append(res.X, x), append(res.Y, y)
		best = math.Max(best, y)
		res.BestSoFar = append(res.BestSoFar, best)
		if res.StepsToOptimum < 0 && best >= f.Max-Tolerance {
			res.StepsToOptimum = s + 1
		}
		if progress != nil {
			progress(s + 1)
		}
	}
	res.Wall = time.Since(start)
	return res, nil
}
