package model

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/deup-screening/deup/drugcomb"
)

// DeepEnsemble is a Deep DeepEnsemble (Lakshminarayanan et al. 2017) of Members
// independently initialized two-tower networks (seeds Seed+1..Seed+M, each
// with its own shuffling), trained on split.Train with early stopping on
// split.Val.
//
// With NLL false, members have only the μ head and are trained with the
// squared error: μ = mean of member μ_m, σ = standard deviation of the μ_m
// (population, 1/M): epistemic only, SigmaAleatoric = 0.
// With NLL true, members also have a σ head (the σ path with its bit held
// at 0) trained with the Gaussian NLL: σ² = mean σ_m² + variance of the μ_m,
// SigmaAleatoric² = mean σ_m², SigmaEpistemic² = variance of the μ_m.
type DeepEnsemble struct {
	cfg      Config
	members  int
	nll      bool
	nets     []*Network
	fwds     []Forwarder
	feat     FeatureConfig
	mean, sd float64
	trained  bool
	// first is the index of the first member Fit trains and of the size
	// of the whole ensemble (EnsembleMember); 0 and 0 (members) otherwise.
	first, of int
}

// NewEnsemble returns an untrained ensemble of members networks (paper: 3).
func NewEnsemble(cfg Config, members int, nll bool) *DeepEnsemble {
	return &DeepEnsemble{cfg: cfg.WithDefaults(), members: members, nll: nll}
}

// EnsembleMember returns an untrained one-member ensemble that trains
// member k (0 ≤ k < members) of NewEnsemble(cfg, members, nll): the
// member's own seed, shuffling and steps, as Fit trains it there
// (progress events carry k and members). Members trained apart, for
// example at the same time, are put together by JoinEnsemble, which then
// predicts as the whole ensemble trained by Fit, bit for bit (tested).
func EnsembleMember(cfg Config, members int, nll bool, k int) *DeepEnsemble {
	return &DeepEnsemble{cfg: cfg.WithDefaults(), members: 1, nll: nll, first: k, of: members}
}

// JoinEnsemble returns the ensemble of the members of the trained parts,
// in order (EnsembleMember parts 0, 1, … give the whole ensemble). The
// parts must have been trained with the same configuration, features and
// training split; the parts are not to be used afterwards.
func JoinEnsemble(parts ...*DeepEnsemble) (*DeepEnsemble, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("model: join ensemble: no parts")
	}
	p0 := parts[0]
	e := &DeepEnsemble{cfg: p0.cfg, nll: p0.nll, feat: p0.feat, mean: p0.mean, sd: p0.sd, trained: true}
	for i, p := range parts {
		if !p.trained {
			return nil, fmt.Errorf("model: join ensemble: part %d is not trained", i)
		}
		if p.cfg != e.cfg || p.nll != e.nll || p.feat != e.feat || p.mean != e.mean || p.sd != e.sd {
			return nil, fmt.Errorf("model: join ensemble: part %d differs from part 0 (configuration, features or training split)", i)
		}
		e.nets = append(e.nets, p.nets...)
		e.fwds = append(e.fwds, p.fwds...)
	}
	e.members = len(e.nets)
	return e, nil
}

// Name is "ensemble" or "ensemble-nll".
func (e *DeepEnsemble) Name() string {
	if e.nll {
		return "ensemble-nll"
	}
	return "ensemble"
}

// FeatureConfig of the training features.
func (e *DeepEnsemble) FeatureConfig() FeatureConfig { return e.feat }

// AleatoricNote says where SigmaAleatoric comes from.
func (e *DeepEnsemble) AleatoricNote() string {
	if e.nll {
		return "aleatoric from the members' NLL sigma heads (mean sigma_m^2); epistemic from the spread of member means"
	}
	return "MSE ensemble: sigma is the spread of member means (epistemic only); aleatoric 0"
}

