package surrogate

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/deup-screening/deup/active"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"gonum.org/v1/gonum/mat"
)

// New returns the surrogate named name: "deup-ridge" (interactive DEUP
// on a Bayesian-ridge main predictor), "bayes-ridge" or "ensemble". The
// "deup-net" surrogate (interactive DEUP on package model's network) needs
// the drugs: use NewFor.
func New(name string, enc Encoder) (active.Surrogate, error) {
	switch name {
	case "deup-net", "ensemble-net", "mcdropout-net", "twohead-net":
		return nil, fmt.Errorf("active: %s needs the campaign's drugs (NewFor)", name)
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

// LegacyRidgeDEUP is RidgeDEUP's old name: refused with an error that
// gives the new one.
const LegacyRidgeDEUP = "deup"

// unknownModel is the error for a model name NewFor does not know;
// the old name "deup" says what it is called now.
func unknownModel(name string) error {
	if name == LegacyRidgeDEUP {
		return fmt.Errorf("active: model %q is now called %q (DEUP on a Bayesian-ridge main predictor); the DEUP network is %q", name, RidgeDEUP, "deup-net")
	}
	return fmt.Errorf("active: unknown model %q (want %s)", name, strings.Join(Names, ", "))
}

// Names lists the model names NewFor accepts.
var Names = []string{"deup-net", RidgeDEUP, "bayes-ridge", "ensemble", "ensemble-net", "mcdropout-net", "twohead-net"}

// NewFor returns the surrogate named in cfg.Model for cfg's drugs
// and features: any New name, "deup-net" (interactive DEUP whose
// main predictor is package model's two-tower network, NetConfig, seeded
// from cfg.Seed; needs SMILES and a feature spec with the identity part),
// or a NetMethod: "ensemble-net", "mcdropout-net", "twohead-net" (package
// model's methods on NetConfig networks; need SMILES).
func NewFor(cfg active.Config, enc Encoder) (active.Surrogate, error) {
	switch cfg.Model {
	case "ensemble-net", "mcdropout-net", "twohead-net":
		f, _, err := features.Build(cfg.Drugs, features.Config{}, nil)
		if err != nil {
			return nil, fmt.Errorf("active: %s: %w", cfg.Model, err)
		}
		m := newNetMethod(cfg.Model, f)
		m.Lines, m.LineFeatures, m.Enc = cfg.CellLines, cfg.LineFeatures, enc
		return m, nil
	case "deup-net":
	default:
		return New(cfg.Model, enc)
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
	n.Lines, n.LineFeatures = cfg.CellLines, cfg.LineFeatures
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
func NewEncoder(cfg active.Config) (Encoder, error) {
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

// StructureError is MorganPCA's error when the drugs' Morgan fingerprints
// cannot be computed (a drug without SMILES, or whose SMILES does not
// parse): the morgan feature specs need structures, the identity spec
// does not.
type StructureError struct{ Err error }

func (e *StructureError) Error() string { return "active: morgan features: " + e.Err.Error() }

func (e *StructureError) Unwrap() error { return e.Err }

// MorganPCA returns, per drug, the scores of the first k principal
// components of the drugs' Morgan fingerprints (radius 3, 1024 bits), each
// component scaled to unit sample variance. Components beyond the rank of
// the fingerprint matrix are 0. A drug without a structure is a
// *StructureError.
func MorganPCA(drugs []drugcomb.Drug, k int) ([][]float64, error) {
	f, _, err := features.Build(drugs, features.Config{Radius: 3, NBits: 1024, Workers: 1}, nil)
	if err != nil {
		return nil, &StructureError{Err: err}
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

// CheckName reports whether name is a model NewFor accepts, with
// an error that lists them (or gives the new name of a renamed one).
func CheckName(name string) error {
	if slices.Contains(Names, name) {
		return nil
	}
	return unknownModel(name)
}

// ForCampaign returns the surrogate of a campaign with cfg (NewFor on
// its encoder).
func ForCampaign(cfg active.Config) (active.Surrogate, error) {
	enc, err := NewEncoder(cfg)
	if err != nil {
		return nil, err
	}
	return NewFor(cfg, enc)
}
