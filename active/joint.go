package active

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/deup-screening/deup/uq"
	"gonum.org/v1/gonum/stat/distuv"
)

// CalibrationCoverage is the coverage of the central interval whose upper
// end BUCB ranks by: mu + z*f*sigma_epistemic with z = Phi^-1((1 +
// 0.9)/2) = 1.645 and f the campaign's calibration (SigmaScale). It is
// the coverage deup suggest --coverage defaults to, fixed before any
// campaign was run, not chosen from one.
const CalibrationCoverage = 0.9

// Joint reports whether a chooses its batch jointly (SelectJoint):
// BUCB, BEI, BThompson and JUCB.
func (a Acquisition) Joint() bool {
	return a.Kind == BUCB || a.Kind == BEI || a.Kind == BThompson || a.Kind == JUCB
}

// Calibrated reports whether a reads the campaign's calibrated
// sigma_epistemic (Scale, set from SigmaScale): BUCB, BEI, BThompson and
// CUCB.
func (a Acquisition) Calibrated() bool {
	return a.Kind == BUCB || a.Kind == BEI || a.Kind == BThompson || a.Kind == CUCB
}

func (a Acquisition) scale() float64 {
	if a.Scale > 0 && a.Kind != JUCB {
		return a.Scale
	}
	return 1
}

// jointZ is z = Phi^-1((1 + CalibrationCoverage)/2).
func jointZ() float64 { return distuv.UnitNormal.Quantile((1 + CalibrationCoverage) / 2) }

// drawFor returns the standard normal draw of the next candidate for
// BThompson (0 for the other kinds, which draw nothing).
func drawFor(a Acquisition, rng *rand.Rand) float64 {
	if a.Kind == BThompson {
		return rng.NormFloat64()
	}
	return 0
}

// jointScore is a joint kind's score of a candidate with mean mu and
// (calibrated, possibly shrunk) sigma_epistemic s; z is its Thompson draw.
func (a Acquisition) jointScore(mu, s, best, z float64) float64 {
	switch a.Kind {
	case BUCB, JUCB:
		return mu + jointZ()*s
	case BEI:
		return ExpectedImprovement(mu, s, best+a.Xi)
	default: // BThompson
		return mu + s*z
	}
}

// Calibration is a measured suggestion as SigmaScale reads it: the
// prediction of the model that chose it, and the score that came back.
type Calibration struct {
	Mu, SigmaTotal, Y float64
}

// SigmaScale returns the calibration factor of a campaign's sigmas:
//
//	q = ConformalQuantile(|y_i - mu_i| / sigma_total_i, 1 - coverage)
//	f = q / z,   z = Phi^-1((1 + coverage)/2)
//
// over the measured suggestions of past rounds, each predicted by a model
// that had not seen it (the campaign's own out-of-sample pairs), so that
// mu +- z*f*sigma_total is the split-conformal central interval at
// coverage. n is the number of suggestions used: those with a finite
// sigma_total > 0 (a zero or NaN sigma has no normalized residual). While
// n is below uq.MinCalibration(1 - coverage) (9 at 0.9), f is 1: the
// sigmas are read as the surrogate gives them. The pairs are chosen by the
// acquisition, not drawn at random, so exchangeability, and with it the
// finite-sample guarantee, does not hold; f is a scale read off the
// campaign's own errors, not a coverage certificate.
func SigmaScale(cal []Calibration, coverage float64) (f float64, n int) {
	var sc []float64
	for _, c := range cal {
		if c.SigmaTotal > 0 && !math.IsInf(c.SigmaTotal, 0) && !math.IsNaN(c.Mu) {
			sc = append(sc, math.Abs(c.Y-c.Mu)/c.SigmaTotal)
		}
	}
	alpha := 1 - coverage
	if len(sc) < uq.MinCalibration(alpha) {
		return 1, len(sc)
	}
	q := uq.ConformalQuantile(sc, alpha)
	z := distuv.UnitNormal.Quantile((1 + coverage) / 2)
	if !(q > 0) || math.IsInf(q, 0) {
		return 1, len(sc)
	}
	return q / z, len(sc)
}

// MedianSqDist is the median heuristic of a kernel's length-scale: the
// median of |x_i - x_j|^2 over pairs i != j of the rows of x, all of them
// when there are at most samples pairs, otherwise samples pairs drawn
// uniformly with rng. It returns 0 for fewer than two rows.
func MedianSqDist(x [][]float64, samples int, rng *rand.Rand) float64 {
	n := len(x)
	if n < 2 {
		return 0
	}
	var d []float64
	if all := n * (n - 1) / 2; all <= samples {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				d = append(d, sqDist(x[i], x[j]))
			}
		}
	} else {
		for len(d) < samples {
			i, j := rng.IntN(n), rng.IntN(n)
			if i != j {
				d = append(d, sqDist(x[i], x[j]))
			}
		}
	}
	slices.Sort(d)
	if len(d)%2 == 1 {
		return d[len(d)/2]
	}
	return (d[len(d)/2-1] + d[len(d)/2]) / 2
}

func sqDist(a, b []float64) float64 {
	var s float64
	for k := range a {
		v := a[k] - b[k]
		s += v * v
	}
	return s
}

