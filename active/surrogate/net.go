package surrogate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
)

// NetConfig is the two-tower network the "deup-net" surrogate trains each
// round: smaller than the paper's benchmark network (towers 2048/1024) so
// that a round takes seconds on a CPU, with a larger learning rate.
var NetConfig = model.Config{TowerHidden: 256, TowerOut: 128, CombHidden: 64, SigmaHidden: 64, LR: 1e-3, MaxEpochs: 100, Patience: 15}

// Net is a deup.Learner whose main predictor is package model's two-tower
// DEUP network on Morgan fingerprints (features.Build). Its inputs are the
// Encoder's x vectors, which must start with the identity part (feature
// spec "identity" or "identity+morgan"): the pair is read back from it.
// Each Fit trains a new network on 80 % of the pairs, the other 20 % being
// the network's validation set (early stopping and its own out-of-sample
// sigma head), split with Seed. The fitted predictor's Variance is the
// network's sigma_epistemic^2: the v feature of the campaign's DEUP.
type Net struct {
	NDrugs int // length of the identity part of x
	// Lines names the campaign's cell lines. With more than one, x ends
	// with the Encoder's one-hot of the line, and a Fit whose pairs span
	// several lines trains the network with its line embedding
	// (model.Dataset.LineNames); pairs of one line train it as before.
	Lines []string
	// LineFeatures are the lines' numeric features (active.Config), given
	// to the network with its line embedding; nil: none.
	LineFeatures [][]float64
	Feat         *model.Features
	Config       model.Config
	Seed         uint64
	// Progress, when not nil, receives every epoch of each network trained
	// by Fit (see WithTrainProgress).
	Progress func(model.Progress)
	// ctx, when not nil, cancels Fit's training (checked at every step of
	// package model's trainer); deup.Learner's Fit has no context, so
	// InteractiveDEUP binds the one of its own Fit or Prefill (withContext).
	ctx context.Context
}

// withContext returns a copy of n whose Fit trains under ctx.
func (n *Net) withContext(ctx context.Context) deup.Learner {
	c := *n
	c.ctx = ctx
	return &c
}

// NewNet builds the fingerprint features of drugs.
func NewNet(drugs []drugcomb.Drug, cfg model.Config, seed uint64) (*Net, error) {
	f, _, err := features.Build(drugs, features.Config{}, nil)
	if err != nil {
		return nil, fmt.Errorf("active: deup-net: %w", err)
	}
	cfg.Seed = seed
	return &Net{NDrugs: len(drugs), Feat: f, Config: cfg, Seed: seed}, nil
}

func (n *Net) pairOf(x []float64) (model.PairRef, error) {
	var idx []int
	for i := 0; i < n.NDrugs && i < len(x); i++ {
		switch x[i] {
		case 0:
		case 1:
			idx = append(idx, i)
		default:
			return model.PairRef{}, fmt.Errorf("active: deup-net: input is not an identity-encoded pair (x[%d] = %v)", i, x[i])
		}
	}
	if len(idx) != 2 {
		return model.PairRef{}, errors.New("active: deup-net: input is not an identity-encoded pair of two drugs")
	}
	line := 0
	if k := len(n.Lines); k > 1 && len(x) >= n.NDrugs+k {
		line = -1
		for c, v := range x[len(x)-k:] {
			if v == 1 {
				line = c
			}
		}
		if line < 0 {
			return model.PairRef{}, errors.New("active: deup-net: input has no cell line")
		}
	}
	return model.PairRef{A: idx[0], B: idx[1], Line: line}, nil
}

// spansLines reports whether pairs hold more than one cell line: only
// then do the network surrogates learn a line embedding, so a campaign on
// one line of a panel trains the network it always did.
func spansLines(pairs []model.PairRef) bool {
	for _, p := range pairs {
		if p.Line != pairs[0].Line {
			return true
		}
	}
	return false
}

