package active

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/deup-screening/deup/active/ledger"
	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/drugcomb"
)

// Ledger event kinds written by a campaign.
const (
	KindInit    ledger.Kind = "init"    // config (Extra, JSON), initial measurements and candidates
	KindPrefill ledger.Kind = "prefill" // Alg. 2 examples: Phi, loss in Y, Reason "in-sample"/"out-of-sample"
	KindSuggest ledger.Kind = "suggest" // one round's batch with the model version that chose it
	KindMeasure ledger.Kind = "measure" // measurements of a round's suggestions (one or more events per round)
	KindClose   ledger.Kind = "close"   // a round closed with some suggestions unmeasured (they return to the pool)
)

// Modes of a campaign.
const (
	Live          = "live"          // suggestions are exported, results imported
	Retrospective = "retrospective" // the oracle is a screen already measured
)

// Config is a campaign's configuration, stored as JSON in its init event.
type Config struct {
	Mode        string `json:"mode"`             // Live or Retrospective
	Screen      string `json:"screen,omitempty"` // screen directory (the oracle of a retrospective campaign)
	Score       string `json:"score"`            // name of the score column
	Acquisition string `json:"acquisition"`      // ParseAcquisition syntax
	Model       string `json:"model"`            // surrogate name, see NewSurrogate
	Features    string `json:"features"`         // drug features, see DrugFeatures
	Batch       int    `json:"batch"`            // suggestions per round
	Rounds      int    `json:"rounds"`           // rounds to run; 0 means no limit
	MaxPerDrug  int    `json:"max_per_drug"`     // diversity rule; 0 means none
	// MaxPerLine caps the pairs of any one cell line in a round's batch
	// (0: no cap), for a campaign across the lines of a panel: the rule of
	// SelectBatchPerLine, as deup suggest --per-line applies it.
	MaxPerLine int `json:"max_per_line,omitempty"`
	// Explore is the acquisition's ExploreWeight (deup campaign init
	// --explore): 0, the default, leaves the acquisition as it is.
	Explore   float64         `json:"explore,omitempty"`
	Seed      uint64          `json:"seed"`
	Drugs     []drugcomb.Drug `json:"drugs"`
	CellLines []string        `json:"cell_lines"`
	// LineFeatures are numeric features of CellLines (deup campaign init
	// --cell-features; one row per line, standardized as deup train
	// standardizes them), which the network surrogates map into their line
	// embedding; nil: none.
	LineFeatures [][]float64 `json:"line_features,omitempty"`
}

// Check validates the configuration.
func (c Config) Check() error {
	switch {
	case c.Mode != Live && c.Mode != Retrospective:
		return fmt.Errorf("active: mode %q, want %q or %q", c.Mode, Live, Retrospective)
	case c.Batch < 1:
		return fmt.Errorf("active: batch size %d, want >= 1", c.Batch)
	case c.Rounds < 0:
		return fmt.Errorf("active: rounds %d, want >= 0", c.Rounds)
	case c.MaxPerDrug < 0:
		return fmt.Errorf("active: max per drug %d, want >= 0", c.MaxPerDrug)
	case c.MaxPerLine < 0:
		return fmt.Errorf("active: max per cell line %d, want >= 0", c.MaxPerLine)
	case len(c.Drugs) < 2:
		return fmt.Errorf("active: %d drugs, need at least 2", len(c.Drugs))
	case len(c.CellLines) < 1:
		return errors.New("active: no cell line")
	case c.LineFeatures != nil && (len(c.LineFeatures) != len(c.CellLines) || len(c.CellLines) < 2):
		return fmt.Errorf("active: cell-line features for %d lines, the campaign has %d (features need several)", len(c.LineFeatures), len(c.CellLines))
	}
	a, err := ParseAcquisition(c.Acquisition)
	if err != nil {
		return err
	}
	if (a.Joint() || a.Calibrated()) && c.Explore != 0 {
		return fmt.Errorf("active: acquisition %s reads the campaign's calibrated sigma or chooses its batch jointly, and takes no explore weight (%v)", a, c.Explore)
	}
	return CheckExplore(c.Explore)
}

