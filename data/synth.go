package data

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/deup-screening/deup/drugcomb"

	"github.com/deup-screening/deup/internal/streams"
)

// SynthConfig configures the synthetic screen. DefaultSynth gives the
// embedded default; a zero field is an error, not a default.
type SynthConfig struct {
	Seed          uint64  // every random draw derives from it
	Drugs         int     // number of distinct drugs (distinct SMILES)
	CellLines     int     // number of cell lines
	Pairs         int     // number of measured (drug, drug, cell line) combinations
	ReplicateFrac float64 // fraction of pairs measured more than once
	MaxReplicates int     // replicated pairs get 2..MaxReplicates measurements
	LatentDim     int     // dimension of the hidden per-fragment vectors
	Scale         float64 // scale of the true synergy (its standard deviation is of this order)
	NoiseMin      float64 // smallest noise standard deviation of one measurement
	NoiseMax      float64 // largest noise standard deviation of one measurement
	RareWeight    float64 // relative probability of drawing a fragment of a rare family (common families: 1)
	RareEffect    float64 // scale, relative to Scale, of the partner-dependent effect of rare-family fragments
}

// DefaultSynth is the embedded default: 60 drugs, 1,800 pairs on 2 cell
// lines, 30 % of pairs replicated 2–3 times, 4 latent dimensions, synergy
// of scale 10, noise standard deviation between 1 and 12 (set by the
// drugs), rare chemotypes in about one drug in five (13 of 60 for seed 1)
// with a partner-dependent effect of twice the synergy scale.
func DefaultSynth(seed uint64) SynthConfig {
	return SynthConfig{
		Seed: seed, Drugs: 60, CellLines: 2, Pairs: 1800,
		ReplicateFrac: 0.3, MaxReplicates: 3, LatentDim: 4,
		Scale: 10, NoiseMin: 1, NoiseMax: 12, RareWeight: 0.2, RareEffect: 2,
	}
}

func (c SynthConfig) validate() error {
	switch {
	case c.Drugs < 2:
		return errors.New("data: synth: need at least 2 drugs")
	case c.CellLines < 1:
		return errors.New("data: synth: need at least 1 cell line")
	case c.Pairs < 1 || c.Pairs > c.CellLines*c.Drugs*(c.Drugs-1)/2:
		return fmt.Errorf("data: synth: %d pairs, want 1..%d (all pairs of %d drugs on %d cell lines)", c.Pairs, c.CellLines*c.Drugs*(c.Drugs-1)/2, c.Drugs, c.CellLines)
	case !(c.ReplicateFrac >= 0 && c.ReplicateFrac <= 1):
		return fmt.Errorf("data: synth: replicate fraction %g not in [0, 1]", c.ReplicateFrac)
	case c.ReplicateFrac > 0 && c.MaxReplicates < 2:
		return fmt.Errorf("data: synth: max replicates %d, want >= 2", c.MaxReplicates)
	case c.LatentDim < 1:
		return errors.New("data: synth: latent dimension must be >= 1")
	case !(c.Scale > 0) || math.IsInf(c.Scale, 0):
		return errors.New("data: synth: scale must be positive and finite")
	case !(c.NoiseMin > 0 && c.NoiseMax >= c.NoiseMin) || math.IsInf(c.NoiseMax, 0):
		return fmt.Errorf("data: synth: noise range [%g, %g] invalid", c.NoiseMin, c.NoiseMax)
	case !(c.RareWeight > 0 && c.RareWeight <= 1):
		return fmt.Errorf("data: synth: rare weight %g not in (0, 1]", c.RareWeight)
	case !(c.RareEffect > 0) || math.IsInf(c.RareEffect, 0):
		return fmt.Errorf("data: synth: rare effect %g must be positive and finite", c.RareEffect)
	}
	return nil
}

// Shape constants of the hidden truth (see Synth).
const (
	rareOffset = 0.5 // mean part of a rare drug's effect, relative to its partner-dependent part
	noiseSharp = 1.5 // how sharply the drugs' latents drive the noise level
)

// fragKind is the role of a fragment in the assembled SMILES.
type fragKind int

