package active

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/uq"
)

// Kind names an acquisition function.
type Kind int

// The acquisition functions. All of them score a candidate so that larger is
// better; a batch is the B best-scored candidates (see SelectBatch).
const (
	UCB      Kind = iota // mu + Kappa*sigma_epistemic
	EI                   // expected improvement over the best measured score
	Thompson             // one draw from N(mu, sigma_epistemic^2) per candidate
	Greedy               // mu (pure exploitation)
	Explore              // sigma_epistemic (pure exploration)
	Random               // uniform draw (the baseline)
	// The joint-batch kinds (joint.go): UCB, EI and Thompson on the
	// campaign's calibrated sigma_epistemic, the batch chosen one pick at a
	// time with a kriging believer between picks (SelectJoint).
	BUCB      // mu + z*f*sigma_epistemic, z = Phi^-1((1+CalibrationCoverage)/2), f the calibration
	BEI       // expected improvement on f*sigma_epistemic
	BThompson // one draw from N(mu, (f*sigma_epistemic)^2) per candidate
	// The two halves of BUCB, for its ablation (docs/campaigns.md): CUCB
	// ranks by BUCB's calibrated score and takes the top of that one
	// ranking (no believer); JUCB chooses its batch jointly as BUCB does
	// but reads sigma_epistemic as the surrogate gives it (f = 1).
	CUCB // mu + z*f*sigma_epistemic, the batch the top of one ranking
	JUCB // mu + z*sigma_epistemic, the batch chosen jointly (SelectJoint), uncalibrated
)

var kindNames = [...]string{UCB: "ucb", EI: "ei", Thompson: "thompson", Greedy: "greedy", Explore: "explore", Random: "random",
	BUCB: "bucb", BEI: "bei", BThompson: "bthompson", CUCB: "cucb", JUCB: "jucb"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Acquisition is an acquisition function with its parameters. The zero value
// is UCB with Kappa 0 (which ranks like Greedy); use ParseAcquisition or set
// Kappa explicitly.
type Acquisition struct {
	Kind  Kind
	Kappa float64 // UCB exploration weight (DefaultKappa when parsed from "ucb")
	Xi    float64 // EI margin: improvement counts above Best+Xi (0 when parsed)
	// ExploreWeight w in [0, 1] (deup suggest/campaign --explore) blends
	// the acquisition's ranking with sigma_epistemic's: each candidate's
	// score becomes (1-w)*r(score) + w*r(sigma_epistemic), r the mid-rank
	// among the candidates scaled to [0, 1] (best 1). 0 (the default)
	// leaves the scores untouched; 1 ranks like Explore. Random and Explore
	// ignore it. Not part of String: a campaign stores it in
	// Config.Explore.
	ExploreWeight float64
	// Scale is the calibration factor f of the calibrated kinds (BUCB,
	// BEI, BThompson, CUCB): they read f*sigma_epistemic. 0 means 1 (no
	// calibration); JUCB ignores it. A campaign sets it every round from
	// its measured suggestions (SigmaScale); not part of String.
	Scale float64
}

// CheckExplore validates an ExploreWeight: a finite number in [0, 1].
func CheckExplore(w float64) error {
	if !(w >= 0 && w <= 1) {
		return fmt.Errorf("active: explore weight %v: want a number in [0, 1] (0: off, 1: rank by sigma_epistemic alone)", w)
	}
	return nil
}

// explores reports whether the explore blend changes a's scores.
func (a Acquisition) explores() bool {
	return a.ExploreWeight > 0 && a.Kind != Random && a.Kind != Explore
}

// DefaultKappa is the UCB weight used when a name gives none.
const DefaultKappa = 2

// ParseAcquisition reads "ucb", "ucb:KAPPA", "ei", "ei:XI", "thompson",
// "greedy", "explore", "random", the joint-batch "bucb", "bei",
// "bthompson" (no parameter: their exploration follows from the
// calibration), or BUCB's two halves "cucb" and "jucb", case-insensitive.
func ParseAcquisition(s string) (Acquisition, error) {
	name, param, hasParam := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":")
	var a Acquisition
	switch name {
	case "ucb":
		a = Acquisition{Kind: UCB, Kappa: DefaultKappa}
	case "ei":
		a = Acquisition{Kind: EI}
	case "thompson":
		a = Acquisition{Kind: Thompson}
	case "greedy":
		a = Acquisition{Kind: Greedy}
	case "explore":
		a = Acquisition{Kind: Explore}
	case "random":
		a = Acquisition{Kind: Random}
	case "bucb":
		a = Acquisition{Kind: BUCB}
	case "bei":
		a = Acquisition{Kind: BEI}
	case "bthompson":
		a = Acquisition{Kind: BThompson}
	case "cucb":
		a = Acquisition{Kind: CUCB}
	case "jucb":
		a = Acquisition{Kind: JUCB}
	default:
		return Acquisition{}, fmt.Errorf("active: unknown acquisition %q (want ucb, ei, thompson, greedy, explore, random, bucb, bei, bthompson, cucb or jucb)", s)
	}
	if hasParam {
		v, err := strconv.ParseFloat(param, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return Acquisition{}, fmt.Errorf("active: acquisition %q: parameter %q is not a finite number >= 0", s, param)
		}
		switch a.Kind {
		case UCB:
			a.Kappa = v
		case EI:
			a.Xi = v
		default:
			return Acquisition{}, fmt.Errorf("active: acquisition %q takes no parameter", name)
		}
	}
	return a, nil
}

