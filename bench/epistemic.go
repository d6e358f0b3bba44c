package bench

import (
	"math"

	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/uq"
)

// EpiSummary describes one row's σ_epistemic on one seed's split
// (issue 29): does it grow where the model knows less?
//
//   - Unseen[k] is the mean σ_epistemic over the test pairs with k drugs
//     (0, 1 or 2) that are in no training pair of the split, N[k] how
//     many pairs that is. A split by drug has no test pair with k = 0:
//     Unseen[0] is then taken over the validation pairs whose two drugs
//     are in training pairs (predicted exactly as test pairs; for DEUP
//     they are the D_out pairs its σ path learned from), and FromVal says
//     so. NaN where there is no pair.
//   - ZeroFraction is the share of the test pairs with σ_epistemic = 0
//     (at most the sigma floor); SmallFraction the share with σ_epistemic
//     below a tenth of σ_total (σ_epistemic² < 1 % of σ_total²): a split
//     whose u is positive but negligible shows there, not in ZeroFraction.
//   - ExcessSpearman, only with a truth (NaN otherwise), is the Spearman
//     correlation over the test pairs of σ_epistemic with the realized
//     excess error |y − μ| − a(x), a(x) the true noise sd of the pair.
type EpiSummary struct {
	Unseen         [3]float64
	N              [3]int
	FromVal        bool
	ZeroFraction   float64
	SmallFraction  float64
	ExcessSpearman float64
}

// unseenCount is how many of the two drugs of p are not in seen (one for
// a pair of a drug with itself that is not).
func unseenCount(p model.PairRef, seen map[int]bool) int {
	n := 0
	if !seen[p.A] {
		n++
	}
	if p.B != p.A && !seen[p.B] {
		n++
	}
	return n
}

// summarizeEpistemic computes the EpiSummary of the predictions test (of
// the pairs testPairs, with targets y and, when truth is not nil, true
// noise sd noiseSD) and val (of valPairs, used only when no test pair has
// both drugs seen; may be nil). seen holds the drugs of the training
// pairs; floor is the sigma floor.
func summarizeEpistemic(test []model.Prediction, testPairs []model.PairRef, y, noiseSD []float64, val []model.Prediction, valPairs []model.PairRef, seen map[int]bool, floor float64) EpiSummary {
	var s EpiSummary
	var sum [3]float64
	zeros, small := 0, 0
	for k, p := range test {
		u := unseenCount(testPairs[k], seen)
		sum[u] += p.SigmaEpistemic
		s.N[u]++
		if p.SigmaEpistemic <= floor {
			zeros++
		}
		if p.SigmaEpistemic < 0.1*p.SigmaTotal || p.SigmaEpistemic <= floor {
			small++
		}
	}
	if s.N[0] == 0 && len(val) > 0 {
		for k, p := range val {
			if unseenCount(valPairs[k], seen) == 0 {
				sum[0] += p.SigmaEpistemic
				s.N[0]++
			}
		}
		s.FromVal = s.N[0] > 0
	}
	for u := range sum {
		s.Unseen[u] = math.NaN()
		if s.N[u] > 0 {
			s.Unseen[u] = sum[u] / float64(s.N[u])
		}
	}
	s.ZeroFraction, s.SmallFraction = math.NaN(), math.NaN()
	if len(test) > 0 {
		s.ZeroFraction = float64(zeros) / float64(len(test))
		s.SmallFraction = float64(small) / float64(len(test))
	}
	s.ExcessSpearman = math.NaN()
	if noiseSD != nil {
		epi, exc := make([]float64, len(test)), make([]float64, len(test))
		for k, p := range test {
			epi[k] = p.SigmaEpistemic
			exc[k] = math.Abs(y[k]-p.Mu) - noiseSD[k]
		}
		s.ExcessSpearman = uq.Spearman(epi, exc)
	}
	return s
}

// EpiNames are the keys of results.json's methods.NAME.sigma_epistemic.
func EpiNames() []string {
	return []string{"unseen0", "unseen1", "unseen2", "zero_fraction", "small_fraction"}
}

// epiMetric is the per-seed values of one EpiNames key, or of
// "excess_spearman".
func (r *Row) epiMetric(name string) []float64 {
	out := make([]float64, len(r.Epi))
	for i, e := range r.Epi {
		switch name {
		case "unseen0":
			out[i] = e.Unseen[0]
		case "unseen1":
			out[i] = e.Unseen[1]
		case "unseen2":
			out[i] = e.Unseen[2]
		case "zero_fraction":
			out[i] = e.ZeroFraction
		case "small_fraction":
			out[i] = e.SmallFraction
		case "excess_spearman":
			out[i] = e.ExcessSpearman
		}
	}
	return out
}

// finite is the values of x that are not NaN (seeds whose split has no
// pair of a group are left out of its mean and sd).
func finite(x []float64) []float64 {
	var f []float64
	for _, v := range x {
		if !math.IsNaN(v) {
			f = append(f, v)
		}
	}
	return f
}