const (
	ring   fragKind = iota // a ring system: entered at its first atom, left at its last
	linker                 // a chain between two rings
	cap                    // a terminal group
)

// fragment is a real medicinal-chemistry building block written so that
// concatenating fragments gives valid SMILES: the first atom bonds to the
// previous fragment's last main-chain atom, and every ring it opens it
// closes. Entry and exit atoms are carbons with a free hydrogen, except
// where entryN/exitN say nitrogen (an amine that accepts one more bond).
type fragment struct {
	smiles string
	kind   fragKind
	family string
	entryN bool // the entry atom is a nitrogen (never bond it to O, N or S)
	exitN  bool // the exit atom is a heteroatom (N, O or S; never bond it to an N entry)
}

// families whose fragments are drawn with probability RareWeight.
var rareFamilies = map[string]bool{"fused": true, "strained": true}

// fragments is the fixed library. Its order is part of the generator: the
// latent vectors are drawn in this order.
var fragments = []fragment{
	// aryl (common)
	{smiles: "c1ccccc1", kind: ring, family: "aryl"},
	{smiles: "c1ccc(F)cc1", kind: ring, family: "aryl"},
	{smiles: "c1ccc(Cl)cc1", kind: ring, family: "aryl"},
	{smiles: "c1ccc(OC)cc1", kind: ring, family: "aryl"},
	{smiles: "c1ccc(C)cc1", kind: ring, family: "aryl"},
	{smiles: "c1cc(C(F)(F)F)ccc1", kind: ring, family: "aryl"},
	// heteroaryl (common)
	{smiles: "c1ccncc1", kind: ring, family: "heteroaryl"},
	{smiles: "c1cncnc1", kind: ring, family: "heteroaryl"},
	{smiles: "c1nccnc1", kind: ring, family: "heteroaryl"},
	{smiles: "c1ccsc1", kind: ring, family: "heteroaryl"},
	{smiles: "c1ccoc1", kind: ring, family: "heteroaryl"},
	{smiles: "c1cc(N)ncc1", kind: ring, family: "heteroaryl"},
	// saturated heterocycles and carbocycles (common)
	{smiles: "N1CCN(C)CC1", kind: ring, family: "saturated", entryN: true},
	{smiles: "N1CCOCC1", kind: ring, family: "saturated", entryN: true},
	{smiles: "C1CCNCC1", kind: ring, family: "saturated"},
	{smiles: "C1CCCCC1", kind: ring, family: "saturated"},
	{smiles: "C1CCOC1", kind: ring, family: "saturated"},
	// fused bicycles (rare)
	{smiles: "c1ccc2ccccc2c1", kind: ring, family: "fused"},
	{smiles: "c1ccc2[nH]ccc2c1", kind: ring, family: "fused"},
	{smiles: "c1ccc2ncccc2c1", kind: ring, family: "fused"},
	{smiles: "c1ccc2occc2c1", kind: ring, family: "fused"},
	{smiles: "c1ccc2[nH]cnc2c1", kind: ring, family: "fused"},
	// strained small rings (rare)
	{smiles: "C1CC1", kind: ring, family: "strained"},
	{smiles: "C1CCC1", kind: ring, family: "strained"},
	// linkers
	{smiles: "C(=O)N", kind: linker, family: "amide", exitN: true},
	{smiles: "NC(=O)", kind: linker, family: "amide"},
	{smiles: "S(=O)(=O)N", kind: linker, family: "sulfonamide", exitN: true},
	{smiles: "NC(=O)N", kind: linker, family: "urea", exitN: true},
	{smiles: "O", kind: linker, family: "ether", exitN: true},
	{smiles: "CO", kind: linker, family: "ether", exitN: true},
	{smiles: "N", kind: linker, family: "amine", exitN: true},
	{smiles: "C", kind: linker, family: "alkyl"},
	{smiles: "CC", kind: linker, family: "alkyl"},
	{smiles: "C(=O)", kind: linker, family: "ketone"},
	{smiles: "C#C", kind: linker, family: "alkyne"},
	// caps
	{smiles: "F", kind: cap, family: "halogen"},
	{smiles: "Cl", kind: cap, family: "halogen"},
	{smiles: "Br", kind: cap, family: "halogen"},
	{smiles: "O", kind: cap, family: "polar"},
	{smiles: "N", kind: cap, family: "polar"},
	{smiles: "C(=O)O", kind: cap, family: "polar"},
	{smiles: "C(=O)N", kind: cap, family: "polar"},
	{smiles: "C#N", kind: cap, family: "polar"},
	{smiles: "OC", kind: cap, family: "alkyl"},
	{smiles: "C(F)(F)F", kind: cap, family: "alkyl"},
	{smiles: "S(C)(=O)=O", kind: cap, family: "polar"},
}