// Suggestion is one proposed experiment.
type Suggestion struct {
	Rank int // 1 = best
	Pair PairOnLine
	SurrogatePrediction
	Score  float64 // acquisition score
	Reason string
}

// Round is one round of a campaign.
type Round struct {
	Index        int // 1-based
	ModelVersion string
	Suggestions  []Suggestion
	Measured     map[PairOnLine]float64 // results received so far
	Closed       bool                   // closed with some suggestions unmeasured
}

// Complete reports whether every suggestion has a result or the round was closed.
func (r *Round) Complete() bool { return r.Closed || len(r.Measured) == len(r.Suggestions) }

// Store is where a campaign keeps its events: a *ledger.Ledger on disk, or
// NewMemoryStore for simulations.
type Store interface {
	Events() []ledger.Event
	Append(e *ledger.Event) error
}

type memoryStore struct{ events []ledger.Event }

// NewMemoryStore returns an in-memory Store (not durable).
func NewMemoryStore() Store { return &memoryStore{} }

func (m *memoryStore) Events() []ledger.Event { return m.events }
func (m *memoryStore) Append(e *ledger.Event) error {
	e.Seq = len(m.events) + 1
	ev := *e
	ev.Records = append([]ledger.Record(nil), e.Records...)
	m.events = append(m.events, ev)
	return nil
}

// State is a campaign's state, replayed from its Store: its rounds,
// measurements and open candidates. A State is not safe for concurrent use.
type State struct {
	Config     Config
	store      Store
	measured   []Measurement
	initial    int
	candidates []PairOnLine
	inPool     map[PairOnLine]bool // candidate not yet suggested (or returned by a close)
	known      map[PairOnLine]bool // measured at any time
	rounds     []*Round
	prefill    []deup.Example
	hasPrefill bool
	oos        []OutOfSample
	acq        Acquisition
}

// ErrNotEmpty is Create's error on a store that already holds a campaign
// (resume it instead).
var ErrNotEmpty = errors.New("active: the ledger already holds a campaign")

// ErrNoCampaign is Load's error on an empty store (start a campaign with
// Create first).
var ErrNoCampaign = errors.New("active: empty ledger: no campaign")

// OpenRoundError is Step's error without an oracle while a round still
// waits for Missing of its results: they must be imported (Record).
type OpenRoundError struct{ Round, Missing int }

func (e *OpenRoundError) Error() string {
	return fmt.Sprintf("active: round %d is waiting for %d results", e.Round, e.Missing)
}

// Create starts a campaign in an empty store: it validates cfg, the initial
// measurements and the candidates, and appends the init event.
func Create(store Store, cfg Config, initial []Measurement, candidates []PairOnLine) (*State, error) {
	if len(store.Events()) != 0 {
		return nil, ErrNotEmpty
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if len(initial) < 2 {
		return nil, fmt.Errorf("active: %d initial measurements, need at least 2", len(initial))
	}
	if len(candidates) == 0 {
		return nil, errors.New("active: no candidate pairs")
	}
	extra, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("active: %w", err)
	}
	ev := ledger.Event{Kind: KindInit, Extra: string(extra)}
	for _, m := range initial {
		ev.Records = append(ev.Records, record(m.Pair, m.Y))
	}
	for _, p := range candidates {
		r := record(p, math.NaN())
		r.Candidate = true
		ev.Records = append(ev.Records, r)
	}
	// Validate by replaying before anything is written.
	probe := &memoryStore{}
	probe.Append(&ev)
	if _, err := Load(probe); err != nil {
		return nil, err
	}
	if err := store.Append(&ev); err != nil {
		return nil, err
	}
	return Load(store)
}

func record(p PairOnLine, y float64) ledger.Record {
	nan := math.NaN()
	return ledger.Record{A: p.A, B: p.B, CellLine: p.CellLine, Y: y, Mu: nan, SigmaTotal: nan, SigmaEpistemic: nan, SigmaAleatoric: nan, Score: nan}
}

