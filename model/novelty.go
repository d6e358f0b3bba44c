package model

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/deup-screening/deup/chem"
	"github.com/deup-screening/deup/drugcomb"
)

// Novelty of DEUP's error predictor (issue 29).
//
// DEUP's σ path learns the out-of-sample error from D_out, the validation
// pairs. Those are a random share of the measured pairs: every D_out pair
// has two drugs μ was trained on, so the σ path never sees the error of μ
// on a drug it does not know, and its output for new chemistry is an
// extrapolation (in practice flat). The paper's recipe is an error
// predictor trained on out-of-sample errors with stationarizing features
// that say how far x is from the data (§3.2). DEUP gets them from a
// held-out-drug fold:
//
//  1. H, a seeded random set of the training drugs, taken one at a time
//     (as drugcomb.SplitByDrug takes test drugs) until the training pairs
//     with a drug of H reach Config.NoveltyHoldout of them (noveltySplit).
//  2. μ′, a second DEUP without σ features, is trained on the other
//     training pairs (D_in′), stopping early on the validation pairs; its
//     out-of-sample squared errors r = (y − μ′)² on D_out′ = validation ∪
//     the pairs of H cover pairs with 0, 1 and 2 unseen drugs.
//  3. The stationarizing feature of a pair is its effective number of
//     unseen drugs, ν(a, b) = (1 − T_a) + (1 − T_b), T_g the largest
//     Tanimoto similarity of drug g's Morgan bits to those of a drug of the
//     reference set (1 for a drug in it): 0 for two measured drugs, 2 for
//     two drugs unlike any measured one.
//  4. The error grows with it as r ≈ r̄₀ (1 + β ν), r̄₀ the mean r of the
//     D_out′ pairs with ν = 0; β is the least-squares slope through the
//     origin of r/r̄₀ − 1 on ν, β = Σ ν (r/r̄₀ − 1) / Σ ν², clipped at 0
//     (an unseen drug is not taken to be better predicted than a seen
//     one).
//
// The final μ and σ path are trained on all of D_in as before; at
// prediction, ν is computed against the drugs of D_in and the σ path's
// total error is scaled: e(x) = σ_total(x)² (1 + β ν(x)). A pair of two
// measured drugs keeps its σ exactly; only new chemistry is affected.
// μ′ costs one more training of the network.

// DefaultNoveltyHoldout is the default Config.NoveltyHoldout, fixed
// before any measurement: about one training pair in seven, a few drugs
// of a screen of 80.
const DefaultNoveltyHoldout = 0.15

// noveltySeed is xor-ed into the model seed for the choice of H.
const noveltySeed = 0x6e6f76656c7479 // "novelty"

// noveltySplit moves the training pairs of a seeded random set of training
// drugs to the validation split (see above) until at least frac of the
// training pairs moved; frac ≤ 0 returns split unchanged. Drugs are
// feature-matrix rows. It never leaves fewer than half of the training
// pairs; both returned lists are sorted.
func noveltySplit(d *Dataset, split drugcomb.Split, frac float64, seed uint64) drugcomb.Split {
	if !(frac > 0) || len(split.Train) == 0 {
		return split
	}
	byDrug := map[int][]int{}
	var drugs []int
	for _, i := range split.Train {
		p := d.Pairs[i]
		for _, g := range uniq([2]int{p.A, p.B}) {
			if _, ok := byDrug[g]; !ok {
				drugs = append(drugs, g)
			}
			byDrug[g] = append(byDrug[g], i)
		}
	}
	slices.Sort(drugs)
	rng := rand.New(rand.NewPCG(seed^noveltySeed, 0x686f6c646f7574)) // "holdout"
	moved := map[int]bool{}
	target := int(frac*float64(len(split.Train)) + 0.5)
	for _, k := range rng.Perm(len(drugs)) {
		if len(moved) >= target {
			break
		}
		add := 0
		for _, i := range byDrug[drugs[k]] {
			if !moved[i] {
				add++
			}
		}
		if 2*(len(moved)+add) > len(split.Train) {
			continue
		}
		for _, i := range byDrug[drugs[k]] {
			moved[i] = true
		}
	}
	if len(moved) == 0 {
		return split
	}
	out := drugcomb.Split{Test: split.Test, HeldOutDrugs: split.HeldOutDrugs}
	for _, i := range split.Train {
		if moved[i] {
			out.Val = append(out.Val, i)
		} else {
			out.Train = append(out.Train, i)
		}
	}
	out.Val = append(out.Val, split.Val...)
	slices.Sort(out.Val)
	return out
}

// novelty is the fitted novelty scale of a DEUP model, as stored in its
// file: e(x) = σ_total(x)² (1 + Beta·ν(x)), ν against the drugs Drugs.
type novelty struct {
	Beta  float64   `json:"beta"`
	NBits int       `json:"nbits"`
	Drugs [][]int32 `json:"drugs"` // distinct on-bit sets of the D_in drugs, ascending bits
	// Fit diagnostics: D_out′ pairs by unseen count and their mean r/r̄₀
	// (0 for none).
	Pairs [3]int     `json:"pairs"`
	Ratio [3]float64 `json:"ratio"`
	R0    float64    `json:"r0"` // r̄₀, standardized units
}

// noveltyRef is the reference drug set of ν: the distinct bit sets of the
// drugs of pairs idx.
func noveltyRef(d *Dataset, idx []int) [][]int32 {
	nb := d.Features.Config.NBits
	at := map[string]bool{}
	var out [][]int32
	for _, i := range idx {
		for _, g := range uniq([2]int{d.Pairs[i].A, d.Pairs[i].B}) {
			b := onBits(d.Features, g, nb)
			if k := bitKey(b); !at[k] {
				at[k] = true
				out = append(out, b)
			}
		}
	}
	return out
}

