package deupnet

import (
	"context"
	"fmt"
	"math"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// DEUP is the two-tower network with a μ head and an out-of-sample σ path
// trained as in the paper's Algorithm "DEUP for Drug Combinations" (see
// doc.go for which parameters each update touches).
type DEUP struct {
	cfg  Config
	net  *model.Network
	fwd  model.Forwarder
	feat model.FeatureConfig
	// sref is the reference of the σ features (sigmafeat.go); nil without.
	sref     *sigmaRef
	mean, sd float64
	// sigmaScale multiplies σ_total (1 unless Config.SigmaLoss is "log").
	sigmaScale float64
	alea       *aleatoric
	// nov scales σ_total for new chemistry (novelty.go); nil without.
	nov *novelty
	// bound caps σ_total by what the lines' scores support (bound.go);
	// nil in files written before it.
	bound *sigmaBound
	// replicated is the number of train+val pairs with ≥2 replicates.
	replicated int
	trained    bool
}

// New returns an untrained DEUP model; cfg's zero fields take defaults.
func New(cfg Config) *DEUP { return &DEUP{cfg: cfg.withDefaults()} }

// Name is "deup".
func (m *DEUP) Name() string { return "deup" }

// SigmaFeatures are the σ path's stationarizing features m trains (or
// was trained) with.
func (m *DEUP) SigmaFeatures() SigmaFeatures { return m.cfg.SigmaFeatures }

// FeatureConfig of the training features.
func (m *DEUP) FeatureConfig() model.FeatureConfig { return m.feat }

// Fit trains on split.Train (in-sample steps, both heads, bit 0) and
// split.Val (out-of-sample steps, σ path only, bit 1), stopping early on
// the validation RMSE of μ, then refits the σ path alone on split.Val with
// the rest of the network frozen (see doc.go) and fits the aleatoric
// regressor on the replicated pairs of train ∪ val.
func (m *DEUP) Fit(ctx context.Context, d *model.Dataset, split drugcomb.Split, progress func(model.Progress)) error {
	if err := m.cfg.validate(); err != nil {
		return err
	}
	if err := d.Validate(); err != nil {
		return err
	}
	if err := d.Features.Validate(); err != nil {
		return err
	}
	if err := model.CheckSplit(d, split, true); err != nil {
		return err
	}
	m.trained, m.bound = false, nil
	m.cfg.Config = m.cfg.WithLines(d)
	m.feat = d.Features.Config
	m.mean, m.sd = model.Standardization(d, split.Train)
	// μ′ of the novelty fold first (novelty.go), so that the last progress
	// reports are the main network's.
	nov, err := m.fitNovelty(ctx, d, split, progress)
	if err != nil {
		return err
	}
	var side []float64
	m.sref, m.cfg = nil, m.cfg.withSide(0)
	if k := len(m.cfg.SigmaFeatures.Columns()); k > 0 {
		m.sref, side = datasetSigmaFeatures(m.cfg.SigmaFeatures, d, split.Train, split.Val)
		m.cfg = m.cfg.withSide(k)
	}
	m.net = model.NewNetwork(m.cfg.Config, d.Features.Config.Dim(), true, m.cfg.Seed)
	t := model.NewTrainer(m.net, d, m.mean, m.sd, m.cfg.Seed, m.cfg.Dropout)
	t.SetSide(side)
	if m.cfg.SigmaFeatures.dynamic() {
		var xin []float64
		if m.cfg.SigmaFeatures.XError {
			var err error
			if xin, err = m.swappedResiduals(ctx, d, split, progress); err != nil {
				return err
			}
		}
		sctx := m.sref.context()
		t.SetRefresh(func(fw model.Forwarder) error {
			return m.sref.refreshDynamic(sctx, fw, d, split.Train, split.Val, m.mean, m.sd, m.cfg.CombHidden, side, xin)
		})
	}
	if err := t.Fit(ctx, split, model.TrainOptions{Method: "deup", Members: 1, Loss: model.LossNLL, DEUPOut: true}, progress); err != nil {
		return err
	}
	// The σ refit (sigmafit.go) on the frozen network, with its own
	// trainer: fit closed the first one's graphs.
	rt := model.NewTrainer(m.net, d, m.mean, m.sd, m.cfg.Seed, 0)
	rt.SetSide(side)
	kind := model.LossNLLSigma
	if m.cfg.SigmaLoss == "log" {
		kind = model.LossLogSigma
	}
	_, _, _, scale, err := rt.RefitSigma(ctx, split.Val, m.cfg.Seed, kind)
	rt.Close()
	m.sigmaScale = scale
	if err != nil {
		return err
	}
	m.net.EndTraining()
	m.fwd = rt.Forwarder()
	idx := append(append([]int(nil), split.Train...), split.Val...)
	m.replicated = 0
	for _, i := range idx {
		if d.N != nil && d.N[i] >= 2 && d.Var != nil && !math.IsNaN(d.Var[i]) {
			m.replicated++
		}
	}
	m.alea = fitAleatoric(d, idx, m.sd)
	if err := m.fitExcess(d, split.Val, idx); err != nil {
		return err
	}
	m.nov = nov
	m.bound = fitBound(d, split.Train, m.mean, m.sd)
	m.trained = true
	return nil
}

// fitExcess fits the excess link (excess.go) on the out-of-sample
// residuals of the validation pairs val, with the network and a(x) fitted
// and before the novelty scale (every validation pair's drugs are
// training drugs), jointly with the replicates of the pairs idx (those
// a(x) was pooled from) for the noise scale λ. No link without a pooled
// aleatoric estimate.
func (m *DEUP) fitExcess(d *model.Dataset, val, idx []int) error {
	if m.alea == nil || m.alea.legacy() || len(val) == 0 {
		return nil
	}
	m.alea.LinkC, m.alea.LinkTau, m.alea.LinkLambda = 0, 0, 0
	m.nov, m.trained = nil, true
	pairs := d.PairsAt(val)
	pred, err := m.Predict(d.Features, pairs)
	m.trained = false
	if err != nil {
		return fmt.Errorf("model: excess link: %w", err)
	}
	actx := m.alea.context()
	r, s, a := make([]float64, len(val)), make([]float64, len(val)), make([]float64, len(val))
	for k, i := range val {
		e := (d.Y[i] - pred[k].Mu) / m.sd
		r[k] = e * e
		st := pred[k].SigmaTotal / m.sd
		s[k] = st * st
		n := 1.0
		if d.N != nil && d.N[i] > 1 {
			n = float64(d.N[i])
		}
		a[k] = actx.pair(d.Features, pairs[k].A, pairs[k].B, pairs[k].Line) / n
	}
	var rep replicates
	for _, i := range idx {
		if d.N[i] < 2 || math.IsNaN(d.Var[i]) || math.IsInf(d.Var[i], 0) {
			continue
		}
		p := d.Pairs[i]
		if ai := actx.pair(d.Features, p.A, p.B, p.Line); ai > 0 {
			di := float64(d.N[i] - 1)
			rep.D += di
			rep.Q += di * d.Var[i] / (m.sd * m.sd) / ai
		}
	}
	f := fitExcessLink(r, s, a, rep)
	m.alea.LinkC, m.alea.LinkTau, m.alea.LinkLambda = f.C, f.Tau, f.Lambda
	return nil
}

// swappedSeed is xor-ed into the seed of μ′, the network of the xerror
// feature (fixed before any run).
const swappedSeed = 0x78657272 // "xerr"

// swappedResiduals trains μ′, a DEUP without σ features on the split with
// D_in and D_out swapped (its μ fits split.Val and stops early on
// split.Train, which it never fits), and returns |y − μ′| of the
// split.Train pairs in m's standardized units: out-of-sample residuals of
// the D_in pairs, for the xerror feature.
func (m *DEUP) swappedResiduals(ctx context.Context, d *model.Dataset, split drugcomb.Split, progress func(model.Progress)) ([]float64, error) {
	swapped := drugcomb.Split{Train: split.Val, Val: split.Train, Test: split.Test}
	pred, err := m.muPrime(ctx, d, swapped, swappedSeed, "deup (xerror: swapped μ′)", progress, d.PairsAt(split.Train))
	if err != nil {
		return nil, fmt.Errorf("model: sigma features: xerror: %w", err)
	}
	out := make([]float64, len(pred))
	for k, i := range split.Train {
		out[k] = math.Abs(d.Y[i]-pred[k].Mu) / m.sd
	}
	return out, nil
}

// muPrime trains μ′, a DEUP of m's configuration without σ features or
// novelty hold-out, seeded m's seed ^ seedXor, on split (its progress
// reported under the name method), and returns its predictions of pairs.
// The xerror feature (swappedResiduals) and the novelty scale
// (fitNovelty) each train one.
func (m *DEUP) muPrime(ctx context.Context, d *model.Dataset, split drugcomb.Split, seedXor uint64, method string, progress func(model.Progress), pairs []model.PairRef) ([]model.Prediction, error) {
	cfg := m.cfg
	cfg.SigmaFeatures, cfg.Seed, cfg.NoveltyHoldout = SigmaFeatures{}, m.cfg.Seed^seedXor, -1
	mp := New(cfg.withSide(0))
	var pr func(model.Progress)
	if progress != nil {
		pr = func(p model.Progress) {
			p.Method = method
			progress(p)
		}
	}
	if err := mp.Fit(ctx, d, split, pr); err != nil {
		return nil, err
	}
	return mp.Predict(d.Features, pairs)
}

// repsNote says how many measurements a target averages, only when that is
// not, to two digits, one.
func repsNote(repN float64) string {
	if n := fmt.Sprintf("%.2g", repN); n != "1" {
		return "; targets are means of " + n + " replicates"
	}
	return ""
}

// AleatoricNote says where SigmaAleatoric comes from.
func (m *DEUP) AleatoricNote() string {
	switch {
	case m.alea == nil:
		return "no replicated pair in train+val: no estimate of the noise, aleatoric 0, sigma_total is an upper bound on sigma_epistemic"
	case m.alea.legacy():
		return fmt.Sprintf("aleatoric from replicate variance (ridge regressor on %d replicated pairs%s)", m.alea.Pairs, repsNote(m.alea.RepN))
	}
	reps := repsNote(m.alea.RepN)
	d0 := "inf"
	if m.alea.PriorDF > 0 {
		d0 = fmt.Sprintf("%.3g", m.alea.PriorDF)
	}
	if n := len(m.alea.LineVar); n > 0 {
		reps += fmt.Sprintf("; a level per cell line, %d lines", n)
	}
	if m.alea.linked() {
		reps += fmt.Sprintf("; e = a + u, u = tau softplus((c s - a)/tau) with c %.3g, sqrt(tau) %.3g; noise scale lambda %.3g", m.alea.LinkC, math.Sqrt(m.alea.LinkTau)*m.sd, m.alea.lambda())
	}
	return fmt.Sprintf("aleatoric from replicate variance pooled with empirical-Bayes shrinkage (%d replicated pairs, %.0f df; screen sd %.3g, prior df %s; %d drugs with their own moderated variance%s%s)", m.alea.Pairs, m.alea.DF, math.Sqrt(m.alea.S0)*m.sd, d0, len(m.alea.Drugs), reps, m.bound.note())
}

// Predict returns μ (bit 0) and σ_total per pair, in target units: with
// the excess link (excess.go) σ_total² = e(x) = a(x)/RepN + u(x) (u from
// the σ path, bit 1), σ_aleatoric² = a(x)/RepN and σ_epistemic² = e(x) −
// σ_aleatoric² > 0, e scaled for new chemistry (novelty.go); files
// without the link: σ_total from the σ path, σ_aleatoric² =
// min(a(x)/RepN, σ_total²).
func (m *DEUP) Predict(f *model.Features, pairs []model.PairRef) ([]model.Prediction, error) {
	if err := model.CheckPredict(m.trained, m.feat, m.cfg.Lines(), f, pairs); err != nil {
		return nil, err
	}
	out := make([]model.Prediction, len(pairs))
	h := m.cfg.CombHidden
	const chunk = 4096 // bounds the activations kept for the aleatoric regressor
	n := min(chunk, len(pairs))
	pa, pb, pl := make([]int, n), make([]int, n), make([]int, n)
	mu, sig := make([]float64, n), make([]float64, n)
	var hid, side []float64
	dyn := m.sref != nil && m.sref.feat.dynamic()
	var nctx *noveltyCtx
	if m.nov != nil {
		nctx = newNoveltyCtx(m.nov.Drugs, m.nov.NBits)
	}
	var actx *aleaCtx
	if m.alea != nil && !m.alea.legacy() {
		actx = m.alea.context()
	}
	if m.alea != nil && m.alea.legacy() || dyn {
		hid = make([]float64, n*h)
	}
	var sctx *sigmaCtx
	k := m.cfg.side()
	if m.sref != nil {
		sctx = m.sref.context()
		side = make([]float64, n*k)
	}
	for lo := 0; lo < len(pairs); lo += chunk {
		part := pairs[lo:min(lo+chunk, len(pairs))]
		for i, p := range part {
			pa[i], pb[i], pl[i] = p.A, p.B, p.Line
		}
		var hk []float64
		if hid != nil {
			hk = hid[:len(part)*h]
		}
		var sk []float64
		if sctx != nil {
			sk = side[:len(part)*k]
			sctx.pairs(f, pa[:len(part)], pb[:len(part)], pl[:len(part)], nil, nil, sk)
			if dyn {
				// The activations of μ's last layer first (bit 0; μ and
				// φ do not depend on the bit or the σ features).
				m.fwd.Pairs(f, pa[:len(part)], pb[:len(part)], pl[:len(part)], 0, nil, mu[:len(part)], nil, hk)
				m.sref.dynamicRows(sctx, f, pa[:len(part)], pb[:len(part)], pl[:len(part)], hk, h, sk)
			}
		}
		m.fwd.PairsSide(f, pa[:len(part)], pb[:len(part)], pl[:len(part)], 1, sk, mu[:len(part)], sig[:len(part)], hk)
		for i := 0; i < len(part); i++ {
			st := sig[i] * m.sd * m.scale()
			if nctx != nil {
				st *= math.Sqrt(m.nov.scale(nctx.pair(f, part[i].A, part[i].B)))
			}
			if actx != nil && m.alea.linked() {
				// e = a/RepN + u (excess.go), scaled for new chemistry.
				s := sig[i] * m.scale()
				a := m.alea.lambda() * actx.pair(f, part[i].A, part[i].B, part[i].Line) / m.alea.RepN
				e := a + excessU(m.alea.LinkC, m.alea.LinkTau, s*s, a)
				if nctx != nil {
					e *= m.nov.scale(nctx.pair(f, part[i].A, part[i].B))
				}
				out[lo+i] = model.Prediction{Mu: mu[i]*m.sd + m.mean, SigmaTotal: math.Sqrt(e) * m.sd,
					SigmaAleatoric: math.Sqrt(a) * m.sd, SigmaEpistemic: math.Sqrt(max(e-a, 0)) * m.sd}
				if m.bound != nil {
					m.bound.apply(&out[lo+i], part[i].Line, m.mean, m.sd)
				}
				continue
			}
			sa := 0.0
			if m.alea != nil {
				var a float64
				if actx != nil {
					a = actx.pair(f, part[i].A, part[i].B, part[i].Line)
				} else {
					a = m.alea.variance(hid[i*h : (i+1)*h])
				}
				sa = min(math.Sqrt(a/m.alea.RepN)*m.sd, st)
			}
			out[lo+i] = model.Prediction{Mu: mu[i]*m.sd + m.mean, SigmaTotal: st, SigmaAleatoric: sa,
				SigmaEpistemic: math.Sqrt(max(st*st-sa*sa, 0))}
			if m.bound != nil {
				m.bound.apply(&out[lo+i], part[i].Line, m.mean, m.sd)
			}
		}
	}
	return out, nil
}

// scale is sigmaScale, 1 when unset (files written before it).
func (m *DEUP) scale() float64 {
	if m.sigmaScale > 0 {
		return m.sigmaScale
	}
	return 1
}

// sigmaLoss and savedScale are the file fields: empty and 0 for "nll".
func (m *DEUP) sigmaLoss() string {
	if m.cfg.SigmaLoss == "log" {
		return "log"
	}
	return ""
}

func (m *DEUP) savedScale() float64 {
	if m.cfg.SigmaLoss == "log" {
		return m.scale()
	}
	return 0
}
