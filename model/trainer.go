package model

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/deup-screening/deup/drugcomb"

	"github.com/deup-screening/deup/internal/streams"
)

// Trainer runs minibatch training of one network with early stopping.
type Trainer struct {
	net      *Network
	fwd      Forwarder
	d        *Dataset
	cfg      Config
	mean, sd float64
	rng      *rand.Rand
	drop     *dropout // MC-Dropout masks during training; nil otherwise
	graphs   map[graphKey]*graph
	share    gradShare // the tower's weight gradients, shared by t.graphs
	b        batch
	// side holds the σ features of every pair of d (len(d.Pairs)×cfg.side,
	// see model/deupnet); nil without them. sideB is the batch's rows.
	side, sideB []float64
	// refresh, when set, recomputes the network-dependent σ features in
	// side (sigmadyn.go) with the network as it is: fit calls it before
	// the first epoch, after each epoch and after restoring the best one.
	refresh func(Forwarder) error
	// lr is the learning rate of the next step (Fit's Schedule); 0 means
	// cfg.LR (the σ refit).
	lr float64
	// idOf maps d's feature rows to the network's identity vectors
	// (Config.Identity; nil without them), idRows is the batch's, and
	// idRNG draws which are dropped (Config.IdentityDrop).
	idOf, idRows []int
	idRNG        *rand.Rand
}

type graphKey struct {
	u    int
	kind Loss
}

// SetSide gives the trainer the σ features of every pair of its dataset
// (len(d.Pairs)×Config.Side, row-major); nil for none.
func (t *Trainer) SetSide(side []float64) { t.side = side }

// SetRefresh makes Fit call refresh with the network's forwarder before
// the first epoch, after each epoch and after restoring the best one (to
// recompute network-dependent σ features in the slice given to SetSide).
func (t *Trainer) SetRefresh(refresh func(Forwarder) error) { t.refresh = refresh }

// Forwarder is the inference of the trainer's network as it is.
func (t *Trainer) Forwarder() Forwarder { return t.fwd }

// NewTrainer returns a trainer of n on d (targets standardized with mean
// and sd), its shuffling seeded by seed, with MC-Dropout masks of rate
// dropP during training (0: none).
func NewTrainer(n *Network, d *Dataset, mean, sd float64, seed uint64, dropP float64) *Trainer {
	t := &Trainer{net: n, fwd: NewForwarder(n), d: d, cfg: n.cfg, mean: mean, sd: sd,
		rng: rand.New(rand.NewPCG(seed, streams.Shuffle)), graphs: map[graphKey]*graph{}}
	if dropP > 0 {
		t.drop = newDropout(dropP, seed^0x9e3779b97f4a7c15)
	}
	if n.cfg.identityRows() > 0 {
		t.idOf = identityIndex(n.cfg.IdentityIDs(), d.Features)
		t.idRNG = rand.New(rand.NewPCG(seed, streams.Identity))
	}
	t.share.fuse()
	return t
}

// Close releases the trainer's graphs (Fit closes them when it returns).
func (t *Trainer) Close() {
	for _, g := range t.graphs {
		g.close()
	}
	t.graphs = nil
	t.share = gradShare{}
	t.share.fuse()
}

