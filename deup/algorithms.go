package deup

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// LogErrors is an ErrorLearner that fits Learner on log(loss + Floor) -
// Offset and predicts exp(prediction + Offset) - Floor, clipped at 0: the
// paper trains its error predictors on log targets because losses span
// orders of magnitude. Floor 0 means 1e-8.
//
// Offset is the log-loss that a zero prediction means. It matters for
// learners that revert to 0 away from their data (a GP with a zero prior
// mean and unstandardized targets): there e predicts exp(Offset). Setting
// Offset to the log variance of the targets says "where nothing is known,
// expect the error of a constant predictor"; the paper's SMO code, a GP with
// zero mean on raw log errors, uses Offset 0. Negative or NaN losses are an
// error.
type LogErrors struct {
	Learner Learner
	Floor   float64
	Offset  float64
}

func (l LogErrors) floor() float64 {
	if l.Floor <= 0 {
		return 1e-8
	}
	return l.Floor
}

// FitErrors implements ErrorLearner.
func (l LogErrors) FitErrors(phi [][]float64, loss []float64) (Predictor, error) {
	if l.Learner == nil {
		return nil, errors.New("deup: LogErrors has no learner")
	}
	if len(phi) != len(loss) {
		return nil, fmt.Errorf("deup: %d feature rows but %d losses", len(phi), len(loss))
	}
	if len(phi) == 0 {
		return nil, errors.New("deup: no error examples to fit")
	}
	fl := l.floor()
	t := make([]float64, len(loss))
	for i, v := range loss {
		if !(v >= 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("deup: error example %d has loss %v", i, v)
		}
		t[i] = math.Log(v+fl) - l.Offset
	}
	p, err := l.Learner.Fit(phi, t)
	if err != nil {
		return nil, fmt.Errorf("deup: fit error predictor: %w", err)
	}
	return expPredictor{p, fl, l.Offset}, nil
}

type expPredictor struct {
	p      Predictor
	floor  float64
	offset float64
}

func (e expPredictor) Predict(phi []float64) float64 {
	return math.Max(math.Exp(e.p.Predict(phi)+e.offset)-e.floor, 0)
}

// FitFixed is Algorithm 1 (DEUP with a fixed training set): it fits h and phi
// on the training set, builds D_e from the out-of-sample losses on the
// validation set, and fits the error predictor on D_e.
func FitFixed(cfg Config, trainX [][]float64, trainY []float64, validX [][]float64, validY []float64) (*Fitted, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if len(validX) != len(validY) {
		return nil, fmt.Errorf("deup: %d validation inputs but %d targets", len(validX), len(validY))
	}
	h, phi, err := fitModel(&cfg, trainX, trainY)
	if err != nil {
		return nil, err
	}
	de := make([]Example, len(validX))
	for i := range validX {
		de[i] = Example{Phi: phi.Features(nil, validX[i]), Loss: cfg.loss(validY[i], h.Predict(validX[i])), OutOfSample: true}
	}
	e, err := cfg.Error.FitErrors(ErrorSet(de))
	if err != nil {
		return nil, err
	}
	return &Fitted{Main: h, Features: phi, Error: e, Aleatoric: cfg.Aleatoric}, nil
}

// PrefillOptions configure Algorithm 2. The zero value is the paper's SMO
// setting without in-sample entries: 2 folds, 2 random partitions.
type PrefillOptions struct {
	Folds   int // K >= 2; 0 means 2 (the paper's halves)
	Repeats int // random partitions at least; 0 means 2
	// Size is N_pretrain: partitions continue beyond Repeats until D_e
	// holds at least Size examples. 0 means no minimum.
	Size int
	// InSample also adds the in-sample losses of each fitted predictor on
	// its own training folds (the paper's SMO setting: with 2 folds, 2
	// repeats and in-sample entries, D_e gets 4 examples per initial point).
	InSample bool
}

// Prefill is Algorithm 2: it splits (x, y) into K random folds of (nearly)
// equal size, fits h and phi on K-1 folds, and adds the losses on the held-out
// fold to D_e; every fold is held out once per partition. It needs at least K
// points. Randomness comes only from rng.
func Prefill(cfg Config, x [][]float64, y []float64, opt PrefillOptions, rng *rand.Rand) ([]Example, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	k := opt.Folds
	if k == 0 {
		k = 2
	}
	reps := opt.Repeats
	if reps == 0 {
		reps = 2
	}
	if k < 2 {
		return nil, fmt.Errorf("deup: prefill with %d folds, need at least 2", k)
	}
	if len(x) != len(y) {
		return nil, fmt.Errorf("deup: %d inputs but %d targets", len(x), len(y))
	}
	if len(x) < k {
		return nil, fmt.Errorf("deup: prefill with %d folds needs at least %d points, have %d", k, k, len(x))
	}
	var de []Example
	for r := 0; r < reps || len(de) < opt.Size; r++ {
		perm := rng.Perm(len(x))
		for fold := 0; fold < k; fold++ {
			var tx, hx [][]float64
			var ty, hy []float64
			for i, p := range perm {
				if i%k == fold {
					hx, hy = append(hx, x[p]), append(hy, y[p])
				} else {
					tx, ty = append(tx, x[p]), append(ty, y[p])
				}
			}
			h, phi, err := fitModel(&cfg, tx, ty)
			if err != nil {
				return nil, err
			}
			for i := range hx {
				de = append(de, Example{Phi: phi.Features(nil, hx[i]), Loss: cfg.loss(hy[i], h.Predict(hx[i])), OutOfSample: true})
			}
			if opt.InSample {
				for i := range tx {
					de = append(de, Example{Phi: phi.Features(nil, tx[i]), Loss: cfg.loss(ty[i], h.Predict(tx[i]))})
				}
			}
		}
	}
	return de, nil
}