// MedianSamples is the number of candidate pairs MedianSqDist reads in a
// campaign round.
const MedianSamples = 4096

// Joint is the result of SelectJoint.
type Joint struct {
	Pick   []int     // picked candidates, in pick order
	Scores []float64 // each candidate's score: at its pick for the picked ones, before any pick for the others
	// Sigma is each picked candidate's calibrated sigma_epistemic at its
	// pick (after the believer's shrinkage by the earlier picks), parallel
	// to Pick.
	Sigma []float64
}

// SelectJoint chooses a batch of up to b candidates one at a time (a
// kriging believer, Ginsbourger et al. 2010; with UCB it is GP-BUCB,
// Desautels et al. 2014). The candidates' sigma_epistemic is first
// scaled by a.Scale (the calibration); then each pick is the best score
// among the candidates the per-drug and per-line caps still allow (ties to
// the lower index), and after it every other candidate's sigma shrinks as
// a Gaussian process's posterior would after measuring the pick with its
// mean as the outcome (the believer's fantasy, so mu never changes):
//
//	k_j  = exp(-|x_j - x_p|^2 / (2 l2))
//	s_j^2 <- s_j^2 * (1 - k_j^2 * s_p^2 / (s_p^2 + a_p^2))
//
// with s the calibrated sigma_epistemic, a_p the pick's calibrated
// sigma_aleatoric (the replicate noise a measurement keeps: without it,
// 1 - k_j^2), x the candidates' feature vectors (the surrogate's inputs,
// Featurizer) and l2 the squared length-scale (MedianSqDist). The
// correlation k_j s_j s_p is the prior's, not updated by earlier picks:
// the closed-form step, not the exact GP posterior. Scores are then
// recomputed (BThompson keeps each candidate's standard normal draw, drawn
// in candidate order from rng, and rescales it). With b >= the pool and no
// caps every candidate is picked.
func SelectJoint(a Acquisition, pairs []PairOnLine, preds []SurrogatePrediction, x [][]float64, l2, best float64, rng *rand.Rand, b, maxPerDrug, maxPerLine int) (Joint, error) {
	n := len(preds)
	if !a.Joint() {
		return Joint{}, fmt.Errorf("active: acquisition %s does not choose its batch jointly", a)
	}
	if len(pairs) != n || len(x) != n {
		return Joint{}, fmt.Errorf("active: joint batch: %d pairs, %d predictions, %d feature rows", len(pairs), n, len(x))
	}
	if !(l2 > 0) || math.IsInf(l2, 0) {
		return Joint{}, fmt.Errorf("active: joint batch: squared length-scale %v, want a finite number > 0", l2)
	}
	scores, err := a.Scores(nil, preds, best, rng)
	if err != nil {
		return Joint{}, err
	}
	f := a.scale()
	sig := make([]float64, n)
	z := make([]float64, n)
	for i, p := range preds {
		sig[i] = f * p.SigmaEpistemic
		if a.Kind == BThompson && sig[i] > 0 {
			z[i] = (scores[i] - p.Mu) / sig[i]
		}
	}
	cur := slices.Clone(scores)
	out := Joint{Scores: scores}
	dead := make([]bool, n)
	count, lines := map[int]int{}, map[int]int{}
	for len(out.Pick) < b {
		bi := -1
		for i := 0; i < n; i++ {
			if dead[i] {
				continue
			}
			p := pairs[i]
			if (maxPerDrug > 0 && (count[p.A] >= maxPerDrug || count[p.B] >= maxPerDrug)) || (maxPerLine > 0 && lines[p.CellLine] >= maxPerLine) {
				dead[i] = true // caps only grow: never eligible again
				continue
			}
			if bi < 0 || cur[i] > cur[bi] {
				bi = i
			}
		}
		if bi < 0 {
			break
		}
		dead[bi] = true
		p := pairs[bi]
		lines[p.CellLine]++
		count[p.A]++
		if p.B != p.A {
			count[p.B]++
		}
		out.Pick = append(out.Pick, bi)
		out.Sigma = append(out.Sigma, sig[bi])
		scores[bi] = cur[bi]
		sp2 := sig[bi] * sig[bi]
		ap := f * preds[bi].SigmaAleatoric
		if math.IsNaN(ap) {
			ap = 0
		}
		if sp2 == 0 {
			continue // a pick the model is sure of teaches the believer nothing
		}
		gain := sp2 / (sp2 + ap*ap)
		xp := x[bi]
		for j := 0; j < n; j++ {
			if dead[j] || sig[j] == 0 {
				continue
			}
			k := math.Exp(-sqDist(x[j], xp) / (2 * l2))
			sig[j] *= math.Sqrt(math.Max(1-k*k*gain, 0))
			cur[j] = a.jointScore(preds[j].Mu, sig[j], best, z[j])
		}
	}
	return out, nil
}

// Featurizer is a Surrogate that gives the input vector its model reads
// for each pair: the space in which SelectJoint measures how alike two
// candidates are.
type Featurizer interface {
	PairFeatures(pairs []PairOnLine) [][]float64
}