// String returns the name ParseAcquisition reads back.
func (a Acquisition) String() string {
	switch a.Kind {
	case UCB:
		return "ucb:" + strconv.FormatFloat(a.Kappa, 'g', -1, 64)
	case EI:
		if a.Xi != 0 {
			return "ei:" + strconv.FormatFloat(a.Xi, 'g', -1, 64)
		}
	}
	return a.Kind.String()
}

// NeedsRand reports whether Scores draws random numbers.
func (a Acquisition) NeedsRand() bool {
	return a.Kind == Thompson || a.Kind == Random || a.Kind == BThompson
}

// Scores writes the acquisition score of each prediction into dst (allocated
// when nil or too short) and returns it. best is the best score measured so
// far (used by EI only). rng is used by Thompson and Random and may be nil for
// the others. A prediction with a NaN mean or a NaN or negative
// SigmaEpistemic is an error: a candidate is never silently dropped.
func (a Acquisition) Scores(dst []float64, preds []SurrogatePrediction, best float64, rng *rand.Rand) ([]float64, error) {
	if cap(dst) < len(preds) {
		dst = make([]float64, len(preds))
	}
	dst = dst[:len(preds)]
	if a.NeedsRand() && rng == nil {
		return nil, fmt.Errorf("active: acquisition %s needs a random source", a)
	}
	if a.ExploreWeight != 0 {
		if err := CheckExplore(a.ExploreWeight); err != nil {
			return nil, err
		}
		if a.Joint() || a.Calibrated() {
			return nil, fmt.Errorf("active: acquisition %s reads the campaign's calibrated sigma or chooses its batch jointly, and takes no explore weight", a)
		}
	}
	if (a.Kind == EI || a.Kind == BEI) && math.IsNaN(best) {
		return nil, fmt.Errorf("active: expected improvement needs a best measured score, got NaN")
	}
	for i, p := range preds {
		if math.IsNaN(p.Mu) || math.IsNaN(p.SigmaEpistemic) || p.SigmaEpistemic < 0 {
			return nil, fmt.Errorf("active: candidate %d: invalid prediction mu=%v sigma_epistemic=%v", i, p.Mu, p.SigmaEpistemic)
		}
		s := p.SigmaEpistemic
		if a.Joint() {
			dst[i] = a.jointScore(p.Mu, a.scale()*s, best, drawFor(a, rng))
			continue
		}
		switch a.Kind {
		case UCB:
			dst[i] = p.Mu + a.Kappa*s
		case CUCB:
			dst[i] = p.Mu + jointZ()*a.scale()*s
		case EI:
			dst[i] = ExpectedImprovement(p.Mu, s, best+a.Xi)
		case Thompson:
			dst[i] = p.Mu + s*rng.NormFloat64()
		case Greedy:
			dst[i] = p.Mu
		case Explore:
			dst[i] = s
		case Random:
			dst[i] = rng.Float64()
		default:
			return nil, fmt.Errorf("active: unknown acquisition kind %d", int(a.Kind))
		}
	}
	if a.explores() {
		sig := make([]float64, len(preds))
		for i, p := range preds {
			sig[i] = p.SigmaEpistemic
		}
		rs, rsig := midRanks(dst), midRanks(sig)
		for i := range dst {
			dst[i] = (1-a.ExploreWeight)*rs[i] + a.ExploreWeight*rsig[i]
		}
	}
	return dst, nil
}

