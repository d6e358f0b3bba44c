package surrogate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/deup"

	"github.com/deup-screening/deup/internal/streams"
)

// Encoder maps a pair to the input vector x of a main predictor:
//
//	x = [f(a) + f(b), g(a) .* g(b), onehot(cell line) (if more than one)]
//
// with f the drug feature rows (Drug) and g the interaction feature rows
// (Inter, may be nil). The sum and the element-wise product are symmetric,
// so (a, b) and (b, a) get the same x (the paper's permutation-invariant
// sum of drug embeddings); the product lets a linear model see pairwise
// structure.
type Encoder struct {
	Drug      [][]float64 // one row per drug, equal lengths
	Inter     [][]float64 // nil, or one row per drug, equal lengths
	CellLines int
}

// Dim is the length of x.
func (e Encoder) Dim() int {
	n := 0
	if len(e.Drug) > 0 {
		n += len(e.Drug[0])
	}
	if len(e.Inter) > 0 {
		n += len(e.Inter[0])
	}
	if e.CellLines > 1 {
		n += e.CellLines
	}
	return n
}

// Encode appends x(p) to dst.
func (e Encoder) Encode(dst []float64, p active.PairOnLine) []float64 {
	fa, fb := e.Drug[p.A], e.Drug[p.B]
	for j := range fa {
		dst = append(dst, fa[j]+fb[j])
	}
	if e.Inter != nil {
		ga, gb := e.Inter[p.A], e.Inter[p.B]
		for j := range ga {
			dst = append(dst, ga[j]*gb[j])
		}
	}
	if e.CellLines > 1 {
		for c := 0; c < e.CellLines; c++ {
			v := 0.0
			if c == p.CellLine {
				v = 1
			}
			dst = append(dst, v)
		}
	}
	return dst
}

// EncodeAll returns x(p) of each pair, rows sharing one backing array
// (active.Featurizer's answer for the surrogates that read the encoder);
// nil when the encoder has no drug rows.
func (e Encoder) EncodeAll(pairs []active.PairOnLine) [][]float64 {
	if len(e.Drug) == 0 {
		return nil
	}
	d := e.Dim()
	buf := make([]float64, 0, d*len(pairs))
	out := make([][]float64, len(pairs))
	for i, p := range pairs {
		buf = e.Encode(buf, p)
		out[i] = buf[i*d : (i+1)*d : (i+1)*d]
	}
	return out
}

// IdentityFeatures is the n×n identity: each drug is its own feature (an
// additive drug-effect model when summed).
func IdentityFeatures(n int) [][]float64 {
	f := make([][]float64, n)
	for i := range f {
		f[i] = make([]float64, n)
		f[i][i] = 1
	}
	return f
}

func (e Encoder) encodeAll(ms []active.Measurement) ([][]float64, []float64) {
	x := make([][]float64, len(ms))
	y := make([]float64, len(ms))
	for i, m := range ms {
		x[i] = e.Encode(nil, m.Pair)
		y[i] = m.Y
	}
	return x, y
}

// Ridge is the Bayesian-ridge surrogate on its own: mu and the posterior
// standard deviation of the mean function as sigma_epistemic, the fitted
// homoscedastic noise as sigma_aleatoric. It is the "variance of a
// probabilistic model" baseline the paper contrasts DEUP with.
type Ridge struct {
	Enc   Encoder
	model *RidgeModel
}

// Name implements active.Surrogate.
func (s *Ridge) Name() string { return "bayes-ridge" }

// PairFeatures implements active.Featurizer: the encoder's x.
func (s *Ridge) PairFeatures(pairs []active.PairOnLine) [][]float64 { return s.Enc.EncodeAll(pairs) }

// Fit implements active.Surrogate.
func (s *Ridge) Fit(ctx context.Context, ev active.Evidence) error {
	x, y := s.Enc.encodeAll(ev.Measured)
	m, err := BayesRidge{}.FitRidge(x, y)
	if err != nil {
		return err
	}
	s.model = m
	return nil
}

// Predict implements active.Surrogate.
func (s *Ridge) Predict(ctx context.Context, pairs []active.PairOnLine) ([]active.SurrogatePrediction, error) {
	if s.model == nil {
		return nil, errors.New("active: bayes-ridge: Predict before Fit")
	}
	out := make([]active.SurrogatePrediction, len(pairs))
	buf := make([]float64, 0, s.Enc.Dim())
	for i, p := range pairs {
		x := s.Enc.Encode(buf[:0], p)
		v := s.model.Variance(x)
		out[i] = active.SurrogatePrediction{Mu: s.model.Predict(x), SigmaEpistemic: math.Sqrt(v), SigmaAleatoric: math.Sqrt(s.model.Noise()), SigmaTotal: math.Sqrt(v + s.model.Noise())}
	}
	return out, nil
}

// RidgeEnsemble is a bootstrap ensemble of Bayesian-ridge main predictors: mu is
// the members' mean, sigma_epistemic their standard deviation (the Deep
// Ensemble recipe with the campaign's cheap main learner). It is the
// ensemble-UCB baseline of a simulation when no neural ensemble is used.
type RidgeEnsemble struct {
	Enc     Encoder
	Members int // 0 means 5
	models  []*RidgeModel
}