// Load replays the events of store and checks the campaign's invariants: a
// round is suggested only after the previous one is complete, every result
// answers a suggestion of its round, no pair is measured twice.
func Load(store Store) (*State, error) {
	evs := store.Events()
	if len(evs) == 0 {
		return nil, ErrNoCampaign
	}
	c := &State{store: store, inPool: map[PairOnLine]bool{}, known: map[PairOnLine]bool{}}
	for i := range evs {
		if err := c.apply(&evs[i]); err != nil {
			return nil, fmt.Errorf("active: ledger event %d (%s): %w", evs[i].Seq, evs[i].Kind, err)
		}
	}
	return c, nil
}

func (c *State) apply(e *ledger.Event) error {
	if e.Kind != KindInit && c.candidates == nil && len(c.measured) == 0 {
		return errors.New("event before init")
	}
	check := func(r ledger.Record) (PairOnLine, error) {
		p := PairOnLine{A: r.A, B: r.B, CellLine: r.CellLine}
		if p.A < 0 || p.B >= len(c.Config.Drugs) || p.A >= p.B || p.CellLine < 0 || p.CellLine >= len(c.Config.CellLines) {
			return p, fmt.Errorf("pair %v out of range (%d drugs, %d cell lines, A < B)", p, len(c.Config.Drugs), len(c.Config.CellLines))
		}
		return p, nil
	}
	switch e.Kind {
	case KindInit:
		if c.candidates != nil || len(c.measured) > 0 {
			return errors.New("second init")
		}
		if err := json.Unmarshal([]byte(e.Extra), &c.Config); err != nil {
			return fmt.Errorf("config: %w", err)
		}
		if err := c.Config.Check(); err != nil {
			return err
		}
		c.acq, _ = ParseAcquisition(c.Config.Acquisition)
		c.acq.ExploreWeight = c.Config.Explore
		c.candidates = []PairOnLine{}
		for _, r := range e.Records {
			p, err := check(r)
			if err != nil {
				return err
			}
			if c.known[p] || c.inPool[p] {
				return fmt.Errorf("pair %v listed twice", p)
			}
			if r.Candidate {
				c.candidates = append(c.candidates, p)
				c.inPool[p] = true
				continue
			}
			if math.IsNaN(r.Y) || math.IsInf(r.Y, 0) {
				return fmt.Errorf("initial pair %v has score %v", p, r.Y)
			}
			c.measured = append(c.measured, Measurement{p, r.Y})
			c.known[p] = true
		}
		c.initial = len(c.measured)
	case KindPrefill:
		if c.hasPrefill || len(c.rounds) > 0 {
			return errors.New("prefill after the first round")
		}
		c.hasPrefill = true
		for _, r := range e.Records {
			c.prefill = append(c.prefill, deup.Example{Phi: r.Phi, Loss: r.Y, OutOfSample: r.Reason != "in-sample"})
		}
	case KindSuggest:
		if n := len(c.rounds); n > 0 && !c.rounds[n-1].Complete() {
			return fmt.Errorf("round %d suggested while round %d is open", e.Round, n)
		}
		if e.Round != len(c.rounds)+1 {
			return fmt.Errorf("round %d follows round %d", e.Round, len(c.rounds))
		}
		rd := &Round{Index: e.Round, ModelVersion: e.ModelVersion, Measured: map[PairOnLine]float64{}}
		for _, r := range e.Records {
			p, err := check(r)
			if err != nil {
				return err
			}
			if !c.inPool[p] {
				return fmt.Errorf("suggested pair %v is not an open candidate", p)
			}
			delete(c.inPool, p)
			rd.Suggestions = append(rd.Suggestions, Suggestion{Rank: r.Rank, Pair: p, Score: r.Score, Reason: r.Reason,
				SurrogatePrediction: SurrogatePrediction{Mu: r.Mu, SigmaTotal: r.SigmaTotal, SigmaEpistemic: r.SigmaEpistemic, SigmaAleatoric: r.SigmaAleatoric, Phi: r.Phi}})
		}
		c.rounds = append(c.rounds, rd)
	case KindMeasure, KindClose:
		if e.Round < 1 || e.Round != len(c.rounds) {
			return fmt.Errorf("results for round %d, but the open round is %d", e.Round, len(c.rounds))
		}
		rd := c.rounds[e.Round-1]
		if rd.Closed {
			return fmt.Errorf("round %d is closed", e.Round)
		}
		if e.Kind == KindClose {
			rd.Closed = true
			for _, s := range rd.Suggestions {
				if _, ok := rd.Measured[s.Pair]; !ok {
					c.inPool[s.Pair] = true
				}
			}
			return nil
		}
		for _, r := range e.Records {
			p, err := check(r)
			if err != nil {
				return err
			}
			s, ok := rd.find(p)
			if !ok {
				return fmt.Errorf("pair %v was not suggested in round %d", p, e.Round)
			}
			if c.known[p] {
				return fmt.Errorf("pair %v measured twice", p)
			}
			if math.IsNaN(r.Y) || math.IsInf(r.Y, 0) {
				return fmt.Errorf("pair %v has score %v", p, r.Y)
			}
			c.known[p] = true
			rd.Measured[p] = r.Y
			c.measured = append(c.measured, Measurement{p, r.Y})
			c.oos = append(c.oos, OutOfSample{Pair: p, Round: rd.Index, Mu: s.Mu, Phi: s.Phi, Y: r.Y})
		}
	default:
		return fmt.Errorf("unknown event kind %q", e.Kind)
	}
	return nil
}

