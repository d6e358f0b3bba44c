package surrogate

import (
	"fmt"
	"math"

	"github.com/deup-screening/deup/deup"
)

// PairCountDensity is the d feature (the paper's density q(x | z) of the
// measured inputs) of interactive DEUP on identity-encoded pairs: x starts
// with one indicator per drug (Encoder with an identity part, so the
// first NDrugs coordinates of x are onehot(a) + onehot(b)), and a pair of
// two categorical drugs gets the product of its drugs' Laplace-smoothed
// frequencies among the measured pairs,
//
//	log q(a, b) = log p(a) + log p(b),   p(g) = (n_g + 1) / (2N + G),
//
// n_g the number of measured pairs with drug g (a pair of a drug with
// itself counts twice), N the measured pairs, G = NDrugs. It is the
// density of the pair under independent drugs, so it falls with how
// rarely each drug was measured, and a drug never measured gets the
// smallest value. The KDE default of package deup smooths over the whole
// x (identity and fingerprint coordinates, dozens of dimensions), where a
// pair of two unmeasured drugs is not far from one of two well-measured
// ones: measured on a PC-3 campaign's first round (144 initial pairs,
// seeds 1–2), its Spearman correlation with the smaller drug count of the
// candidate pairs was 0.30–0.36.
type PairCountDensity struct{ NDrugs int }

// FitDensity implements deup.DensityLearner.
func (p PairCountDensity) FitDensity(x [][]float64) (deup.DensityModel, error) {
	if p.NDrugs < 1 {
		return nil, fmt.Errorf("active: pair density: %d drugs", p.NDrugs)
	}
	n := make([]float64, p.NDrugs)
	for i, xi := range x {
		if len(xi) < p.NDrugs {
			return nil, fmt.Errorf("active: pair density: input %d has %d coordinates, want at least %d", i, len(xi), p.NDrugs)
		}
		for g := 0; g < p.NDrugs; g++ {
			n[g] += xi[g]
		}
	}
	c := &pairCounts{logP: make([]float64, p.NDrugs)}
	tot := 2*float64(len(x)) + float64(p.NDrugs)
	for g := range n {
		c.logP[g] = math.Log((n[g] + 1) / tot)
	}
	return c, nil
}

type pairCounts struct{ logP []float64 }

// LogDensity is Σ_g x_g log p(g) over the identity part: log p(a) + log
// p(b) (2 log p(a) for a drug with itself).
func (c *pairCounts) LogDensity(x []float64) float64 {
	s := 0.0
	for g, lp := range c.logP {
		if g < len(x) && x[g] != 0 {
			s += x[g] * lp
		}
	}
	return s
}
