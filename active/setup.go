package active

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"gonum.org/v1/gonum/mat"

	"github.com/deup-screening/deup/internal/streams"
)

// ScreenTable returns the measured pairs of a screen as a table: score
// column score, restricted to cell line cellLine ("" means all cell lines).
// Pairs whose score is NaN (not measured for that column) are left out and
// counted in skipped.
func ScreenTable(s *drugcomb.Screen, score int, cellLine string) (t TableOracle, skipped int, err error) {
	var names []string
	if cellLine != "" {
		names = []string{cellLine}
	}
	return ScreenTableLines(s, score, names)
}

// CellLineIndices returns the positions in s.CellLines of the named lines
// (drugcomb.IndexName's rule: exact, else ignoring case), in the order
// given; nil names means every line.
func CellLineIndices(s *drugcomb.Screen, names []string) ([]int, error) {
	if names == nil {
		out := make([]int, len(s.CellLines))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, n := range names {
		cl := drugcomb.IndexName(s.CellLines, n)
		if cl < 0 {
			return nil, fmt.Errorf("active: screen %s has no cell line %q (has %s)", s.Name, n, strings.Join(s.CellLines, ", "))
		}
		if !slices.Contains(out, cl) {
			out = append(out, cl)
		}
	}
	return out, nil
}

// ScreenTableLines is ScreenTable on the named cell lines (nil: every
// line): the oracle of a campaign across the lines of a panel. The pairs
// keep their line's position in s.CellLines.
func ScreenTableLines(s *drugcomb.Screen, score int, cellLines []string) (t TableOracle, skipped int, err error) {
	if score < 0 || score >= len(s.ScoreNames) {
		return nil, 0, fmt.Errorf("active: screen %s has no score column %d", s.Name, score)
	}
	idx, err := CellLineIndices(s, cellLines)
	if err != nil {
		return nil, 0, err
	}
	keep := make([]bool, len(s.CellLines))
	for _, i := range idx {
		keep[i] = true
	}
	t = TableOracle{}
	for i, p := range s.Pairs {
		if p.CellLine >= 0 && p.CellLine < len(keep) && !keep[p.CellLine] {
			continue
		}
		if p.A == p.B || p.A < 0 || p.B < 0 || p.A >= len(s.Drugs) || p.B >= len(s.Drugs) || p.CellLine < 0 || p.CellLine >= len(s.CellLines) {
			return nil, 0, fmt.Errorf("active: screen %s: pair %d references drugs %d,%d cell line %d out of range", s.Name, i, p.A, p.B, p.CellLine)
		}
		y := p.Mean[score]
		if math.IsNaN(y) {
			skipped++
			continue
		}
		k := NewPairKey(p.A, p.B, p.CellLine)
		if _, dup := t[k]; dup {
			return nil, 0, fmt.Errorf("active: screen %s: pair %d (%s + %s) appears twice", s.Name, i, s.Drugs[p.A].Name, s.Drugs[p.B].Name)
		}
		t[k] = y
	}
	if len(t) == 0 {
		return nil, skipped, fmt.Errorf("active: screen %s has no measured pairs for %q", s.Name, strings.Join(cellLines, ","))
	}
	return t, skipped, nil
}

// SplitInitial draws n pairs of the table (seeded) as the initial measured
// set of a retrospective campaign; the rest are its candidates. Both keep
// the table's sorted order.
func SplitInitial(t TableOracle, n int, seed uint64) (initial []Measurement, candidates []PairKey, err error) {
	all := t.SortedPairs()
	if n < 2 || n >= len(all) {
		return nil, nil, fmt.Errorf("active: initial set of %d pairs out of %d: want 2 <= n < %d", n, len(all), len(all))
	}
	rng := rand.New(rand.NewPCG(seed, streams.InitialPairs))
	chosen := map[int]bool{}
	for _, i := range rng.Perm(len(all))[:n] {
		chosen[i] = true
	}
	for i, p := range all {
		if chosen[i] {
			initial = append(initial, Measurement{p, t[p]})
		} else {
			candidates = append(candidates, p)
		}
	}
	return initial, candidates, nil
}

// AllUnmeasured lists every unordered pair of distinct drugs on each of
// cellLines that the table has not measured: the candidates of a live
// campaign over a screen's drugs.
func AllUnmeasured(t TableOracle, nDrugs int, cellLines []int) []PairKey {
	var out []PairKey
	for _, c := range cellLines {
		for a := 0; a < nDrugs; a++ {
			for b := a + 1; b < nDrugs; b++ {
				p := PairKey{a, b, c}
				if _, ok := t[p]; !ok {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// TopFraction returns the pairs of t whose score is at or above the
// (1-frac) quantile: the ceil(frac*n) best pairs (at least 1), ties at the
// threshold included. RECOVER's metric is the share of these found.
func TopFraction(t TableOracle, frac float64) map[PairKey]bool {
	ys := make([]float64, 0, len(t))
	for _, y := range t {
		ys = append(ys, y)
	}
	sortDesc(ys)
	k := int(math.Ceil(frac * float64(len(ys))))
	if k < 1 {
		k = 1
	}
	thr := ys[k-1]
	top := map[PairKey]bool{}
	for p, y := range t {
		if y >= thr {
			top[p] = true
		}
	}
	return top
}

func sortDesc(x []float64) { sort.Sort(sort.Reverse(sort.Float64Slice(x))) }

// NewSurrogate returns the surrogate named name: "deup-ridge" (interactive DEUP
// on a Bayesian-ridge main predictor), "bayes-ridge" or "ensemble". The
// "deup-net" surrogate (interactive DEUP on package model's network) needs
// the drugs: use NewSurrogateFor.
func NewSurrogate(name string, enc Encoder) (Surrogate, error) {
	switch name {
	case "deup-net", "ensemble-net", "mcdropout-net", "twohead-net":
		return nil, fmt.Errorf("active: %s needs the campaign's drugs (NewSurrogateFor)", name)
	case RidgeDEUP:
		return &InteractiveDEUP{Enc: enc}, nil
	case "bayes-ridge":
		return &Ridge{Enc: enc}, nil
	case "ensemble":
		return &RidgeEnsemble{Enc: enc}, nil
	}
	return nil, unknownModel(name)
}

// RidgeDEUP names interactive DEUP on a Bayesian-ridge main predictor (it was
// called "deup" before that name was kept for the DEUP network of deup train).
const RidgeDEUP = "deup-ridge"

const legacyRidgeDEUP = "deup"

// unknownModel is the error for a model name NewSurrogateFor does not know;
// the old name "deup" says what it is called now.
func unknownModel(name string) error {
	if name == legacyRidgeDEUP {
		return fmt.Errorf("active: model %q is now called %q (DEUP on a Bayesian-ridge main predictor); the DEUP network is %q", name, RidgeDEUP, "deup-net")
	}
	return fmt.Errorf("active: unknown model %q (want %s)", name, strings.Join(Surrogates, ", "))
}

// Surrogates lists the model names NewSurrogateFor accepts.
var Surrogates = []string{"deup-net", RidgeDEUP, "bayes-ridge", "ensemble", "ensemble-net", "mcdropout-net", "twohead-net"}

// NewSurrogateFor returns the surrogate named in cfg.Model for cfg's drugs
// and features: any NewSurrogate name, "deup-net" (interactive DEUP whose
// main predictor is package model's two-tower network, NetConfig, seeded
// from cfg.Seed; needs SMILES and a feature spec with the identity part),
// or a NetMethod: "ensemble-net", "mcdropout-net", "twohead-net" (package
// model's methods on NetConfig networks; need SMILES).
func NewSurrogateFor(cfg Config, enc Encoder) (Surrogate, error) {
	switch cfg.Model {
	case "ensemble-net", "mcdropout-net", "twohead-net":
		f, _, err := features.Build(cfg.Drugs, features.Config{}, nil)
		if err != nil {
			return nil, fmt.Errorf("active: %s: %w", cfg.Model, err)
		}
		m := newNetMethod(cfg.Model, f)
		m.Lines = cfg.CellLines
		return m, nil
	case "deup-net":
	default:
		return NewSurrogate(cfg.Model, enc)
	}
	spec := cfg.Features
	if spec == "" {
		spec = DefaultFeatures
	}
	if spec != "identity" && spec != "identity+morgan" {
		return nil, fmt.Errorf("active: deup-net needs drug features identity or identity+morgan, not %q", spec)
	}
	n, err := NewNet(cfg.Drugs, NetConfig, cfg.Seed)
	if err != nil {
		return nil, err
	}
	n.Lines = cfg.CellLines
	return &netDEUP{InteractiveDEUP{Enc: enc, Main: n, Density: PairCountDensity{NDrugs: len(cfg.Drugs)}}}, nil
}

// netDEUP is DEUP named "deup-net".
type netDEUP struct{ InteractiveDEUP }

func (s *netDEUP) Name() string { return "deup-net" }

// DefaultFeatures is the drug feature spec of a campaign when none is given.
const DefaultFeatures = "identity+morgan"

// MorganComponents is the number of principal components of the Morgan
// fingerprints kept by the "morgan" feature spec.
const MorganComponents = 16

// NewEncoder builds the encoder of a campaign's drugs for a feature spec:
//
//	identity         one indicator per drug (an additive drug-effect model)
//	morgan           the first MorganComponents principal components of the
//	                 drugs' Morgan fingerprints (radius 3, 1024 bits, from
//	                 SMILES), each scaled to unit variance, both summed and
//	                 multiplied element-wise (pairwise structure)
//	identity+morgan  both (the default)
//
// A drug without SMILES, or whose SMILES does not parse, is an error for
// the morgan specs.
func NewEncoder(cfg Config) (Encoder, error) {
	spec := cfg.Features
	if spec == "" {
		spec = DefaultFeatures
	}
	enc := Encoder{CellLines: len(cfg.CellLines)}
	switch spec {
	case "identity":
		enc.Drug = IdentityFeatures(len(cfg.Drugs))
	case "morgan", "identity+morgan":
		pcs, err := MorganPCA(cfg.Drugs, MorganComponents)
		if err != nil {
			return Encoder{}, err
		}
		enc.Inter = pcs
		if spec == "morgan" {
			enc.Drug = pcs
		} else {
			id := IdentityFeatures(len(cfg.Drugs))
			for i := range id {
				id[i] = append(id[i], pcs[i]...)
			}
			enc.Drug = id
		}
	default:
		return Encoder{}, fmt.Errorf("active: unknown drug features %q (want identity, morgan or identity+morgan)", spec)
	}
	return enc, nil
}

// MorganPCA returns, per drug, the scores of the first k principal
// components of the drugs' Morgan fingerprints (radius 3, 1024 bits), each
// component scaled to unit sample variance. Components beyond the rank of
// the fingerprint matrix are 0.
func MorganPCA(drugs []drugcomb.Drug, k int) ([][]float64, error) {
	f, _, err := features.Build(drugs, features.Config{Radius: 3, NBits: 1024, Workers: 1}, nil)
	if err != nil {
		return nil, fmt.Errorf("active: morgan features: %w (use --features identity for drugs without structures)", err)
	}
	n, d := f.NumDrugs(), f.Config.Dim()
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		x.SetRow(i, f.Dense(i))
	}
	for j := 0; j < d; j++ {
		var m float64
		for i := 0; i < n; i++ {
			m += x.At(i, j)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			x.Set(i, j, x.At(i, j)-m)
		}
	}
	var svd mat.SVD
	if !svd.Factorize(x, mat.SVDThin) {
		return nil, fmt.Errorf("active: morgan features: SVD failed")
	}
	var u mat.Dense
	svd.UTo(&u)
	sv := svd.Values(nil)
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, k)
	}
	for c := 0; c < k && c < len(sv); c++ {
		if sv[c] <= 1e-9*sv[0] || n < 2 {
			continue
		}
		// The score u_ic * s_c has sample variance s_c^2/(n-1); scaled to 1.
		scale := math.Sqrt(float64(n - 1))
		// Fix the sign so the largest-magnitude entry is positive.
		big, sign := 0.0, 1.0
		for i := 0; i < n; i++ {
			if v := u.At(i, c); math.Abs(v) > big {
				big, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		for i := 0; i < n; i++ {
			out[i][c] = sign * u.At(i, c) * scale
		}
	}
	return out, nil
}

// CheckModel reports whether name is a model NewSurrogateFor accepts, with
// an error that lists them (or gives the new name of a renamed one).
func CheckModel(name string) error {
	if slices.Contains(Surrogates, name) {
		return nil
	}
	return unknownModel(name)
}