func (r *Round) find(p PairOnLine) (Suggestion, bool) {
	for _, s := range r.Suggestions {
		if s.Pair == p {
			return s, true
		}
	}
	return Suggestion{}, false
}

// Rounds returns the rounds so far (owned by the campaign; do not modify).
func (c *State) Rounds() []*Round { return c.rounds }

// Measured returns every measurement, initial ones first (owned by the campaign).
func (c *State) Measured() []Measurement { return c.measured }

// Initial is the number of initial measurements.
func (c *State) Initial() int { return c.initial }

// Prefilled reports whether the store holds the pre-fill (Alg. 2's D_e)
// of a Prefiller surrogate: rounds after it train no pre-fill folds.
func (c *State) Prefilled() bool { return c.hasPrefill }

// Pool returns the open candidates in their init order.
func (c *State) Pool() []PairOnLine {
	out := make([]PairOnLine, 0, len(c.inPool))
	for _, p := range c.candidates {
		if c.inPool[p] {
			out = append(out, p)
		}
	}
	return out
}

// Open returns the open (incomplete) round, or nil.
func (c *State) Open() *Round {
	if n := len(c.rounds); n > 0 && !c.rounds[n-1].Complete() {
		return c.rounds[n-1]
	}
	return nil
}

// Done reports whether the configured number of rounds is complete (never
// for Rounds 0) or the pool is exhausted with no open round.
func (c *State) Done() bool {
	if c.Open() != nil {
		return false
	}
	if c.Config.Rounds > 0 && len(c.rounds) >= c.Config.Rounds {
		return true
	}
	return len(c.inPool) == 0
}

// Best returns the best measured score so far.
func (c *State) Best() float64 {
	best := math.Inf(-1)
	for _, m := range c.measured {
		best = math.Max(best, m.Y)
	}
	return best
}

func (c *State) roundSeed(round int, stream uint64) uint64 {
	return rand.New(rand.NewPCG(c.Config.Seed, uint64(round)<<8|stream)).Uint64()
}

// Evidence is what a surrogate may learn from before proposing round Index.
func (c *State) Evidence() Evidence {
	return Evidence{
		Round:       len(c.rounds) + 1,
		Measured:    c.measured,
		Initial:     c.initial,
		OutOfSample: c.oos,
		Prefill:     c.prefill,
		Seed:        c.roundSeed(len(c.rounds)+1, 1),
	}
}

// Calibrations returns the measured suggestions of every round, in round
// and rank order, with the prediction that chose each (SigmaScale's
// input).
func (c *State) Calibrations() []Calibration {
	var out []Calibration
	for _, rd := range c.rounds {
		for _, s := range rd.Suggestions {
			if y, ok := rd.Measured[s.Pair]; ok {
				out = append(out, Calibration{Mu: s.Mu, SigmaTotal: s.SigmaTotal, Y: y})
			}
		}
	}
	return out
}

// Proposal is a proposed round together with the surrogate's predictions on
// the whole pool it chose from (in Pool order).
type Proposal struct {
	Round *Round
	Pool  []PairOnLine
	Preds []SurrogatePrediction
}

