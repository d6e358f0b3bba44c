package model

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/deup-screening/deup/internal/streams"
)

// Refitting the σ path after early stopping.
//
// The joint phase stops at the best epoch of μ, whatever state the σ path
// is in then: at the default learning rate it is often far from converged
// on its out-of-sample targets (on the synthetic default's first cell
// line, default Config, split and model seed 3, the validation pairs' mean
// (y−μ)²/σ² was 1.6 at μ's best epoch 37, the bench's DEUP row). With
// the tower, combined network and μ head frozen, the pair embeddings and
// μ's errors no longer move, so the σ path can be fitted to them as a
// stationary regression problem: out-of-sample steps (bit 1) on one half
// of the validation split, early-stopped on the out-of-sample NLL of the
// other half (never stepped on in this phase), keeping the best epoch's σ
// parameters; epoch 0, the σ path as the joint phase left it, is a
// candidate, so the refit can only improve that held-out NLL.

const (
	sigmaRefitMaxEpochs = 200 // epochs of the refit at most
	sigmaRefitPatience  = 20  // epochs without a better held-out NLL before stopping
	minSigmaRefitVal    = 20  // fewest validation pairs for a refit
)

// refitSigmaLoss runs the refit on split val and returns the held-out NLL
// before and after (standardized units, constant dropped) and the number
// of epochs run. It leaves the σ parameters of the best epoch in place.
//
// With Config.SigmaLoss "log" the steps regress log σ on log |μ−y| (the
// paper's log targets for its error predictors, robust to the heavy tails
// of |μ−y|: the refit's criterion is then the held-out mean of that loss),
// and it also returns the scale c that multiplies σ at prediction, the
// held-out Gaussian maximum-likelihood one:
// c² = mean (μ−y)²/σ² over the held-out half.
func (t *Trainer) RefitSigma(ctx context.Context, val []int, seed uint64, kind Loss) (before, after float64, epochs int, scale float64, err error) {
	scale = 1
	if len(val) < minSigmaRefitVal || !t.net.sigma {
		return math.NaN(), math.NaN(), 0, scale, nil
	}
	crit := t.outNLL
	if kind == LossLogSigma {
		crit = t.outLogLoss
	}
	rng := rand.New(rand.NewPCG(seed, streams.SigmaRefit))
	perm := append([]int(nil), val...)
	rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	fit, hold := perm[:len(perm)/2], perm[len(perm)/2:]
	var sig []*param
	for _, p := range t.net.params {
		if p.group == groupSigma {
			sig = append(sig, p)
		}
	}
	t.fwd.invalidate()
	best := crit(hold)
	before = best
	bestParams, bestEpoch := copyParams(sig, nil), 0
	bs := t.cfg.BatchSize
	for epoch := 1; epoch <= sigmaRefitMaxEpochs; epoch++ {
		rng.Shuffle(len(fit), func(i, j int) { fit[i], fit[j] = fit[j], fit[i] })
		for lo := 0; lo < len(fit); lo += bs {
			if err := ctx.Err(); err != nil {
				return 0, 0, epoch, scale, err
			}
			if _, err := t.step(fit[lo:min(lo+bs, len(fit))], kind, 1); err != nil {
				return 0, 0, epoch, scale, err
			}
		}
		t.fwd.invalidate()
		epochs = epoch
		if l := crit(hold); l < best {
			best, bestEpoch, bestParams = l, epoch, copyParams(sig, bestParams)
		}
		if epoch-bestEpoch >= sigmaRefitPatience {
			break
		}
	}
	restoreParams(sig, bestParams)
	t.fwd.invalidate()
	if kind == LossLogSigma {
		mu, sg := t.outPredict(hold)
		q := 0.0
		for k, i := range hold {
			r := mu[k] - (t.d.Y[i]-t.mean)/t.sd
			q += r * r / (sg[k] * sg[k])
		}
		scale = math.Sqrt(q / float64(len(hold)))
	}
	return before, best, epochs, scale, nil
}

// outPredict is μ and the out-of-sample σ (bit 1) of the pairs idx in
// standardized units.
func (t *Trainer) outPredict(idx []int) (mu, sig []float64) {
	pa, pb, pl := make([]int, len(idx)), make([]int, len(idx)), make([]int, len(idx))
	for k, i := range idx {
		pa[k], pb[k], pl[k] = t.d.Pairs[i].A, t.d.Pairs[i].B, t.d.Pairs[i].Line
	}
	mu, sig = make([]float64, len(idx)), make([]float64, len(idx))
	var side []float64
	if k := t.cfg.side; k > 0 {
		side = make([]float64, 0, len(idx)*k)
		for _, i := range idx {
			side = append(side, t.side[i*k:(i+1)*k]...)
		}
	}
	t.fwd.PairsSide(t.d.Features, pa, pb, pl, 1, side, mu, sig, nil)
	return mu, sig
}

// outLogLoss is the mean log-σ regression loss (lossLogSigma) of the
// pairs idx.
func (t *Trainer) outLogLoss(idx []int) float64 {
	mu, sig := t.outPredict(idx)
	s := 0.0
	for k, i := range idx {
		r := mu[k] - (t.d.Y[i]-t.mean)/t.sd
		e := math.Log(sig[k]) - 0.5*math.Log(r*r+logSigmaEps*logSigmaEps) - logAbsGauss
		s += e * e
	}
	return s / float64(len(idx))
}

// outNLL is the mean out-of-sample (bit 1) Gaussian NLL log σ + (μ−y)²/2σ²
// of the pairs idx in standardized units.
func (t *Trainer) outNLL(idx []int) float64 {
	mu, sig := t.outPredict(idx)
	s := 0.0
	for k, i := range idx {
		r := mu[k] - (t.d.Y[i]-t.mean)/t.sd
		s += math.Log(sig[k]) + r*r/(2*sig[k]*sig[k])
	}
	return s / float64(len(idx))
}