// Name implements active.Surrogate.
func (s *RidgeEnsemble) Name() string { return "ensemble" }

// PairFeatures implements active.Featurizer: the encoder's x.
func (s *RidgeEnsemble) PairFeatures(pairs []active.PairOnLine) [][]float64 {
	return s.Enc.EncodeAll(pairs)
}

// Fit implements active.Surrogate: member k is fitted on a bootstrap resample
// drawn from ev.Seed.
func (s *RidgeEnsemble) Fit(ctx context.Context, ev active.Evidence) error {
	k := s.Members
	if k <= 0 {
		k = 5
	}
	x, y := s.Enc.encodeAll(ev.Measured)
	rng := rand.New(rand.NewPCG(ev.Seed, streams.Ensemble))
	s.models = s.models[:0]
	for m := 0; m < k; m++ {
		bx := make([][]float64, len(x))
		by := make([]float64, len(y))
		for i := range bx {
			j := rng.IntN(len(x))
			bx[i], by[i] = x[j], y[j]
		}
		rm, err := BayesRidge{}.FitRidge(bx, by)
		if err != nil {
			return fmt.Errorf("active: ensemble member %d: %w", m, err)
		}
		s.models = append(s.models, rm)
	}
	return nil
}

// Predict implements active.Surrogate.
func (s *RidgeEnsemble) Predict(ctx context.Context, pairs []active.PairOnLine) ([]active.SurrogatePrediction, error) {
	if len(s.models) == 0 {
		return nil, errors.New("active: ensemble: Predict before Fit")
	}
	out := make([]active.SurrogatePrediction, len(pairs))
	buf := make([]float64, 0, s.Enc.Dim())
	k := float64(len(s.models))
	for i, p := range pairs {
		x := s.Enc.Encode(buf[:0], p)
		var sum, sum2, noise float64
		for _, m := range s.models {
			v := m.Predict(x)
			sum += v
			sum2 += v * v
			noise += m.Noise()
		}
		mu := sum / k
		varEpi := math.Max(sum2/k-mu*mu, 0) * k / math.Max(k-1, 1)
		noise /= k
		out[i] = active.SurrogatePrediction{Mu: mu, SigmaEpistemic: math.Sqrt(varEpi), SigmaAleatoric: math.Sqrt(noise), SigmaTotal: math.Sqrt(varEpi + noise)}
	}
	return out, nil
}

// InteractiveDEUP is the interactive DEUP surrogate (paper Alg. 3 with the Alg. 2
// pre-fill), built on package deup: the main predictor h (Main, by default
// BayesRidge) fits the measured pairs D; the stationarizing features
// phi_D(x) = (x, log KDE density of x under D, log model variance of h at
// x, seen bit) are fitted on D; the error predictor e (by default ridge
// regression on log squared errors, output exp(.) - 1e-6 clipped at 0)
// fits D_e, which holds
//
//   - the K-fold pre-fill of Alg. 2 on the initial pairs (Evidence.Prefill,
//     computed once by Prefill and kept in the ledger), and
//   - one out-of-sample example per acquired pair: (phi, (y - mu)^2) with
//     phi and mu from the model of the round that chose the pair
//     (Evidence.OutOfSample).
//
// sigma_total = sqrt(e(phi(x))) with e clipped to the largest loss in D_e
// (an error predictor must not extrapolate beyond the errors it has seen),
// sigma_aleatoric = sqrt(a(x)) with a from
// Aleatoric (nil: 0, the paper's pessimistic choice when no replicate
// variance is known) and sigma_epistemic = sqrt(max(e - a, 0)).
type InteractiveDEUP struct {
	Enc       Encoder
	Main      deup.Learner // nil means BayesRidge{}
	Aleatoric deup.Predictor
	Features  deup.FeatureSet   // 0 means x, d, v, b
	Error     deup.ErrorLearner // nil means ridge regression on log squared errors
	// Density, when not nil, is the d feature's density (nil: the KDE of
	// package deup); deup-net uses PairCountDensity.
	Density deup.DensityLearner
	model   *deup.Fitted
	maxLoss float64 // largest loss in D_e: e is clipped to it
}

// Name implements active.Surrogate.
func (s *InteractiveDEUP) Name() string { return RidgeDEUP }

// PairFeatures implements active.Featurizer: the encoder's x, the input of the
// main predictor (for deup-net, the pair its network reads, by identity,
// with the Morgan components and the line).
func (s *InteractiveDEUP) PairFeatures(pairs []active.PairOnLine) [][]float64 {
	return s.Enc.EncodeAll(pairs)
}

// contextLearner is a deup.Learner whose Fit can be cancelled: Net.
type contextLearner interface {
	withContext(ctx context.Context) deup.Learner
}

