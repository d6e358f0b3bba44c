package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/deup-screening/deup/internal/moments"
	"github.com/deup-screening/deup/internal/streams"
)

// FitConfig configures Fit. The zero value fits an isotropic RBF kernel with
// free noise, unstandardized targets, one start and 200 L-BFGS iterations.
type FitConfig struct {
	Family      Family
	ARD         bool // one lengthscale per input dimension
	Standardize bool // model (y - mean)/sd; hyperparameters and bounds are then on that scale

	// Restarts is the number of random starts in addition to the default
	// start (lengthscales half the input span per dimension, signal variance
	// the target variance, noise 1% of it). Random starts draw each
	// hyperparameter log-uniformly from: lengthscale [0.02, 2] × span, signal
	// variance [0.1, 10] × target variance, noise [1e-4, 0.1] × target
	// variance (clipped to the bounds).
	Restarts int
	Seed     uint64 // seeds the restarts' draws (math/rand/v2 PCG)
	MaxIter  int    // L-BFGS major iterations per start; 0 means 200

	// Hyperparameters are kept inside bounds by the reparametrization
	// theta = lo + (hi - lo) sigmoid(u), optimized over u. Bounds, as
	// multiples of the per-dimension input span (max - min; 1 when zero) and
	// of the target variance v (1 when standardized):
	//   lengthscale in [MinLengthscale, MaxLengthscale] × span (zero: 1e-3, 1e3)
	//   signal variance in [1e-4, 1e4] × v
	//   noise variance in [NoiseFloor, 10] × v (NoiseFloor zero: 1e-6)
	MinLengthscale, MaxLengthscale float64
	NoiseFloor                     float64

	// FixedNoise > 0 holds the noise variance at this value (in units of
	// the modelled, possibly standardized, targets) instead of fitting it.
	FixedNoise float64

	// Warm, if not nil, adds a start at its hyperparameters (typically the
	// previous fit in a sequential loop), tried before the others. Its
	// kernel must have the same family and number of lengthscales.
	Warm *GP
}