// synthDrug is a generated drug: its SMILES and the fragments it is made of.
type synthDrug struct {
	smiles string
	frags  []int // indices into fragments, in SMILES order
	rare   bool  // contains a fragment of a rare family
}

// Synth generates a synthetic screen from cfg. The result is a function of
// cfg alone (same config, same screen, bit for bit).
//
// The hidden truth: every fragment f of the library has a latent vector
// w_f ~ Normal(0, I_k) (k = LatentDim; rare-family fragments are scaled by
// 1.5, so rare drugs lie away from the common ones). A drug's latent vector
// is z = sum over its fragments of w_f, a function of its substructures and
// so of its Morgan fingerprint; write t = tanh(z / 2) elementwise. Every
// rare-family fragment also has a potency rho_f ~ Normal(0, 1) (0 for
// common fragments), and a drug's rare potency r is the sum of rho_f over
// its fragments: a new chemotype, absent from most of the screen. The true
// synergy of drugs a and b on cell line c is an additive part (each drug's
// own effect), a pairwise interaction and the rare chemotypes' effect:
//
//	mu = Scale * (beta_c + 0.75 * u . (t_a + t_b) + 0.5 * sum_i {d_ci * t_ai * t_bi}
//	              + RareEffect * (r_a * (0.5 + tanh(p_c . t_b)) + r_b * (0.5 + tanh(p_c . t_a))))
//
// (d_c, u, beta_c, p_c drawn once per screen), symmetric in a and b. A
// rare drug's effect is large and its sign depends on the partner (through
// p_c), so it cannot be learned from the few pairs such drugs get (below):
// a model errs most there, an error predictable from the inputs (distance
// from the training data). One measurement is mu + sigma * e,
// e ~ Normal(0, 1), with the heteroscedastic noise standard deviation
//
//	sigma = NoiseMin * (NoiseMax / NoiseMin)^logistic(1.5 * (v . (t_a + t_b) - m) + g_c)
//
// (m is the mean of v . (t_a + t_b) over the drugs, so the noise is centred
// on the geometric mean of NoiseMin and NoiseMax): some drugs make every
// pair they are in noisy, as unstable or cytotoxic compounds do in a real
// screen, and since the noise level is a function of the drugs' latents it
// is learnable from their fingerprints.
//
// Pairs are sampled without replacement with weight 1/4 per rare drug, so
// the rare chemotypes are also rarely measured. Truth holds mu and sigma^2
// per pair; the pair's Mean and Var are the sample mean and variance of its
// replicates (N = 1 for most pairs; ReplicateFrac of them get
// 2..MaxReplicates).
func Synth(cfg SynthConfig) (*drugcomb.Screen, error) {
	s, _, err := synth(cfg)
	return s, err
}