// Loop is Algorithm 3, DEUP in an interactive setting. The caller owns the
// acquisition policy pi:
//
//	loop, _ := deup.NewLoop(cfg, x0, y0)
//	loop.Prefill(opt, rng)            // optional Algorithm 2
//	for !done {
//		m, _ := loop.Fit()            // h_D, phi_D on D; e on D_e
//		x := acquire(m)               // pi(. | h_D, x -> e(phi_D(x)) - a(x))
//		loop.Observe(x, oracle(x))    // D_e += (phi_D(x), l(y, h_D(x))); D += (x, y)
//	}
//
// Each acquired point is an out-of-sample example for the predictor that
// chose it. A Loop is not safe for concurrent use.
type Loop struct {
	cfg   Config
	x     [][]float64
	y     []float64
	de    []Example
	model *Fitted
}

// NewLoop starts a loop on the initial data D_init (copied).
func NewLoop(cfg Config, x [][]float64, y []float64) (*Loop, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if len(x) != len(y) {
		return nil, fmt.Errorf("deup: %d inputs but %d targets", len(x), len(y))
	}
	l := &Loop{cfg: cfg}
	for i := range x {
		l.x = append(l.x, append([]float64(nil), x[i]...))
	}
	l.y = append(l.y, y...)
	return l, nil
}

// Prefill runs Algorithm 2 on the current data and adds its examples to D_e.
func (l *Loop) Prefill(opt PrefillOptions, rng *rand.Rand) error {
	de, err := Prefill(l.cfg, l.x, l.y, opt, rng)
	if err != nil {
		return err
	}
	l.de = append(l.de, de...)
	return nil
}

// AddExamples adds examples to D_e (for example from an earlier run).
func (l *Loop) AddExamples(de ...Example) { l.de = append(l.de, de...) }

// Fit fits h_D and phi_D on D and the error predictor on D_e, and returns the
// model that the next Observe will score. D_e must not be empty.
func (l *Loop) Fit() (*Fitted, error) {
	h, phi, err := fitModel(&l.cfg, l.x, l.y)
	if err != nil {
		return nil, err
	}
	if len(l.de) == 0 {
		return nil, errors.New("deup: loop: D_e is empty (prefill it or add examples)")
	}
	e, err := l.cfg.Error.FitErrors(ErrorSet(l.de))
	if err != nil {
		return nil, err
	}
	l.model = &Fitted{Main: h, Features: phi, Error: e, Aleatoric: l.cfg.Aleatoric}
	return l.model, nil
}

// Observe records the oracle's answer y at the acquired x: it adds
// (phi_D(x), l(y, h_D(x))) to D_e, with h_D and phi_D from the last Fit, and
// (x, y) to D. It fails if Fit has not been called since the last Observe.
func (l *Loop) Observe(x []float64, y float64) error {
	if l.model == nil {
		return errors.New("deup: loop: Observe without a fitted model (call Fit first)")
	}
	m := l.model
	l.de = append(l.de, Example{Phi: m.Features.Features(nil, x), Loss: l.cfg.loss(y, m.Main.Predict(x)), OutOfSample: true})
	l.x = append(l.x, append([]float64(nil), x...))
	l.y = append(l.y, y)
	l.model = nil
	return nil
}

// Data returns the current training set D (owned by the Loop; do not modify).
func (l *Loop) Data() ([][]float64, []float64) { return l.x, l.y }

// Examples returns D_e (owned by the Loop; do not modify).
func (l *Loop) Examples() []Example { return l.de }

// ReplicateVariance returns K/(K-1) times the empirical variance of K >= 2
// replicate outcomes at one input: an unbiased estimate of Var[Y|x] (the
// paper's eq. for aleatoric targets).
func ReplicateVariance(ys []float64) (float64, error) {
	k := len(ys)
	if k < 2 {
		return 0, fmt.Errorf("deup: replicate variance needs at least 2 outcomes, have %d", k)
	}
	var m float64
	for _, v := range ys {
		m += v
	}
	m /= float64(k)
	var ss float64
	for _, v := range ys {
		ss += (v - m) * (v - m)
	}
	emp := ss / float64(k)
	return float64(k) / float64(k-1) * emp, nil
}

// FitAleatoric fits the aleatoric estimator a(x) by regressing, with l and
// the squared loss, the replicate variances K/(K-1) Var(y_1..y_K) of each
// input x[i] with outcomes replicates[i]. Predictions are clipped at 0.
func FitAleatoric(l Learner, x [][]float64, replicates [][]float64) (Predictor, error) {
	if len(x) != len(replicates) {
		return nil, fmt.Errorf("deup: %d inputs but %d replicate sets", len(x), len(replicates))
	}
	t := make([]float64, len(x))
	for i, r := range replicates {
		v, err := ReplicateVariance(r)
		if err != nil {
			return nil, fmt.Errorf("deup: input %d: %w", i, err)
		}
		t[i] = v
	}
	p, err := l.Fit(x, t)
	if err != nil {
		return nil, fmt.Errorf("deup: fit aleatoric estimator: %w", err)
	}
	return nonNeg{p}, nil
}

type nonNeg struct{ p Predictor }

func (n nonNeg) Predict(x []float64) float64 { return math.Max(n.p.Predict(x), 0) }
