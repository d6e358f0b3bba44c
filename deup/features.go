package deup

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// FeatureSet is a subset of the paper's stationarizing features
// phi_z(x) = (x, log q(x|z), log V(z, x), s) named "x", "d", "v", "b".
type FeatureSet uint8

const (
	FeatX FeatureSet = 1 << iota // the input x itself (all its coordinates)
	FeatD                        // log-density of x under the training inputs (KDE)
	FeatV                        // log model variance at x
	FeatB                        // seen bit: 1 if x is a training input, else 0
)

// ParseFeatures parses a subset written as in the paper's ablations ("xdvb",
// "v", "xv") or comma-separated ("x,v"). Order does not matter; repeats,
// unknown letters and the empty set are errors.
func ParseFeatures(s string) (FeatureSet, error) {
	var set FeatureSet
	for i, r := range s {
		var f FeatureSet
		switch r {
		case 'x':
			f = FeatX
		case 'd':
			f = FeatD
		case 'v':
			f = FeatV
		case 'b':
			f = FeatB
		case ',', ' ':
			continue
		default:
			return 0, fmt.Errorf("deup: features %q: unknown feature %q at position %d (want x, d, v, b)", s, r, i)
		}
		if set&f != 0 {
			return 0, fmt.Errorf("deup: features %q: %q repeated at position %d", s, r, i)
		}
		set |= f
	}
	if set == 0 {
		return 0, fmt.Errorf("deup: features %q: empty set", s)
	}
	return set, nil
}

// String writes the set in the paper's "xdvb" order.
func (s FeatureSet) String() string {
	var b strings.Builder
	for i, c := range "xdvb" {
		if s&(1<<i) != 0 {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// Featurizer fits the stationarizing features on a training set. The zero
// value is not usable: Set must be non-empty, and Variance must be set when
// Set contains FeatV.
type Featurizer struct {
	Set FeatureSet
	// Variance provides the model variance of the v feature. When nil, the
	// fitted main predictor is used if it implements VarianceModel (a GP's
	// posterior variance, an ensemble's spread), so one fit serves both.
	Variance VarianceLearner
	// Bandwidth selects the KDE bandwidth rule of the d feature; the zero
	// value is Scott's rule.
	Bandwidth Bandwidth
	// Density, when not nil, replaces the KDE of the d feature by a
	// density the caller knows fits its inputs better (for example, for
	// inputs that encode a pair of categorical items, the product of the
	// items' smoothed frequencies; package active's PairCountDensity).
	Density DensityLearner
	// VarFloor floors the variance before the log (0 means 1e-12), so a
	// variance of exactly 0 at a training point gives a finite feature.
	VarFloor float64
}

func (f *Featurizer) check() error {
	if f.Set == 0 {
		return errors.New("deup: featurizer has an empty feature set")
	}
	return nil
}

// Fit fits the features on the training set (x, y): the KDE for d, the
// variance model for v, the set of seen inputs for b. main is the main
// predictor fitted on the same set (may be nil); it serves as the variance
// model when Variance is nil.
func (f *Featurizer) Fit(x [][]float64, y []float64, main Predictor) (*FeatureMap, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	if len(x) == 0 {
		return nil, errors.New("deup: features on an empty training set")
	}
	m := &FeatureMap{set: f.Set, dim: len(x[0]), varFloor: f.VarFloor}
	if m.varFloor <= 0 {
		m.varFloor = 1e-12
	}
	if f.Set&FeatD != 0 {
		if f.Density != nil {
			d, err := f.Density.FitDensity(x)
			if err != nil {
				return nil, fmt.Errorf("deup: fit density feature: %w", err)
			}
			m.density = d
		} else {
			kde, err := FitKDE(x, f.Bandwidth)
			if err != nil {
				return nil, err
			}
			m.density = kde
		}
	}
	if f.Set&FeatV != 0 {
		if f.Variance == nil {
			v, ok := main.(VarianceModel)
			if !ok {
				return nil, errors.New("deup: feature v needs a variance learner or a main predictor with a Variance method")
			}
			m.variance = v
		} else {
			v, err := f.Variance.FitVariance(x, y)
			if err != nil {
				return nil, fmt.Errorf("deup: fit variance feature: %w", err)
			}
			m.variance = v
		}
	}
	if f.Set&FeatB != 0 {
		m.seen = make(map[string]struct{}, len(x))
		for _, xi := range x {
			m.seen[key(xi)] = struct{}{}
		}
	}
	return m, nil
}

// DensityModel is a fitted density: the log density at an input.
type DensityModel interface{ LogDensity(x []float64) float64 }

// DensityLearner fits the density of the d feature on the training inputs.
type DensityLearner interface {
	FitDensity(x [][]float64) (DensityModel, error)
}

// FeatureMap is phi_z for one training set z. It is safe for concurrent use
// if its variance model is.
type FeatureMap struct {
	set      FeatureSet
	dim      int
	varFloor float64
	density  DensityModel
	variance VarianceModel
	seen     map[string]struct{}
}

// Len is the length of the feature vector.
func (m *FeatureMap) Len() int {
	n := 0
	if m.set&FeatX != 0 {
		n += m.dim
	}
	for _, f := range []FeatureSet{FeatD, FeatV, FeatB} {
		if m.set&f != 0 {
			n++
		}
	}
	return n
}

// Features appends phi(x) to dst in the order x, d, v, b and returns it.
func (m *FeatureMap) Features(dst, x []float64) []float64 {
	if m.set&FeatX != 0 {
		dst = append(dst, x...)
	}
	if m.set&FeatD != 0 {
		dst = append(dst, m.density.LogDensity(x))
	}
	if m.set&FeatV != 0 {
		dst = append(dst, math.Log(math.Max(m.variance.Variance(x), m.varFloor)))
	}
	if m.set&FeatB != 0 {
		b := 0.0
		if _, ok := m.seen[key(x)]; ok {
			b = 1
		}
		dst = append(dst, b)
	}
	return dst
}

func key(x []float64) string {
	b := make([]byte, 0, 8*len(x))
	for _, v := range x {
		u := math.Float64bits(v)
		for i := 0; i < 8; i++ {
			b = append(b, byte(u>>(8*i)))
		}
	}
	return string(b)
}