// Fit trains the members one after the other; progress events carry the
// member index.
func (e *DeepEnsemble) Fit(ctx context.Context, d *Dataset, split drugcomb.Split, progress func(Progress)) error {
	if e.members < 1 {
		return fmt.Errorf("model: ensemble: %d members", e.members)
	}
	if err := fitChecks(e.cfg, d, split); err != nil {
		return err
	}
	e.trained = false
	e.cfg = e.cfg.WithLines(d)
	e.feat = d.Features.Config
	e.mean, e.sd = Standardization(d, split.Train)
	e.nets, e.fwds = nil, nil
	kind := LossMSE
	if e.nll {
		kind = LossNLL
	}
	of := e.members
	if e.of > 0 {
		of = e.of
	}
	for k := e.first; k < e.first+e.members; k++ {
		seed := e.cfg.Seed + uint64(k) + 1
		n := NewNetwork(e.cfg, d.Features.Config.Dim(), e.nll, seed)
		t := NewTrainer(n, d, e.mean, e.sd, seed, 0)
		if err := t.Fit(ctx, split, TrainOptions{Method: e.Name(), Member: k, Members: of, Loss: kind}, progress); err != nil {
			return err
		}
		n.EndTraining()
		e.nets = append(e.nets, n)
		e.fwds = append(e.fwds, t.fwd)
	}
	e.trained = true
	return nil
}

// Predict combines the members as described on Ensemble.
func (e *DeepEnsemble) Predict(f *Features, pairs []PairRef) ([]Prediction, error) {
	if err := CheckPredict(e.trained, e.feat, e.cfg.lines, f, pairs); err != nil {
		return nil, err
	}
	n := len(pairs)
	pa, pb, pl := splitPairs(pairs)
	mus := make([][]float64, len(e.fwds))
	sigs := make([][]float64, len(e.fwds))
	for k, fw := range e.fwds {
		mus[k] = make([]float64, n)
		if e.nll {
			sigs[k] = make([]float64, n)
		}
		fw.Pairs(f, pa, pb, pl, 0, nil, mus[k], sigs[k], nil)
	}
	out := make([]Prediction, n)
	m := float64(len(e.fwds))
	for i := range out {
		var s, ss, al float64
		for k := range mus {
			s += mus[k][i]
			if e.nll {
				al += sigs[k][i] * sigs[k][i]
			}
		}
		mu := s / m
		for k := range mus {
			ss += (mus[k][i] - mu) * (mus[k][i] - mu)
		}
		epi := math.Sqrt(ss/m) * e.sd
		ale := math.Sqrt(al/m) * e.sd
		out[i] = Prediction{Mu: mu*e.sd + e.mean, SigmaEpistemic: epi, SigmaAleatoric: ale, SigmaTotal: math.Hypot(epi, ale)}
	}
	return out, nil
}

// Save writes the trained ensemble.
func (e *DeepEnsemble) Save(w io.Writer) error {
	if !e.trained {
		return fmt.Errorf("model: save: model is not trained")
	}
	return Encode(w, Header{Method: e.Name(), Config: NewFileConfig(e.cfg), Features: e.feat, Mean: e.mean, SD: e.sd}, e.nets)
}

// MCDropout is MC-Dropout (Gal & Ghahramani 2016) on the two-tower network:
// dropout with rate P after both combined layers, trained with the squared
// error on split.Train (early stopping on split.Val, evaluated without
// dropout); Predict averages Passes stochastic forward passes: μ = mean,
// σ = standard deviation (population) over passes, epistemic only. Masks
// are drawn from Seed (per pair and pass at prediction, so a pair's output
// does not depend on the batch it is predicted in) and scaled by 1/(1−P).
type MCDropout struct {
	cfg      Config
	p        float64
	passes   int
	net      *Network
	fwd      Forwarder
	feat     FeatureConfig
	mean, sd float64
	trained  bool
}

// NewMCDropout returns an untrained MC-Dropout model (paper: p = 0.1,
// 3 passes).
func NewMCDropout(cfg Config, p float64, passes int) *MCDropout {
	return &MCDropout{cfg: cfg.WithDefaults(), p: p, passes: passes}
}