// Propose fits s on the evidence, scores the open candidates, selects the
// batch and appends it durably as the next round. It is deterministic: the
// same ledger, surrogate and seed give the same batch, so a round lost to a
// crash before its suggest event was written is proposed again identically.
func (c *State) Propose(ctx context.Context, s Surrogate) (*Proposal, error) {
	return c.ProposeWith(ctx, s, c.acq, c.Config.Batch)
}

// ProposeWith is Propose with this round's acquisition function and batch
// size instead of the configured ones (recorded in the suggest event).
func (c *State) ProposeWith(ctx context.Context, s Surrogate, acq Acquisition, batch int) (*Proposal, error) {
	if batch < 1 {
		return nil, fmt.Errorf("active: batch size %d, want >= 1", batch)
	}
	if r := c.Open(); r != nil {
		return nil, fmt.Errorf("active: round %d is waiting for %d of %d results", r.Index, len(r.Suggestions)-len(r.Measured), len(r.Suggestions))
	}
	if c.Done() {
		return nil, errors.New("active: campaign complete (no rounds left or no candidates)")
	}
	// The pre-fill of the first round is written with the round's suggest
	// event, not before it: a round stopped (a signal, ctx) or failed
	// before its batch leaves the store as it was (a kill between the two
	// appends leaves a pre-fill without a round, which the next round
	// reads).
	var prefill *ledger.Event
	if pf, ok := s.(Prefiller); ok && !c.hasPrefill {
		de, err := pf.Prefill(ctx, c.measured[:c.initial], c.roundSeed(0, 2))
		if err != nil {
			return nil, fmt.Errorf("active: prefill: %w", err)
		}
		prefill = &ledger.Event{Kind: KindPrefill}
		for _, e := range de {
			r := record(PairOnLine{A: 0, B: 1}, e.Loss)
			r.Phi = e.Phi
			r.Reason = "out-of-sample"
			if !e.OutOfSample {
				r.Reason = "in-sample"
			}
			prefill.Records = append(prefill.Records, r)
		}
		if err := c.apply(prefill); err != nil {
			return nil, err
		}
		defer func() {
			if prefill != nil { // not appended: forget it
				c.prefill, c.hasPrefill = nil, false
			}
		}()
	}
	ev := c.Evidence()
	if err := s.Fit(ctx, ev); err != nil {
		return nil, fmt.Errorf("active: round %d: fit %s: %w", ev.Round, s.Name(), err)
	}
	pool := c.Pool()
	preds, err := s.Predict(ctx, pool)
	if err != nil {
		return nil, fmt.Errorf("active: round %d: predict: %w", ev.Round, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("active: round %d: %w", ev.Round, err)
	}
	rng := rand.New(rand.NewPCG(c.roundSeed(ev.Round, 3), 0))
	version := modelVersion(s.Name(), ev)
	ex := map[string]any{"acquisition": acq.String(), "batch": batch, "pool": len(pool)}
	if acq.ExploreWeight > 0 {
		ex["explore"] = acq.ExploreWeight
	}
	var pick []int
	var scores, jointSigma []float64
	if acq.Calibrated() {
		var ncal int
		acq.Scale, ncal = SigmaScale(c.Calibrations(), CalibrationCoverage)
		ex["sigma_scale"], ex["calibration_pairs"] = acq.Scale, ncal
	}
	if acq.Joint() {
		fz, ok := s.(Featurizer)
		if !ok {
			return nil, fmt.Errorf("active: acquisition %s chooses its batch in the surrogate's feature space, and %s gives none", acq, s.Name())
		}
		x := fz.PairFeatures(pool)
		l2 := MedianSqDist(x, MedianSamples, rand.New(rand.NewPCG(c.roundSeed(ev.Round, 4), 0)))
		if !(l2 > 0) {
			l2 = 1 // every candidate has the same features: any length-scale gives k = 1
		}
		j, err := SelectJoint(acq, pool, preds, x, l2, c.Best(), rng, batch, c.Config.MaxPerDrug, c.Config.MaxPerLine)
		if err != nil {
			return nil, err
		}
		pick, scores, jointSigma = j.Pick, j.Scores, j.Sigma
		ex["length_scale2"] = l2
	} else {
		var err error
		scores, err = acq.Scores(nil, preds, c.Best(), rng)
		if err != nil {
			return nil, err
		}
		pick = SelectBatchPerLine(pool, scores, batch, c.Config.MaxPerDrug, c.Config.MaxPerLine)
	}
	extra, _ := json.Marshal(ex)
	sev := ledger.Event{Kind: KindSuggest, Round: ev.Round, ModelVersion: version, Extra: string(extra)}
	for rank, i := range pick {
		p := preds[i]
		r := ledger.Record{A: pool[i].A, B: pool[i].B, CellLine: pool[i].CellLine, Y: math.NaN(),
			Mu: p.Mu, SigmaTotal: p.SigmaTotal, SigmaEpistemic: p.SigmaEpistemic, SigmaAleatoric: p.SigmaAleatoric,
			Score: scores[i], Rank: rank + 1, Reason: acq.Reason(p, scores[i], rank+1, len(pool)), Phi: p.Phi}
		if jointSigma != nil {
			r.Reason += fmt.Sprintf("; picked %d of the batch, calibrated sigma_epistemic %.4g after the believer's earlier picks", rank+1, jointSigma[rank])
		}
		if c.Config.MaxPerDrug > 0 {
			r.Reason += fmt.Sprintf("; at most %d per drug", c.Config.MaxPerDrug)
		}
		if c.Config.MaxPerLine > 0 {
			r.Reason += fmt.Sprintf("; at most %d per cell line", c.Config.MaxPerLine)
		}
		sev.Records = append(sev.Records, r)
	}
	if prefill != nil {
		if err := c.store.Append(prefill); err != nil {
			return nil, err
		}
		prefill = nil
	}
	if err := c.store.Append(&sev); err != nil {
		return nil, err
	}
	if err := c.apply(&sev); err != nil {
		return nil, err
	}
	return &Proposal{Round: c.rounds[len(c.rounds)-1], Pool: pool, Preds: preds}, nil
}

// modelVersion names the fitted model: method, round, training-set size and
// a hash of everything it was fitted on (pairs, scores, D_e, seed).
func modelVersion(name string, ev Evidence) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%d|%d|", name, ev.Round, ev.Seed)
	for _, m := range ev.Measured {
		fmt.Fprintf(h, "%d,%d,%d,%x;", m.Pair.A, m.Pair.B, m.Pair.CellLine, math.Float64bits(m.Y))
	}
	fmt.Fprintf(h, "|%d|%d", len(ev.OutOfSample), len(ev.Prefill))
	return fmt.Sprintf("%s/round-%d/n-%d/%016x", name, ev.Round, len(ev.Measured), h.Sum64())
}