// step runs one update on the pairs idx. Unique drugs are padded to a
// multiple of 8 so that few graphs serve all batches.
func (t *Trainer) step(idx []int, kind Loss, bit float64) (float64, error) {
	t.d.makeBatch(idx, t.mean, t.sd, &t.b)
	u := (len(t.b.drugs) + 7) / 8 * 8
	key := graphKey{u, kind}
	g, ok := t.graphs[key]
	if !ok {
		var err error
		g, err = t.net.buildGraph(u, t.cfg.BatchSize, kind, t.drop != nil, &t.share)
		if err != nil {
			return 0, err
		}
		t.graphs[key] = g
	}
	g.setInputs(t.d.Features, t.b.drugs, t.b.pa, t.b.pb, t.b.line, t.b.y, t.b.w, bit)
	if t.idOf != nil {
		// In-sample steps drop each distinct drug's vector with
		// probability IdentityDrop; σ-only steps read μ as predicted.
		sigmaOnly := kind == LossNLLSigma || kind == LossLogSigma
		t.idRows = t.idRows[:0]
		for _, dr := range t.b.drugs {
			r := t.idOf[dr]
			if !sigmaOnly && t.cfg.IdentityDrop > 0 && t.idRNG.Float64() < t.cfg.IdentityDrop {
				r = -1
			}
			t.idRows = append(t.idRows, r)
		}
		g.setIdentity(t.idRows)
	}
	if k := t.cfg.side; k > 0 && kind != LossMSE {
		t.sideB = t.sideB[:0]
		for _, i := range idx {
			t.sideB = append(t.sideB, t.side[i*k:(i+1)*k]...)
		}
		g.setSide(t.sideB)
	}
	for _, m := range g.masks {
		if kind == LossNLLSigma || kind == LossLogSigma {
			keepAll(m.Data()) // σ-only steps read μ without dropout
			continue
		}
		t.drop.fill(m.Data())
	}
	loss, err := g.run()
	if err != nil {
		return 0, err
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return 0, fmt.Errorf("model: training diverged: loss %v", loss)
	}
	t1, t2 := t.net.byName["t1.w"], t.net.byName["t2.w"]
	lr := t.cfg.LR
	if t.lr > 0 {
		lr = t.lr
	}
	for k, i := range g.train {
		p := t.net.params[i]
		if p == t1 || p == t2 {
			if err := adamFused(p, &t.share, p == t1, lr, t.cfg.WeightDecay); err != nil {
				return 0, err
			}
			continue
		}
		gt, err := g.grad(k)
		if err != nil {
			return 0, err
		}
		if err := adam(p, gt, lr, t.cfg.WeightDecay); err != nil {
			return 0, err
		}
	}
	return loss, nil
}

// valRMSE is the RMSE of μ on idx in standardized units (no dropout).
func (t *Trainer) valRMSE(idx []int) float64 {
	mu := t.predictMu(idx)
	s := 0.0
	for k, i := range idx {
		r := mu[k] - (t.d.Y[i]-t.mean)/t.sd
		s += r * r
	}
	return math.Sqrt(s / float64(len(idx)))
}

func (t *Trainer) predictMu(idx []int) []float64 {
	pa, pb, pl := make([]int, len(idx)), make([]int, len(idx)), make([]int, len(idx))
	for k, i := range idx {
		pa[k], pb[k], pl[k] = t.d.Pairs[i].A, t.d.Pairs[i].B, t.d.Pairs[i].Line
	}
	mu := make([]float64, len(idx))
	t.fwd.Pairs(t.d.Features, pa, pb, pl, 0, nil, mu, nil, nil)
	return mu
}

// TrainOptions are Trainer.Fit's: the method and ensemble member the
// progress reports name (Member of Members), the loss of the in-sample
// step, and DEUPOut, which interleaves out-of-sample σ steps on
// split.Val (DEUP's training).
type TrainOptions struct {
	Method          string
	Member, Members int
	Loss            Loss // loss of the in-sample step
	DEUPOut         bool // interleave out-of-sample σ steps on split.Val
}