// Fit implements deup.Learner.
func (n *Net) Fit(x [][]float64, y []float64) (deup.Predictor, error) {
	if len(x) < 5 {
		return nil, fmt.Errorf("active: deup-net: %d pairs, need at least 5", len(x))
	}
	d := &model.Dataset{Features: n.Feat}
	for i := range x {
		p, err := n.pairOf(x[i])
		if err != nil {
			return nil, err
		}
		d.Pairs = append(d.Pairs, p)
		d.Y = append(d.Y, y[i])
		d.N = append(d.N, 1)
		d.Var = append(d.Var, math.NaN())
	}
	lines := spansLines(d.Pairs)
	if lines {
		d.LineNames, d.LineFeatures = n.Lines, n.LineFeatures
	} else {
		for i := range d.Pairs {
			d.Pairs[i].Line = 0
		}
	}
	split := drugcomb.SplitRandom(len(d.Pairs), [3]float64{0.8, 0.2, 0}, n.Seed)
	ctx := n.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	cfg := deupnet.Config{Config: n.Config}
	if lines {
		cfg.Config = PanelTraining(cfg.Config)
	}
	if trainsEveryDrug(d.Pairs, split.Train, n.NDrugs) {
		// DEUP's novelty term (model/deupnet/novelty.go) scales sigma
		// only for a pair with a drug outside the training pairs: here
		// there is none, every input of this Learner is a pair of the
		// campaign's NDrugs drugs, so the scale is exactly 1 for all of
		// them and its held-out-drug network mu' (a second training,
		// a third of a round's time) changes no prediction: skip it.
		cfg.NoveltyHoldout = -1
	}
	m := deupnet.New(cfg)
	if err := m.Fit(ctx, d, split, n.Progress); err != nil {
		return nil, fmt.Errorf("active: deup-net: %w", err)
	}
	return &netModel{net: n, m: m, lines: lines, cache: map[model.PairRef]model.Prediction{}}, nil
}

// PanelTraining returns c with the batch, patience and learning rate of
// a panel (model.Config.Panel: the settings deup train and deup bench use
// on a dataset with several cell lines) in place of NetConfig's one-line
// ones; the widths and c's epoch cap (NetConfig's 100) are kept, so early
// stopping, not the benchmark's budget of model.PanelMaxEpochs, ends the
// training. A network surrogate whose measured pairs span several lines
// trains with them: at NetConfig's 64-pair batches, a first round on the
// 56,015 pairs of NCI-ALMANAC's 43 lines trained 22 networks for a quarter
// of an hour (issue 43, docs/performance.md).
func PanelTraining(c model.Config) model.Config {
	c.BatchSize, c.Patience, c.LR = 0, 0, 0
	return c.Panel()
}

// trainsEveryDrug reports whether each of the drugs 0..nDrugs-1 is in a
// pair of train.
func trainsEveryDrug(pairs []model.PairRef, train []int, nDrugs int) bool {
	seen := make([]bool, nDrugs)
	left := nDrugs
	for _, i := range train {
		for _, g := range [2]int{pairs[i].A, pairs[i].B} {
			if g >= 0 && g < nDrugs && !seen[g] {
				seen[g] = true
				left--
			}
		}
	}
	return left == 0
}

type netModel struct {
	net   *Net
	m     *deupnet.DEUP
	lines bool // trained with the line embedding
	mu    sync.Mutex
	cache map[model.PairRef]model.Prediction
}

func (nm *netModel) predict(x []float64) model.Prediction {
	p, err := nm.net.pairOf(x)
	if err != nil {
		return model.Prediction{Mu: math.NaN(), SigmaEpistemic: math.NaN()}
	}
	if !nm.lines {
		p.Line = 0
	}
	nm.mu.Lock()
	defer nm.mu.Unlock()
	if v, ok := nm.cache[p]; ok {
		return v
	}
	out, err := nm.m.Predict(nm.net.Feat, []model.PairRef{p})
	if err != nil {
		return model.Prediction{Mu: math.NaN(), SigmaEpistemic: math.NaN()}
	}
	nm.cache[p] = out[0]
	return out[0]
}

// Predict is the network's mu (NaN for an input that is not a pair).
func (nm *netModel) Predict(x []float64) float64 { return nm.predict(x).Mu }

// Variance is the network's sigma_epistemic^2.
func (nm *netModel) Variance(x []float64) float64 {
	s := nm.predict(x).SigmaEpistemic
	return s * s
}

