package deupnet

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/deup-screening/deup/chem"
	"github.com/deup-screening/deup/drugcomb"

	"github.com/deup-screening/deup/internal/streams"
	"github.com/deup-screening/deup/model"
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
//  4. The error grows with it as r ≈ r̄₀ (1 + β₁ ν + β₂ ν²), r̄₀ the mean
//     r of the D_out′ pairs with ν = 0; β₁, β₂ ≥ 0 by least squares
//     (an unseen drug is not taken to be better predicted than a seen
//     one). The ν² term lets a pair of two new drugs err more than twice
//     as much as a pair of one: μ learns a pair's interaction from both
//     drugs' pairs.
//
// The final μ and σ path are trained on all of D_in as before; at
// prediction, ν is computed against the drugs of D_in and the σ path's
// total error is scaled: e(x) = σ_total(x)² (1 + β₁ ν(x) + β₂ ν(x)²). A pair of two
// measured drugs keeps its σ exactly; only new chemistry is affected.
// μ′ costs one more training of the network.

// DefaultNoveltyHoldout is the default Config.NoveltyHoldout: 0.4 of
// the training pairs, i.e. about a fifth of the drugs, so that about 5 %
// of the training pairs have two held-out drugs (1 − (1 − f)² = 0.4 for a
// share f ≈ 0.23 of the drugs, f² ≈ 0.05). Chosen on the toy screen of
// TestNoveltyUnseenDrugs (0.15 left 3 pairs with two unseen drugs), before
// any measurement on a real screen.
const DefaultNoveltyHoldout = 0.4

// noveltySeed is xor-ed into the model seed for the choice of H.
const noveltySeed = streams.NoveltySeed

// noveltySplit moves the training pairs of a seeded random set of training
// drugs to the validation split (see above) until at least frac of the
// training pairs moved; frac ≤ 0 returns split unchanged. Drugs are
// feature-matrix rows. It never leaves fewer than half of the training
// pairs; both returned lists are sorted.
func noveltySplit(d *model.Dataset, split drugcomb.Split, frac float64, seed uint64) drugcomb.Split {
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
	rng := rand.New(rand.NewPCG(seed^noveltySeed, streams.NoveltyHoldout))
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
// file: e(x) = σ_total(x)² (1 + Beta·ν(x) + Beta2·ν(x)²), ν against the
// drugs Drugs.
type novelty struct {
	Beta  float64   `json:"beta"`
	Beta2 float64   `json:"beta2"`
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
func noveltyRef(d *model.Dataset, idx []int) [][]int32 {
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
func (c *noveltyCtx) drug(f *model.Features, g int) float64 {
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
func (c *noveltyCtx) pair(f *model.Features, a, b int) float64 {
	if a == b {
		return c.drug(f, a)
	}
	return c.drug(f, a) + c.drug(f, b)
}

// fitNoveltySlope fits r/r̄₀ − 1 ≈ β₁ ν + β₂ ν² by least squares with
// β₁, β₂ ≥ 0 (of the fits with both, only β₁ and only β₂, the feasible one
// with the smallest squared error; none feasible: 0, 0), r̄₀ the mean r
// over ν = 0; zeros when no pair has ν = 0. It also returns r̄₀.
func fitNoveltySlope(nu, r []float64) (beta [2]float64, r0 float64) {
	n0 := 0
	for k := range nu {
		if nu[k] == 0 {
			r0 += r[k]
			n0++
		}
	}
	if n0 == 0 || !(r0 > 0) {
		return beta, 0
	}
	r0 /= float64(n0)
	// Normal equations of z = β₁ x + β₂ x², x = ν, z = r/r̄₀ − 1.
	var s11, s12, s22, s1z, s2z, szz float64
	for k := range nu {
		x, z := nu[k], r[k]/r0-1
		s11 += x * x
		s12 += x * x * x
		s22 += x * x * x * x
		s1z += x * z
		s2z += x * x * z
		szz += z * z
	}
	sse := func(b [2]float64) float64 {
		return szz - 2*(b[0]*s1z+b[1]*s2z) + b[0]*b[0]*s11 + 2*b[0]*b[1]*s12 + b[1]*b[1]*s22
	}
	best := math.Inf(1)
	try := func(b [2]float64) {
		if b[0] >= 0 && b[1] >= 0 && !math.IsNaN(b[0]) && !math.IsNaN(b[1]) {
			if e := sse(b); e < best {
				best, beta = e, b
			}
		}
	}
	try([2]float64{0, 0})
	if s11 > 0 {
		try([2]float64{s1z / s11, 0})
	}
	if s22 > 0 {
		try([2]float64{0, s2z / s22})
	}
	if det := s11*s22 - s12*s12; det > 1e-12*s11*s22 {
		try([2]float64{(s1z*s22 - s2z*s12) / det, (s2z*s11 - s1z*s12) / det})
	}
	return beta, r0
}

// scale is 1 + β₁ ν + β₂ ν².
func (n *novelty) scale(nu float64) float64 { return 1 + n.Beta*nu + n.Beta2*nu*nu }

// noveltySeedMu is xor-ed into the seed of μ′.
const noveltySeedMu = 0x6d7570726d // "muprm"

// fitNovelty trains μ′ on the held-out-drug fold of split (see above) and
// fits β. It returns nil when NoveltyHoldout is off or the fold is empty.
func (m *DEUP) fitNovelty(ctx context.Context, d *model.Dataset, split drugcomb.Split, progress func(model.Progress)) (*novelty, error) {
	fold := noveltySplit(d, split, m.cfg.NoveltyHoldout, m.cfg.Seed)
	if len(fold.Train) == len(split.Train) {
		return nil, nil
	}
	pairs := d.PairsAt(fold.Val)
	pred, err := m.muPrime(ctx, d, fold, noveltySeedMu, "deup (novelty: held-out-drug μ′)", progress, pairs)
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
	var b [2]float64
	b, nv.R0 = fitNoveltySlope(nu, r)
	nv.Beta, nv.Beta2 = b[0], b[1]
	for u := range sum {
		if nv.Pairs[u] > 0 && nv.R0 > 0 {
			nv.Ratio[u] = sum[u] / float64(nv.Pairs[u]) / nv.R0
		}
	}
	return nv, nil
}

// check validates a novelty scale read from a model file.
func (n *novelty) check(nbits int) error {
	if !(n.Beta >= 0) || math.IsInf(n.Beta, 0) || !(n.Beta2 >= 0) || math.IsInf(n.Beta2, 0) || n.NBits != nbits || len(n.Drugs) == 0 {
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