// Problem is one refused result: Index is its position in the slice given
// to Record.
type Problem struct {
	Index int
	Msg   string
}

// ResultsError lists every refused result of a Record call; nothing was
// written.
type ResultsError struct{ Problems []Problem }

func (e *ResultsError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "result %d: %s", p.Index+1, p.Msg)
	}
	return "active: results refused: " + b.String()
}

// Record validates results for the open round and appends them as one
// durable event. Any unknown pair (not suggested in the open round),
// duplicate (twice in ms, or already measured) or non-finite score refuses
// the whole call with a *ResultsError, leaving the ledger unchanged.
func (c *State) Record(ms []Measurement) error {
	rd := c.Open()
	if rd == nil {
		return errors.New("active: no open round awaits results")
	}
	var probs []Problem
	seen := map[PairOnLine]int{}
	for i, m := range ms {
		p := NewPairOnLine(m.Pair.A, m.Pair.B, m.Pair.CellLine)
		switch {
		case math.IsNaN(m.Y) || math.IsInf(m.Y, 0):
			probs = append(probs, Problem{i, fmt.Sprintf("score %v is not a finite number", m.Y)})
		case c.known[p]:
			probs = append(probs, Problem{i, fmt.Sprintf("duplicate measurement: %s is already measured", c.PairName(p))})
		default:
			if j, dup := seen[p]; dup {
				probs = append(probs, Problem{i, fmt.Sprintf("duplicate measurement: %s already given by result %d", c.PairName(p), j+1)})
			} else if _, ok := rd.find(p); !ok {
				probs = append(probs, Problem{i, fmt.Sprintf("unknown pair: %s was not suggested in round %d", c.PairName(p), rd.Index)})
			}
		}
		if _, dup := seen[p]; !dup {
			seen[p] = i
		}
	}
	if len(probs) > 0 {
		return &ResultsError{probs}
	}
	ev := ledger.Event{Kind: KindMeasure, Round: rd.Index}
	for _, m := range ms {
		ev.Records = append(ev.Records, record(NewPairOnLine(m.Pair.A, m.Pair.B, m.Pair.CellLine), m.Y))
	}
	if err := c.store.Append(&ev); err != nil {
		return err
	}
	return c.apply(&ev)
}