func synth(cfg SynthConfig) (*drugcomb.Screen, []synthDrug, error) {
	if err := cfg.validate(); err != nil {
		return nil, nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, streams.Synth))
	k := cfg.LatentDim

	// Hidden parameters, drawn in a fixed order.
	w := make([][]float64, len(fragments))
	for f := range fragments {
		w[f] = normals(rng, k)
		if rareFamilies[fragments[f].family] {
			for i := range w[f] {
				w[f][i] *= 1.5
			}
		}
	}
	u := normals(rng, k)
	v := normals(rng, k)
	d := make([][]float64, cfg.CellLines)
	beta := make([]float64, cfg.CellLines)
	g := make([]float64, cfg.CellLines)
	for c := range d {
		d[c] = normals(rng, k)
		beta[c] = 0.5 * rng.NormFloat64()
		g[c] = 0.5 * rng.NormFloat64()
	}
	// Rare chemotypes: a potency per rare-family fragment and, per cell
	// line, the direction in the partner's latent space that decides
	// whether the rare drug's effect is synergistic or antagonistic.
	rho := make([]float64, len(fragments))
	for f := range fragments {
		if rareFamilies[fragments[f].family] {
			rho[f] = rng.NormFloat64()
		}
	}
	pc := make([][]float64, cfg.CellLines)
	for c := range pc {
		pc[c] = normals(rng, k)
	}

	drugs, err := makeDrugs(rng, cfg.Drugs, cfg.RareWeight)
	if err != nil {
		return nil, nil, err
	}
	t := make([][]float64, len(drugs))
	r := make([]float64, len(drugs)) // rare potency: sum of rho over the drug's fragments
	for i, dr := range drugs {
		z := make([]float64, k)
		for _, f := range dr.frags {
			for j := range z {
				z[j] += w[f][j]
			}
			r[i] += rho[f]
		}
		for j := range z {
			z[j] = math.Tanh(0.5 * z[j])
		}
		t[i] = z
	}
	// The drugs' mean noise propensity, so that the noise level is centred
	// on the geometric mean of NoiseMin and NoiseMax whatever v is.
	nzMean := 0.0
	for i := range t {
		for j := 0; j < k; j++ {
			nzMean += 2 * v[j] * t[i][j] / float64(len(t))
		}
	}

	b := drugcomb.NewBuilder("synergy")
	for i, dr := range drugs {
		id := fmt.Sprintf("SYN%03d", i+1)
		b.Drug(drugcomb.Drug{ID: id, Name: id, SMILES: dr.smiles})
	}
	for c := 0; c < cfg.CellLines; c++ {
		b.CellLine(fmt.Sprintf("SYNTH-%d", c+1))
	}

	// All candidate (a < b, cell line) combinations, shuffled; take Pairs.
	type cand struct{ a, b, c int }
	cands := make([]cand, 0, cfg.CellLines*cfg.Drugs*(cfg.Drugs-1)/2)
	for c := 0; c < cfg.CellLines; c++ {
		for a := 0; a < cfg.Drugs; a++ {
			for bb := a + 1; bb < cfg.Drugs; bb++ {
				cands = append(cands, cand{a, bb, c})
			}
		}
	}
	// Weighted sampling without replacement (Efraimidis and Spirakis 2006:
	// keep the Pairs largest u^(1/w)): a pair's weight is the product of
	// its drugs' weights, 1 for common drugs and rareDrugWeight for drugs
	// with a rare fragment, so rare drugs are also rarely measured, as new
	// chemistry is in a real screen.
	const rareDrugWeight = 0.25
	keys := make([]float64, len(cands))
	for i, cd := range cands {
		w := 1.0
		if drugs[cd.a].rare {
			w *= rareDrugWeight
		}
		if drugs[cd.b].rare {
			w *= rareDrugWeight
		}
		keys[i] = math.Log(rng.Float64()) / w // log(u^(1/w)): same order, no underflow
	}
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return keys[order[i]] > keys[order[j]] })
	picked := make([]cand, cfg.Pairs)
	for i := range picked {
		picked[i] = cands[order[i]]
	}
	cands = picked

	type truth struct{ mu, v float64 }
	truths := map[[3]int]truth{}
	score := make([]float64, 1)
	for _, cd := range cands {
		ta, tb := t[cd.a], t[cd.b]
		inter, lin, nz, pa, pb := 0.0, 0.0, 0.0, 0.0, 0.0
		for j := 0; j < k; j++ {
			inter += d[cd.c][j] * ta[j] * tb[j]
			lin += u[j] * (ta[j] + tb[j])
			nz += v[j] * (ta[j] + tb[j])
			pa += pc[cd.c][j] * ta[j]
			pb += pc[cd.c][j] * tb[j]
		}
		rare := r[cd.a]*(rareOffset+math.Tanh(pb)) + r[cd.b]*(rareOffset+math.Tanh(pa))
		mu := cfg.Scale * (beta[cd.c] + 0.75*lin + 0.5*inter + cfg.RareEffect*rare)
		sigma := cfg.NoiseMin * math.Pow(cfg.NoiseMax/cfg.NoiseMin, 1/(1+math.Exp(-(noiseSharp*(nz-nzMean)+g[cd.c]))))
		truths[[3]int{cd.a, cd.b, cd.c}] = truth{mu, sigma * sigma}
		reps := 1
		if rng.Float64() < cfg.ReplicateFrac {
			reps = 2 + rng.IntN(cfg.MaxReplicates-1)
		}
		for r := 0; r < reps; r++ {
			score[0] = mu + sigma*rng.NormFloat64()
			if err := b.Measure(cd.a, cd.b, cd.c, score); err != nil {
				return nil, nil, fmt.Errorf("data: synth: %w", err)
			}
		}
	}
	s := b.Screen(fmt.Sprintf("synthetic-seed-%d", cfg.Seed))
	s.Truth = &drugcomb.Truth{Mean: make([]float64, len(s.Pairs)), NoiseVar: make([]float64, len(s.Pairs))}
	for i, p := range s.Pairs {
		tr := truths[[3]int{p.A, p.B, p.CellLine}]
		s.Truth.Mean[i], s.Truth.NoiseVar[i] = tr.mu, tr.v
	}
	return s, drugs, nil
}

