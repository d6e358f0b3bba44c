package active

import (
	"context"
	"fmt"

	"github.com/deup-screening/deup/deup"
)

// PairOnLine is one unordered drug pair on one cell line, by index into the
// campaign's drugs and cell lines. A < B.
type PairOnLine struct {
	A, B, CellLine int
}

// NewPairOnLine orders a and b so that A < B.
func NewPairOnLine(a, b, cellLine int) PairOnLine {
	if b < a {
		a, b = b, a
	}
	return PairOnLine{A: a, B: b, CellLine: cellLine}
}

func (p PairOnLine) String() string { return fmt.Sprintf("(%d,%d)@%d", p.A, p.B, p.CellLine) }

// SurrogatePrediction is what a surrogate says about one candidate. The sigmas are
// standard deviations: SigmaTotal^2 ~ SigmaEpistemic^2 + SigmaAleatoric^2.
// Acquisition uses SigmaEpistemic, the reducible part: measuring a pair
// cannot shrink the replicate noise.
type SurrogatePrediction struct {
	Mu             float64
	SigmaTotal     float64
	SigmaEpistemic float64
	SigmaAleatoric float64
	// Phi holds the surrogate's stationarizing features of the candidate
	// under the current training set (for DEUP: log-density, log model
	// variance, seen bit). They are stored in the ledger with the
	// suggestion, so that once the pair is measured the out-of-sample
	// example (Phi, (y-Mu)^2) can be rebuilt after a restart. May be nil.
	Phi []float64
}

// Measurement is one measured pair: its score (the first score column of the
// screen, e.g. ComboScore).
type Measurement struct {
	Pair PairOnLine
	Y    float64
}

// OutOfSample is a pair measured after a model predicted it without having
// seen it: the paper's Alg. 3 adds (Phi, (Y-Mu)^2) to the error predictor's
// training set D_e.
type OutOfSample struct {
	Pair  PairOnLine
	Round int       // the round whose model made the prediction
	Mu    float64   // that model's prediction
	Phi   []float64 // that model's stationarizing features at the pair
	Y     float64   // the measurement that came back
}

// Evidence is everything a surrogate may learn from at the start of a round.
type Evidence struct {
	Round       int            // the round about to be proposed (1-based)
	Measured    []Measurement  // D: every measured pair (initial and acquired), in ledger order
	Initial     int            // Measured[:Initial] is the initial set (Alg. 2 pre-fills D_e from it)
	OutOfSample []OutOfSample  // acquired pairs with the prediction that chose them, in ledger order
	Prefill     []deup.Example // D_e pre-filled from the initial pairs (Alg. 2), for a Prefiller
	Seed        uint64         // seed for this round's fit; same seed, same model
}

// Surrogate is the model a campaign consults: it fits on the evidence and
// predicts candidates. Implementations must be deterministic for a given
// Evidence (including its Seed): resuming after a crash refits and must
// propose the same batch.
type Surrogate interface {
	// Name identifies the method ("deup-ridge", "bayes-ridge", ...).
	Name() string
	Fit(ctx context.Context, ev Evidence) error
	// Predict returns one prediction per pair. Valid after Fit.
	Predict(ctx context.Context, pairs []PairOnLine) ([]SurrogatePrediction, error)
}

// Prefiller is a Surrogate whose error model starts from examples computed
// once from the initial pairs (DEUP's Alg. 2). The campaign calls Prefill
// before the first round, stores the examples in the ledger, and passes them
// back in every Evidence.Prefill, so a restart never recomputes them.
type Prefiller interface {
	Surrogate
	Prefill(ctx context.Context, initial []Measurement, seed uint64) ([]deup.Example, error)
}

// Oracle measures pairs (retrospective mode: looks them up in a screen that
// was already measured).
type Oracle interface {
	Measure(pairs []PairOnLine) ([]float64, error)
}