// CloseRound closes the open round with its unmeasured suggestions returned
// to the pool (failed wells).
func (c *State) CloseRound() error {
	rd := c.Open()
	if rd == nil {
		return errors.New("active: no open round to close")
	}
	ev := ledger.Event{Kind: KindClose, Round: rd.Index}
	if err := c.store.Append(&ev); err != nil {
		return err
	}
	return c.apply(&ev)
}

// PairName is "DrugA + DrugB on CellLine".
func (c *State) PairName(p PairOnLine) string {
	name := func(i int) string {
		if i >= 0 && i < len(c.Config.Drugs) {
			return c.Config.Drugs[i].Name
		}
		return fmt.Sprint(i)
	}
	cl := fmt.Sprint(p.CellLine)
	if p.CellLine >= 0 && p.CellLine < len(c.Config.CellLines) {
		cl = c.Config.CellLines[p.CellLine]
	}
	return fmt.Sprintf("%s + %s on %s", name(p.A), name(p.B), cl)
}

// Step advances the campaign by one action: with an open round and an
// oracle, it measures the round's missing results; otherwise it proposes the
// next round (and, with an oracle, measures it). Without an oracle an open
// round is an error (*OpenRoundError): its results must be imported.
func (c *State) Step(ctx context.Context, s Surrogate, oracle Oracle) (*Proposal, error) {
	if rd := c.Open(); rd != nil {
		if oracle == nil {
			return nil, &OpenRoundError{Round: rd.Index, Missing: len(rd.Suggestions) - len(rd.Measured)}
		}
		return nil, c.measure(rd, oracle)
	}
	prop, err := c.Propose(ctx, s)
	if err != nil {
		return nil, err
	}
	if oracle != nil {
		if err := c.measure(prop.Round, oracle); err != nil {
			return prop, err
		}
	}
	return prop, nil
}

func (c *State) measure(rd *Round, oracle Oracle) error {
	var pairs []PairOnLine
	for _, s := range rd.Suggestions {
		if _, ok := rd.Measured[s.Pair]; !ok {
			pairs = append(pairs, s.Pair)
		}
	}
	ys, err := oracle.Measure(pairs)
	if err != nil {
		return fmt.Errorf("active: oracle: %w", err)
	}
	if len(ys) != len(pairs) {
		return fmt.Errorf("active: oracle returned %d results for %d pairs", len(ys), len(pairs))
	}
	ms := make([]Measurement, len(pairs))
	for i := range pairs {
		ms[i] = Measurement{pairs[i], ys[i]}
	}
	return c.Record(ms)
}

// TableOracle answers from a table of measured scores (a retrospective
// campaign's screen).
type TableOracle map[PairOnLine]float64

// Measure implements Oracle; a pair absent from the table is an error.
func (t TableOracle) Measure(pairs []PairOnLine) ([]float64, error) {
	out := make([]float64, len(pairs))
	for i, p := range pairs {
		y, ok := t[p]
		if !ok {
			return nil, fmt.Errorf("pair %v was never measured in the screen", p)
		}
		out[i] = y
	}
	return out, nil
}

// SortedPairs returns the keys of t in (CellLine, A, B) order.
func (t TableOracle) SortedPairs() []PairOnLine {
	out := make([]PairOnLine, 0, len(t))
	for p := range t {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.CellLine != b.CellLine {
			return a.CellLine < b.CellLine
		}
		if a.A != b.A {
			return a.A < b.A
		}
		return a.B < b.B
	})
	return out
}