// midRanks returns each value's rank among v scaled to [0, 1]: the
// smallest 0, the largest 1, tied values the mean of their ranks
// (uq.Ranks); a single value 0.5.
func midRanks(v []float64) []float64 {
	n := len(v)
	if n == 1 {
		return []float64{0.5}
	}
	r := uq.Ranks(nil, v)
	for i := range r {
		r[i] = (r[i] - 1) / float64(n-1)
	}
	return r
}

// ExpectedImprovement is E[max(Y - target, 0)] for Y ~ N(mu, sigma^2):
//
//	d = mu - target, z = d/sigma
//	EI = d*Phi(z) + sigma*phi(z)        (sigma > 0)
//	EI = max(d, 0)                       (sigma = 0)
//
// with Phi and phi the standard normal CDF and density.
func ExpectedImprovement(mu, sigma, target float64) float64 {
	d := mu - target
	if sigma <= 0 {
		return math.Max(d, 0)
	}
	z := d / sigma
	cdf := 0.5 * math.Erfc(-z/math.Sqrt2)
	pdf := math.Exp(-0.5*z*z) / math.Sqrt(2*math.Pi)
	return d*cdf + sigma*pdf
}

// Reason explains in one line why a candidate got its score.
func (a Acquisition) Reason(p SurrogatePrediction, score float64, rank, pool int) string {
	var what string
	switch a.Kind {
	case UCB:
		what = fmt.Sprintf("ucb %.4g = mu %.4g + %g*sigma_epistemic %.4g", score, p.Mu, a.Kappa, p.SigmaEpistemic)
	case EI:
		what = fmt.Sprintf("expected improvement %.4g (mu %.4g, sigma_epistemic %.4g)", score, p.Mu, p.SigmaEpistemic)
	case Thompson:
		what = fmt.Sprintf("thompson draw %.4g from N(mu %.4g, sigma_epistemic %.4g)", score, p.Mu, p.SigmaEpistemic)
	case Greedy:
		what = fmt.Sprintf("greedy: predicted synergy mu %.4g", p.Mu)
	case Explore:
		what = fmt.Sprintf("explore: sigma_epistemic %.4g (mu %.4g)", p.SigmaEpistemic, p.Mu)
	case Random:
		what = "random baseline draw"
	case BUCB, BEI, BThompson, CUCB:
		what = fmt.Sprintf("%s %.4g (mu %.4g, sigma_epistemic %.4g, calibrated x%.4g)", a.Kind, score, p.Mu, p.SigmaEpistemic, a.scale())
	case JUCB:
		what = fmt.Sprintf("jucb %.4g = mu %.4g + %.4g*sigma_epistemic %.4g (uncalibrated)", score, p.Mu, jointZ(), p.SigmaEpistemic)
	}
	if a.explores() {
		what = fmt.Sprintf("explore %g: rank blend %.4g of %s and sigma_epistemic (sigma_epistemic %.4g, mu %.4g)", a.ExploreWeight, score, a, p.SigmaEpistemic, p.Mu)
	}
	return fmt.Sprintf("%s; ranked %d of %d candidates", what, rank, pool)
}

// SelectBatch returns the indices of up to b candidates with the largest
// scores, best first; ties go to the lower index. With maxPerDrug > 0 a
// candidate is skipped when either of its drugs already appears maxPerDrug
// times in the batch (a plate-diversity rule), so the batch may hold fewer
// than b candidates when the rule leaves too few. pairs and scores are
// parallel.
func SelectBatch(pairs []PairOnLine, scores []float64, b, maxPerDrug int) []int {
	return SelectBatchPerLine(pairs, scores, b, maxPerDrug, 0)
}

// SelectBatchPerLine is SelectBatch that also takes at most maxPerLine
// pairs of any one cell line (0: no cap), for a batch across the lines
// of a panel. A drug's cap counts its pairs on every line.
func SelectBatchPerLine(pairs []PairOnLine, scores []float64, b, maxPerDrug, maxPerLine int) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return scores[order[i]] > scores[order[j]] })
	var out []int
	count, lines := map[int]int{}, map[int]int{}
	for _, i := range order {
		if len(out) == b {
			break
		}
		p := pairs[i]
		if maxPerDrug > 0 && (count[p.A] >= maxPerDrug || count[p.B] >= maxPerDrug) {
			continue
		}
		if maxPerLine > 0 && lines[p.CellLine] >= maxPerLine {
			continue
		}
		lines[p.CellLine]++
		count[p.A]++
		if p.B != p.A {
			count[p.B]++
		}
		out = append(out, i)
	}
	return out
}