func normals(rng *rand.Rand, k int) []float64 {
	x := make([]float64, k)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

// makeDrugs assembles n distinct drugs: ring [linker ring [linker ring]]
// [cap]; 2 or 3 rings (each with probability 0.425) or 1 ring (0.15);
// a cap with probability 1/2, always after a single ring.
func makeDrugs(rng *rand.Rand, n int, rareWeight float64) ([]synthDrug, error) {
	var rings, linkers, caps []int
	var ringW []float64
	for i, f := range fragments {
		switch f.kind {
		case ring:
			rings = append(rings, i)
			wt := 1.0
			if rareFamilies[f.family] {
				wt = rareWeight
			}
			ringW = append(ringW, wt)
		case linker:
			linkers = append(linkers, i)
		case cap:
			caps = append(caps, i)
		}
	}
	seen := map[string]bool{}
	var out []synthDrug
	for tries := 0; len(out) < n; tries++ {
		if tries > 1000*n {
			return nil, fmt.Errorf("data: synth: could not make %d distinct drugs", n)
		}
		var dr synthDrug
		nRings := 2 + rng.IntN(2)
		if rng.Float64() < 0.15 {
			nRings = 1 // then a cap is added, so no drug is a bare ring
		}
		prevExitN := false
		for r := 0; r < nRings; r++ {
			if r > 0 {
				l := linkers[rng.IntN(len(linkers))]
				dr.frags = append(dr.frags, l)
				prevExitN = fragments[l].exitN
			}
			var f int
			for {
				f = pickRing(rng, rings, ringW)
				if !(prevExitN && fragments[f].entryN) {
					break
				}
			}
			dr.frags = append(dr.frags, f)
			prevExitN = fragments[f].exitN
		}
		if nRings == 1 || rng.IntN(2) == 0 {
			dr.frags = append(dr.frags, caps[rng.IntN(len(caps))])
		}
		var sb strings.Builder
		for _, f := range dr.frags {
			sb.WriteString(fragments[f].smiles)
			if rareFamilies[fragments[f].family] {
				dr.rare = true
			}
		}
		dr.smiles = sb.String()
		if seen[dr.smiles] {
			continue
		}
		seen[dr.smiles] = true
		out = append(out, dr)
	}
	return out, nil
}

// pickRing draws a ring fragment with probability proportional to w.
func pickRing(rng *rand.Rand, rings []int, w []float64) int {
	total := 0.0
	for _, wi := range w {
		total += wi
	}
	x := rng.Float64() * total
	for i, wi := range w {
		if x < wi {
			return rings[i]
		}
		x -= wi
	}
	return rings[len(rings)-1]
}