// config is the DEUP configuration; a main predictor that can be
// cancelled (a network) trains under ctx.
func (s *InteractiveDEUP) config(ctx context.Context) deup.Config {
	main := s.Main
	if main == nil {
		main = BayesRidge{}
	}
	if cl, ok := main.(contextLearner); ok {
		main = cl.withContext(ctx)
	}
	set := s.Features
	if set == 0 {
		set = deup.FeatX | deup.FeatD | deup.FeatV | deup.FeatB
	}
	el := s.Error
	if el == nil {
		el = deup.LogErrors{Learner: deup.Linear{Ridge: 1}, Floor: 1e-6}
	}
	return deup.Config{
		Main:      main,
		Features:  deup.Featurizer{Set: set, Density: s.Density},
		Error:     el,
		Aleatoric: s.Aleatoric,
	}
}

// Prefill runs Alg. 2 on the initial measurements: 5 folds, repeated until
// D_e holds at least twice as many examples as initial pairs, seeded.
func (s *InteractiveDEUP) Prefill(ctx context.Context, initial []active.Measurement, seed uint64) ([]deup.Example, error) {
	x, y := s.Enc.encodeAll(initial)
	return deup.Prefill(s.config(ctx), x, y, prefillOptions(len(x)), rand.New(rand.NewPCG(seed, streams.Prefill)))
}

// prefillOptions are Prefill's on n initial pairs: 5 folds (2 under 10
// pairs), repeated until D_e holds 2n examples.
func prefillOptions(n int) deup.PrefillOptions {
	folds := 5
	if n < 2*folds {
		folds = 2
	}
	return deup.PrefillOptions{Folds: folds, Repeats: 1, Size: 2 * n}
}

// prefillFits is the number of main-predictor fits of Prefill on n
// initial pairs: each repetition of the folds holds every pair out once
// (n examples), and deup.Prefill repeats until D_e holds opt.Size.
func prefillFits(n int) int {
	if n < 1 {
		return 0
	}
	opt := prefillOptions(n)
	reps := max(opt.Repeats, (opt.Size+n-1)/n)
	return reps * opt.Folds
}

// RoundTrainings is the number of network trainings of the next round of
// a campaign on surrogate s, with initial pairs at the start and prefilled
// true once the pre-fill is in the ledger: for "deup-net", the pre-fill's
// folds (first round only) and the round's network; for a NetMethod, 1
// (an ensemble's members are one training); 0 for a surrogate without a
// network. A training may begin with a second network of its own (DEUP's
// held-out-drug mu', model/deupnet/novelty.go), shown as part of it.
func RoundTrainings(s active.Surrogate, initial int, prefilled bool) int {
	switch s.(type) {
	case *netDEUP:
		if prefilled {
			return 1
		}
		return prefillFits(initial) + 1
	case *NetMethod:
		return 1
	}
	return 0
}

// Fit implements active.Surrogate. ev.Prefill must hold the Alg. 2 examples.
func (s *InteractiveDEUP) Fit(ctx context.Context, ev active.Evidence) error {
	x, y := s.Enc.encodeAll(ev.Measured)
	loop, err := deup.NewLoop(s.config(ctx), x, y)
	if err != nil {
		return err
	}
	loop.AddExamples(ev.Prefill...)
	for _, o := range ev.OutOfSample {
		if o.Phi == nil {
			return fmt.Errorf("active: deup: acquired pair %v of round %d has no stationarizing features (chosen by another model?)", o.Pair, o.Round)
		}
		loop.AddExamples(deup.Example{Phi: o.Phi, Loss: deup.SquaredError(o.Y, o.Mu), OutOfSample: true})
	}
	m, err := loop.Fit()
	if err != nil {
		return err
	}
	s.model = m
	s.maxLoss = 0
	for _, e := range loop.Examples() {
		s.maxLoss = math.Max(s.maxLoss, e.Loss)
	}
	return nil
}

// Predict implements active.Surrogate; each prediction carries its phi.
func (s *InteractiveDEUP) Predict(ctx context.Context, pairs []active.PairOnLine) ([]active.SurrogatePrediction, error) {
	if s.model == nil {
		return nil, errors.New("active: deup: Predict before Fit")
	}
	out := make([]active.SurrogatePrediction, len(pairs))
	buf := make([]float64, 0, s.Enc.Dim())
	for i, p := range pairs {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		x := s.Enc.Encode(buf[:0], p)
		est := s.model.Predict(x)
		if est.Error > s.maxLoss {
			// The error predictor extrapolates (a linear model in log
			// space grows exponentially): it may not claim a larger
			// squared error than any it has observed.
			est.Error = s.maxLoss
			est.Epistemic = est.Error - est.Aleatoric
		}
		out[i] = active.SurrogatePrediction{
			Mu:             est.Mean,
			SigmaTotal:     math.Sqrt(math.Max(est.Error, 0)),
			SigmaEpistemic: math.Sqrt(math.Max(est.Epistemic, 0)),
			SigmaAleatoric: math.Sqrt(math.Max(est.Aleatoric, 0)),
			Phi:            s.model.Features.Features(nil, x),
		}
	}
	return out, nil
}