// noveltyCtx computes ν for the drugs of one feature matrix.
type noveltyCtx struct {
	ref   [][]int32
	nbits int
	got   map[int]float64
}

func newNoveltyCtx(ref [][]int32, nbits int) *noveltyCtx {
	return &noveltyCtx{ref: ref, nbits: nbits, got: map[int]float64{}}
}

// drug is 1 − T_g of drug g of f.
func (c *noveltyCtx) drug(f *Features, g int) float64 {
	if v, ok := c.got[g]; ok {
		return v
	}
	b := onBits(f, g, c.nbits)
	best := 0.0
	for _, r := range c.ref {
		if t := chem.Tanimoto(b, r); t > best {
			best = t
			if t == 1 && slices.Equal(b, r) {
				break
			}
		}
	}
	c.got[g] = 1 - best
	return 1 - best
}

// pair is ν(a, b) = (1 − T_a) + (1 − T_b); a drug with itself counts once.
func (c *noveltyCtx) pair(f *Features, a, b int) float64 {
	if a == b {
		return c.drug(f, a)
	}
	return c.drug(f, a) + c.drug(f, b)
}

// fitNoveltySlope is β = Σ ν (r/r̄₀ − 1) / Σ ν², clipped at 0, with r̄₀
// the mean r over ν = 0 (see above); 0 when no pair has ν > 0 or none has
// ν = 0. It also returns r̄₀.
func fitNoveltySlope(nu, r []float64) (beta, r0 float64) {
	n0 := 0
	for k := range nu {
		if nu[k] == 0 {
			r0 += r[k]
			n0++
		}
	}
	if n0 == 0 || !(r0 > 0) {
		return 0, 0
	}
	r0 /= float64(n0)
	var sxy, sxx float64
	for k := range nu {
		sxy += nu[k] * (r[k]/r0 - 1)
		sxx += nu[k] * nu[k]
	}
	if sxx == 0 {
		return 0, r0
	}
	return max(sxy/sxx, 0), r0
}

// noveltySeedMu is xor-ed into the seed of μ′.
const noveltySeedMu = 0x6d7570726d // "muprm"

// fitNovelty trains μ′ on the held-out-drug fold of split (see above) and
// fits β. It returns nil when NoveltyHoldout is off or the fold is empty.
func (m *DEUP) fitNovelty(ctx context.Context, d *Dataset, split drugcomb.Split, progress func(Progress)) (*novelty, error) {
	fold := noveltySplit(d, split, m.cfg.NoveltyHoldout, m.cfg.Seed)
	if len(fold.Train) == len(split.Train) {
		return nil, nil
	}
	cfg := m.cfg
	cfg.SigmaFeatures, cfg.side, cfg.Seed, cfg.NoveltyHoldout = SigmaFeatures{}, 0, m.cfg.Seed^noveltySeedMu, -1
	mp := NewDEUP(cfg)
	var pr func(Progress)
	if progress != nil {
		pr = func(p Progress) {
			p.Method = "deup (novelty: held-out-drug μ′)"
			progress(p)
		}
	}
	if err := mp.Fit(ctx, d, fold, pr); err != nil {
		return nil, fmt.Errorf("model: novelty: %w", err)
	}
	pairs := make([]Pair, len(fold.Val))
	for k, i := range fold.Val {
		pairs[k] = d.Pairs[i]
	}
	pred, err := mp.Predict(d.Features, pairs)
	if err != nil {
		return nil, fmt.Errorf("model: novelty: %w", err)
	}
	nb := d.Features.Config.NBits
	c := newNoveltyCtx(noveltyRef(d, fold.Train), nb)
	nu, r := make([]float64, len(pairs)), make([]float64, len(pairs))
	nv := &novelty{NBits: nb, Drugs: noveltyRef(d, split.Train)}
	var sum [3]float64
	inRef := map[int]bool{}
	for _, i := range fold.Train {
		inRef[d.Pairs[i].A], inRef[d.Pairs[i].B] = true, true
	}
	for k, p := range pairs {
		nu[k] = c.pair(d.Features, p.A, p.B)
		e := (d.Y[fold.Val[k]] - pred[k].Mu) / m.sd
		r[k] = e * e
		u := 0
		if !inRef[p.A] {
			u++
		}
		if p.B != p.A && !inRef[p.B] {
			u++
		}
		nv.Pairs[u]++
		sum[u] += r[k]
	}
	nv.Beta, nv.R0 = fitNoveltySlope(nu, r)
	for u := range sum {
		if nv.Pairs[u] > 0 && nv.R0 > 0 {
			nv.Ratio[u] = sum[u] / float64(nv.Pairs[u]) / nv.R0
		}
	}
	return nv, nil
}

// check validates a novelty scale read from a model file.
func (n *novelty) check(nbits int) error {
	if !(n.Beta >= 0) || math.IsInf(n.Beta, 0) || n.NBits != nbits || len(n.Drugs) == 0 {
		return fmt.Errorf("novelty: beta %v, %d bits (features %d), %d drugs", n.Beta, n.NBits, nbits, len(n.Drugs))
	}
	for k, b := range n.Drugs {
		for j, c := range b {
			if c < 0 || int(c) >= n.NBits || (j > 0 && c <= b[j-1]) {
				return fmt.Errorf("novelty: drug %d: bit %d out of order or range", k, c)
			}
		}
	}
	return nil
}