// NetMethod is a method of package model used directly as a campaign
// surrogate: each Fit trains New(seed) from scratch on 80 % of the measured
// pairs, the other 20 % being its validation split (early stopping, and
// the out-of-sample set of the two-head DEUP), and Predict returns the
// method's own mu and sigmas. The named ones (NewFor):
//
//	ensemble-net   Deep Ensemble of 3 NetConfig networks (squared error): sigma is their spread
//	mcdropout-net  MC-Dropout, p = 0.1, 3 test passes
//	twohead-net    the benchmark's two-head DEUP (deup train) refitted each round
type NetMethod struct {
	Label string
	Feat  *model.Features
	// New returns the method to fit, seeded; panel is true when the
	// measured pairs span several lines (PanelTraining).
	New func(seed uint64, panel bool) model.Method
	// Lines names the campaign's cell lines: a Fit whose pairs span
	// several trains the network with its line embedding (as Net), and
	// LineFeatures (nil: none) with it.
	Lines        []string
	LineFeatures [][]float64
	// Progress, when not nil, receives every epoch of the networks trained
	// by Fit (see WithTrainProgress).
	Progress func(model.Progress)
	// Enc is the campaign's encoder (NewFor sets it): the features of
	// active.Featurizer, in which a joint batch measures how alike two
	// candidates are. The networks read Feat, not Enc.
	Enc   Encoder
	m     model.Method
	lines bool
}

// Name implements active.Surrogate.
func (s *NetMethod) Name() string { return s.Label }

// PairFeatures implements active.Featurizer: Enc's x (nil without an encoder).
func (s *NetMethod) PairFeatures(pairs []active.PairOnLine) [][]float64 {
	return s.Enc.EncodeAll(pairs)
}

// Fit implements active.Surrogate.
func (s *NetMethod) Fit(ctx context.Context, ev active.Evidence) error {
	d := &model.Dataset{Features: s.Feat}
	for _, m := range ev.Measured {
		d.Pairs = append(d.Pairs, model.PairRef{A: m.Pair.A, B: m.Pair.B, Line: m.Pair.CellLine})
		d.Y = append(d.Y, m.Y)
		d.N = append(d.N, 1)
		d.Var = append(d.Var, math.NaN())
	}
	s.lines = len(s.Lines) > 1 && spansLines(d.Pairs)
	if s.lines {
		d.LineNames, d.LineFeatures = s.Lines, s.LineFeatures
	} else {
		for i := range d.Pairs {
			d.Pairs[i].Line = 0
		}
	}
	s.m = s.New(ev.Seed, s.lines)
	split := drugcomb.SplitRandom(len(d.Pairs), [3]float64{0.8, 0.2, 0}, ev.Seed)
	if err := s.m.Fit(ctx, d, split, s.Progress); err != nil {
		return fmt.Errorf("active: %s: %w", s.Label, err)
	}
	return nil
}

// Predict implements active.Surrogate.
func (s *NetMethod) Predict(ctx context.Context, pairs []active.PairOnLine) ([]active.SurrogatePrediction, error) {
	if s.m == nil {
		return nil, fmt.Errorf("active: %s: Predict before Fit", s.Label)
	}
	mp := make([]model.PairRef, len(pairs))
	for i, p := range pairs {
		mp[i] = model.PairRef{A: p.A, B: p.B}
		if s.lines {
			mp[i].Line = p.CellLine
		}
	}
	ps, err := s.m.Predict(s.Feat, mp)
	if err != nil {
		return nil, err
	}
	out := make([]active.SurrogatePrediction, len(ps))
	for i, p := range ps {
		out[i] = active.SurrogatePrediction{Mu: p.Mu, SigmaTotal: p.SigmaTotal, SigmaEpistemic: p.SigmaEpistemic, SigmaAleatoric: p.SigmaAleatoric}
	}
	return out, nil
}

// newNetMethod returns the named NetMethod surrogate, or nil.
func newNetMethod(name string, f *model.Features) *NetMethod {
	nets := map[string]struct {
		method string
		cfg    methods.Config
	}{
		"ensemble-net":  {methods.Ensemble, methods.Config{Members: 3}},
		"mcdropout-net": {methods.MCDropout, methods.Config{Passes: 3, Dropout: 0.1}},
		"twohead-net":   {methods.DEUP, methods.Config{}},
	}
	net, ok := nets[name]
	if !ok {
		return nil
	}
	mk := func(seed uint64, panel bool) model.Method {
		c := net.cfg
		c.Model = NetConfig
		if panel {
			c.Model = PanelTraining(c.Model)
		}
		c.Model.Seed = seed
		m, err := methods.Default().New(net.method, c)
		if err != nil {
			panic("active: " + err.Error()) // the configurations above are valid
		}
		return m
	}
	return &NetMethod{Label: name, Feat: f, New: mk}
}