// Name is "mcdropout".
func (m *MCDropout) Name() string { return "mcdropout" }

// FeatureConfig of the training features.
func (m *MCDropout) FeatureConfig() FeatureConfig { return m.feat }

// AleatoricNote says SigmaAleatoric is 0.
func (m *MCDropout) AleatoricNote() string {
	return fmt.Sprintf("MC-Dropout: sigma is the spread of %d dropout passes (epistemic only); aleatoric 0", m.passes)
}

// SetPasses changes the number of prediction passes of a trained model.
func (m *MCDropout) SetPasses(t int) { m.passes = t }

// Fit trains the network with dropout masks.
func (m *MCDropout) Fit(ctx context.Context, d *Dataset, split drugcomb.Split, progress func(Progress)) error {
	if !(m.p > 0 && m.p < 1) || m.passes < 2 {
		return fmt.Errorf("model: mcdropout: rate %v, passes %d (want 0 < p < 1, passes ≥ 2)", m.p, m.passes)
	}
	if err := fitChecks(m.cfg, d, split); err != nil {
		return err
	}
	m.trained = false
	m.cfg = m.cfg.WithLines(d)
	m.feat = d.Features.Config
	m.mean, m.sd = Standardization(d, split.Train)
	m.net = NewNetwork(m.cfg, d.Features.Config.Dim(), false, m.cfg.Seed)
	t := NewTrainer(m.net, d, m.mean, m.sd, m.cfg.Seed, m.p)
	if err := t.Fit(ctx, split, TrainOptions{Method: m.Name(), Members: 1, Loss: LossMSE}, progress); err != nil {
		return err
	}
	m.fwd = t.fwd
	m.net.EndTraining()
	m.trained = true
	return nil
}

// Predict runs the stochastic passes.
func (m *MCDropout) Predict(f *Features, pairs []PairRef) ([]Prediction, error) {
	if err := CheckPredict(m.trained, m.feat, m.cfg.lines, f, pairs); err != nil {
		return nil, err
	}
	n := len(pairs)
	pa, pb, pl := splitPairs(pairs)
	sum, sq := make([]float64, n), make([]float64, n)
	mu := make([]float64, n)
	drop := newDropout(m.p, m.cfg.Seed^0x6d63647270726564) // "mcdrpred"
	for t := 0; t < m.passes; t++ {
		drop.pass = uint64(t)
		m.fwd.Pairs(f, pa, pb, pl, 0, drop, mu, nil, nil)
		for i, v := range mu {
			sum[i] += v
			sq[i] += v * v
		}
	}
	out := make([]Prediction, n)
	T := float64(m.passes)
	for i := range out {
		mean := sum[i] / T
		sd := math.Sqrt(max(sq[i]/T-mean*mean, 0)) * m.sd
		out[i] = Prediction{Mu: mean*m.sd + m.mean, SigmaTotal: sd, SigmaEpistemic: sd}
	}
	return out, nil
}

// Save writes the trained model.
func (m *MCDropout) Save(w io.Writer) error {
	if !m.trained {
		return fmt.Errorf("model: save: model is not trained")
	}
	return Encode(w, Header{Method: m.Name(), Config: NewFileConfig(m.cfg), Features: m.feat, Mean: m.mean, SD: m.sd, Extra: []float64{m.p, float64(m.passes)}}, []*Network{m.net})
}

func fitChecks(cfg Config, d *Dataset, split drugcomb.Split) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := d.Validate(); err != nil {
		return err
	}
	if err := d.Features.Validate(); err != nil {
		return err
	}
	return CheckSplit(d, split, false)
}

func splitPairs(pairs []PairRef) (pa, pb, pl []int) {
	pa, pb, pl = make([]int, len(pairs)), make([]int, len(pairs)), make([]int, len(pairs))
	for i, p := range pairs {
		pa[i], pb[i], pl[i] = p.A, p.B, p.Line
	}
	return pa, pb, pl
}