// Fit chooses kernel hyperparameters and the noise variance by maximizing
// the log marginal likelihood with L-BFGS (gonum/optimize) from 1+Restarts
// starts, and returns the GP conditioned on X (n×d) and y at the best
// optimum found. Starts whose optimization fails are skipped; Fit fails only
// if every start fails.
func Fit(X mat.Matrix, y []float64, cfg FitConfig) (*GP, error) {
	n, d := X.Dims()
	if n == 0 {
		return nil, fmt.Errorf("gp: fit: no training points")
	}
	if len(y) != n {
		return nil, fmt.Errorf("gp: fit: %d targets for %d inputs", len(y), n)
	}
	if err := checkFinite(X, y); err != nil {
		return nil, fmt.Errorf("gp: fit: %w", err)
	}
	if cfg.Restarts < 0 {
		return nil, fmt.Errorf("gp: fit: negative restarts %d", cfg.Restarts)
	}
	ymean, yscale := 0.0, 1.0
	if cfg.Standardize {
		ymean, yscale = moments.MeanScale(y)
	}
	ys := make([]float64, n)
	for i, v := range y {
		ys[i] = (v - ymean) / yscale
	}
	_, sd := moments.MeanScale(ys)
	vy := sd * sd
	if n < 2 {
		vy = 1
	}
	xc := mat.DenseCopyOf(X)
	span := make([]float64, d)
	for j := 0; j < d; j++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := 0; i < n; i++ {
			v := xc.At(i, j)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		span[j] = hi - lo
		if !(span[j] > 0) {
			span[j] = 1
		}
	}
	nls := 1
	if cfg.ARD {
		nls = d
	} else {
		// Isotropic: one span, the largest, so short bounds stay sensible.
		m := span[0]
		for _, s := range span {
			m = math.Max(m, s)
		}
		span = []float64{m}
	}
	minL, maxL := orDefault(cfg.MinLengthscale, 1e-3), orDefault(cfg.MaxLengthscale, 1e3)
	floor := orDefault(cfg.NoiseFloor, 1e-6)
	if !(minL > 0 && maxL > minL) {
		return nil, fmt.Errorf("gp: fit: lengthscale bounds [%g, %g] invalid", minL, maxL)
	}
	if !(floor > 0 && floor < 10) {
		return nil, fmt.Errorf("gp: fit: noise floor %g outside (0, 10)", floor)
	}
	fitNoise := !(cfg.FixedNoise > 0)
	// Log-space bounds of [logVariance, logLengthscales..., logNoise?].
	var lo, hi []float64
	lo = append(lo, math.Log(1e-4*vy))
	hi = append(hi, math.Log(1e4*vy))
	for j := 0; j < nls; j++ {
		lo = append(lo, math.Log(minL*span[j]))
		hi = append(hi, math.Log(maxL*span[j]))
	}
	if fitNoise {
		lo = append(lo, math.Log(floor*vy))
		hi = append(hi, math.Log(10*vy))
	}
	np := len(lo)

	kern := Kernel{Family: cfg.Family, LogLengthscales: make([]float64, nls)}
	logNoise := math.Log(cfg.FixedNoise)
	unpack := func(theta []float64) {
		kern.LogVariance = theta[0]
		copy(kern.LogLengthscales, theta[1:1+nls])
		if fitNoise {
			logNoise = theta[1+nls]
		}
	}
	// Map between unconstrained u and bounded theta.
	toTheta := func(dst, u []float64) {
		for i := range u {
			dst[i] = lo[i] + (hi[i]-lo[i])*sigmoid(u[i])
		}
	}
	toU := func(dst, theta []float64) {
		for i := range theta {
			p := (theta[i] - lo[i]) / (hi[i] - lo[i])
			p = math.Min(math.Max(p, 1e-6), 1-1e-6)
			dst[i] = math.Log(p / (1 - p))
		}
	}
	theta := make([]float64, np)
	full := make([]float64, kern.NumParams()+1)
	var lastErr error
	// gonum's line search asks for the value and the gradient at the same
	// points; one LogMarginalLikelihood call serves both.
	var cacheU []float64
	var cacheF float64
	cacheG := make([]float64, np)
	cacheOK := false
	eval := func(u []float64) {
		if cacheU != nil && slices.Equal(cacheU, u) {
			return
		}
		cacheU = append(cacheU[:0], u...)
		toTheta(theta, u)
		unpack(theta)
		lml, err := LogMarginalLikelihood(kern, logNoise, xc, ys, full)
		if err != nil {
			lastErr = err
			cacheOK = false
			return
		}
		cacheOK = true
		cacheF = -lml / float64(n)
		for i := range cacheG {
			g := full[i]
			if i == np-1 && fitNoise {
				g = full[len(full)-1]
			}
			s := sigmoid(u[i])
			cacheG[i] = -g * (hi[i] - lo[i]) * s * (1 - s) / float64(n)
		}
	}
	problem := optimize.Problem{
		Func: func(u []float64) float64 {
			eval(u)
			if !cacheOK {
				return math.Inf(1)
			}
			return cacheF
		},
		Grad: func(grad, u []float64) {
			eval(u)
			for i := range grad {
				if cacheOK {
					grad[i] = cacheG[i]
				} else {
					grad[i] = math.NaN()
				}
			}
		},
	}

	starts := make([][]float64, 0, 1+cfg.Restarts)
	def := []float64{math.Log(vy)}
	for j := 0; j < nls; j++ {
		def = append(def, math.Log(0.5*span[j]))
	}
	if fitNoise {
		def = append(def, math.Log(math.Max(1e-2, floor)*vy))
	}
	if w := cfg.Warm; w != nil {
		if w.Kernel.Family != cfg.Family || len(w.Kernel.LogLengthscales) != nls {
			return nil, fmt.Errorf("gp: fit: warm start has a %v kernel with %d lengthscales, want %v with %d",
				w.Kernel.Family, len(w.Kernel.LogLengthscales), cfg.Family, nls)
		}
		ws := w.Kernel.Params(nil)
		if fitNoise {
			ws = append(ws, w.LogNoise)
		}
		starts = append(starts, ws)
	}
	starts = append(starts, def)
	rng := rand.New(rand.NewPCG(cfg.Seed, streams.GPFit))
	logU := func(a, b float64) float64 { return math.Log(a) + rng.Float64()*(math.Log(b)-math.Log(a)) }
	for r := 0; r < cfg.Restarts; r++ {
		s := []float64{logU(0.1*vy, 10*vy)}
		for j := 0; j < nls; j++ {
			s = append(s, logU(0.02*span[j], 2*span[j]))
		}
		if fitNoise {
			s = append(s, logU(math.Max(1e-4, floor)*vy, 0.1*vy))
		}
		starts = append(starts, s)
	}

	maxIter := cfg.MaxIter
	if maxIter <= 0 {
		maxIter = 200
	}
	best := math.Inf(1)
	var bestTheta []float64
	u0 := make([]float64, np)
	for _, s := range starts {
		for i := range s {
			s[i] = math.Min(math.Max(s[i], lo[i]), hi[i])
		}
		toU(u0, s)
		res, err := optimize.Minimize(problem, u0, &optimize.Settings{
			MajorIterations:   maxIter,
			GradientThreshold: 1e-6,
		}, &optimize.LBFGS{})
		if res == nil {
			if err != nil {
				lastErr = err
			}
			continue
		}
		// A line search that cannot improve further still leaves a usable
		// location; keep it if its objective is finite.
		if f := res.F; !math.IsNaN(f) && !math.IsInf(f, 0) && f < best {
			best = f
			bestTheta = make([]float64, np)
			toTheta(bestTheta, res.X)
		} else if err != nil {
			lastErr = err
		}
	}
	if bestTheta == nil {
		if lastErr == nil {
			lastErr = errors.New("no start gave a finite likelihood")
		}
		return nil, fmt.Errorf("gp: fit: %w", lastErr)
	}
	unpack(bestTheta)
	return New(kern, logNoise, xc, y, cfg.Standardize)
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}