// Fit trains with early stopping on the validation RMSE of μ (split.Val
// never updates μ, so it is a fair stopping criterion) and restores the
// best epoch's parameters. Without a validation split it trains MaxEpochs.
func (t *Trainer) Fit(ctx context.Context, split drugcomb.Split, o TrainOptions, progress func(Progress)) error {
	defer t.Close()
	if t.cfg.Identity && t.cfg.identityRows() == 0 {
		return fmt.Errorf("model: identity vectors need the drugs' ids (Features.IDs)")
	}
	start := time.Now()
	cfg := t.cfg
	sched := NewSchedule(cfg, len(split.Train))
	defer func() { t.lr = 0 }()
	train := append([]int(nil), split.Train...)
	val := append([]int(nil), split.Val...)
	outOrder := append([]int(nil), split.Val...)
	outPos := len(outOrder)
	best, bestEpoch := math.Inf(1), 0
	var bestParams []any
	epochsDone := 0
	if t.refresh != nil {
		if err := t.refresh(t.fwd); err != nil {
			return err
		}
	}
	for epoch := 1; epoch <= cfg.MaxEpochs; epoch++ {
		t.rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		var inSum, outSum float64
		var inN, outN int
		for lo := 0; lo < len(train); lo += cfg.BatchSize {
			if err := ctx.Err(); err != nil {
				return err
			}
			idx := train[lo:min(lo+cfg.BatchSize, len(train))]
			t.lr = sched.Next()
			l, err := t.step(idx, o.Loss, 0)
			if err != nil {
				return err
			}
			inSum += l * float64(len(idx))
			inN += len(idx)
			if !o.DEUPOut {
				continue
			}
			if outPos >= len(outOrder) {
				t.rng.Shuffle(len(outOrder), func(i, j int) { outOrder[i], outOrder[j] = outOrder[j], outOrder[i] })
				outPos = 0
			}
			oidx := outOrder[outPos:min(outPos+cfg.BatchSize, len(outOrder))]
			outPos += len(oidx)
			l, err = t.step(oidx, LossNLLSigma, 1)
			if err != nil {
				return err
			}
			outSum += l * float64(len(oidx))
			outN += len(oidx)
		}
		t.fwd.invalidate()
		if t.refresh != nil {
			if err := t.refresh(t.fwd); err != nil {
				return err
			}
		}
		epochsDone = epoch
		p := Progress{Method: o.Method, Member: o.Member, Members: o.Members, Epoch: epoch, MaxEpochs: cfg.MaxEpochs,
			TrainLoss: inSum / float64(inN), OutLoss: math.NaN(), ValRMSE: math.NaN()}
		if outN > 0 {
			p.OutLoss = outSum / float64(outN)
		}
		if len(val) > 0 {
			r := t.valRMSE(val)
			p.ValRMSE = r * t.sd
			if r < best {
				best, bestEpoch = r, epoch
				bestParams = t.net.snapshot(bestParams)
			}
		} else {
			bestEpoch = epoch
		}
		p.BestEpoch = bestEpoch
		p.Elapsed = time.Since(start)
		stop := len(val) > 0 && sched.Stop(epoch, bestEpoch)
		if progress != nil {
			progress(p)
		}
		if stop {
			break
		}
	}
	if bestParams != nil {
		t.net.restore(bestParams)
		t.fwd.invalidate()
		if t.refresh != nil {
			if err := t.refresh(t.fwd); err != nil {
				return err
			}
		}
	}
	if progress != nil {
		progress(Progress{Method: o.Method, Member: o.Member, Members: o.Members, Epoch: epochsDone, BestEpoch: bestEpoch, MaxEpochs: cfg.MaxEpochs, Elapsed: time.Since(start), Done: true, OutLoss: math.NaN(), ValRMSE: math.NaN()})
	}
	return nil
}

// Standardization returns the mean and standard deviation of the targets
// of idx (sd 1 when they are constant).
func Standardization(d *Dataset, idx []int) (float64, float64) {
	m := 0.0
	for _, i := range idx {
		m += d.Y[i]
	}
	m /= float64(len(idx))
	v := 0.0
	for _, i := range idx {
		v += (d.Y[i] - m) * (d.Y[i] - m)
	}
	sd := math.Sqrt(v / float64(len(idx)))
	if !(sd > 0) {
		sd = 1
	}
	return m, sd
}
