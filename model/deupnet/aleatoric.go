package deupnet

import (
	"fmt"
	"math"

	"github.com/deup-screening/deup/model"
	"gonum.org/v1/gonum/mathext"
)

// aleatoric is DEUP's estimate a(x) of the noise variance of one
// measurement of a pair, in standardized units, pooled from the replicate
// variances with empirical-Bayes shrinkage (Smyth 2004, "Linear models and
// empirical Bayes methods for assessing differential expression in
// microarray experiments", Stat. Appl. Genet. Mol. Biol. 3(1), art. 3:
// the moderated variances of limma), at two levels: the screen and each
// drug.
//
// A replicated pair i (n_i ≥ 2 measurements) gives a sample variance s_i²
// (n−1 denominator) with d_i = n_i − 1 degrees of freedom. Each drug g
// pools the pairs it is in:
//
//	d_g = Σ_{i∋g} d_i,   s_g² = Σ_{i∋g} d_i s_i² / d_g.
//
// The drugs' true variances are given a scaled-inverse-χ² prior,
// σ_g² ~ s0²·d0/χ²_{d0}, whose d0 and s0² are estimated from the s_g² by
// Smyth's method of moments on the log scale (§6.2 of the paper): with
// e_g = log s_g² − ψ(d_g/2) + log(d_g/2) (ψ the digamma function),
//
//	ψ′(d0/2) = var(e_g) − mean ψ′(d_g/2),   log s0² = mean e_g + ψ(d0/2) − log(d0/2),
//
// d0 = ∞ (every drug at s0² = exp(mean e_g)) when the right side is ≤ 0 or
// fewer than three drugs have replicates. The posterior-mean-like
// moderated variance of drug g is then
//
//	s̃_g² = (d0·s0² + d_g·s_g²) / (d0 + d_g),
//
// which is s0² for a drug without replicates and moves to s_g² as its
// degrees of freedom grow: there is no threshold on the replicated pairs.
// A screen with a handful of replicated pairs gets s0² with few degrees of
// freedom (wide, but an estimate), one with thousands a sharp per-drug
// estimate. With a single drug-level group (fewer than three drugs), s0²
// is the pooled Σ d_i s_i² / Σ d_i (the maximum-likelihood common
// variance). A pair's variance is the mean of its two drugs':
//
//	a(a, b) = (s̃_a² + s̃_b²) / 2.
//
// Drugs are identified by their Morgan bits (as the σ features do), so a
// loaded model finds them in any feature matrix.
//
// A screen of several cell lines (Dataset.Lines() > 1) has one more level,
// drug within line, line within screen, with the same estimator at each:
// each line l pools its replicated pairs, s_l² = Σ_{i∈l} d_i s_i² / d_l;
// the lines' variances are squeezed towards the screen's, (s0², d0_line)
// by squeezeVar over the lines (the pooled variance and d0 = ∞ with fewer
// than three lines with replicates), s̃_l² = (d0_line s0² + d_l s_l²) /
// (d0_line + d_l), s0² for a line without replicates; the variance of drug
// g in line l pools the pairs of g in l, and is squeezed towards its
// line's: s̃_gl² = (d0 s̃_l² + d_gl s_gl²)/(d0 + d_gl), with d0 the prior df
// of squeezeVar on the ratios s_gl²/s̃_l² over every (drug, line) with
// replicates (the ratios' own location is not used: a drug's prior centre
// is its line's variance). A drug without replicates in its line gets
// s̃_l², a line the model never saw s0². A pair's variance is the mean of
// its two drugs' in the pair's line. A one-line screen is exactly the
// two-level estimator above.
//
// Files written before this estimator hold a ridge regressor of the
// replicate variance on the network's last combined-layer activations
// (W, C); they load and predict as before (variance).
type aleatoric struct {
	// Legacy ridge regressor a(x) = max(0, wᵀh(x) + c) (files before the
	// pooled estimator); empty in new files.
	W []float64 `json:"w,omitempty"`
	C float64   `json:"c,omitempty"`

	Pairs int `json:"pairs"` // replicated pairs it was fitted on
	// RepN is the mean replicate count of the training targets: a target
	// is a mean of RepN measurements, so its noise variance is a(x)/RepN.
	RepN float64 `json:"rep_n"`

	// Pooled estimator (standardized units).
	DF      float64   `json:"df,omitempty"`       // Σ d_i
	S0      float64   `json:"s0,omitempty"`       // prior variance s0²
	PriorDF float64   `json:"prior_df,omitempty"` // d0; 0 means ∞
	NBits   int       `json:"nbits,omitempty"`    // Morgan bits identifying a drug
	Drugs   [][]int32 `json:"drugs,omitempty"`    // drugs with replicates: on-bits, ascending
	DrugVar []float64 `json:"drug_var,omitempty"` // their moderated variances s̃_g²

	// Several cell lines (see above): Drugs[k] is the drug in line
	// DrugLine[k]; LineVar the lines' moderated variances s̃_l²;
	// LinePriorDF d0_line (0 means ∞). Empty for one line.
	DrugLine    []int     `json:"drug_line,omitempty"`
	LineVar     []float64 `json:"line_var,omitempty"`
	LinePriorDF float64   `json:"line_prior_df,omitempty"`

	// The excess link of DEUP's split (excess.go), e = a/RepN + u with
	// u = τ softplus((c s − a/RepN)/τ); 0, 0 (files before it): the
	// split σ_aleatoric² = min(a/RepN, e).
	LinkC   float64 `json:"link_c,omitempty"`
	LinkTau float64 `json:"link_tau,omitempty"`
	// LinkLambda scales a(x) (excess.go); 0 in files before it: 1.
	LinkLambda float64 `json:"link_lambda,omitempty"`
}

// lambda is the noise scale of the excess link (1 when unset).
func (a *aleatoric) lambda() float64 {
	if a.LinkLambda > 0 {
		return a.LinkLambda
	}
	return 1
}

// linked reports an excess link.
func (a *aleatoric) linked() bool { return a.LinkC > 0 && a.LinkTau > 0 }

// fitAleatoric estimates the pooled aleatoric variance from the
// replicated pairs of idx (targets standardized by sd). It returns nil
// when no pair of idx has replicates: then there is no information on the
// noise.
func fitAleatoric(d *model.Dataset, idx []int, sd float64) *aleatoric {
	if d.N == nil || d.Var == nil {
		return nil
	}
	nbits := d.Features.Config.NBits
	keyOf := map[int]int{}
	at := map[string]int{}
	var bits [][]int32
	drug := func(i int) int {
		if k, ok := keyOf[i]; ok {
			return k
		}
		b := onBits(d.Features, i, nbits)
		key := bitKey(b)
		k, ok := at[key]
		if !ok {
			k = len(bits)
			at[key] = k
			bits = append(bits, b)
		}
		keyOf[i] = k
		return k
	}
	lines := d.Lines()
	type dl struct{ g, l int }
	cell := map[dl]int{} // (drug key, line) -> index in df, ss
	var cells []dl
	var df, ss []float64 // per (drug, line): Σ d_i and Σ d_i s_i²
	ldf, lss := make([]float64, lines), make([]float64, lines)
	repN, totDF, totSS := 0.0, 0.0, 0.0
	pairs := 0
	for _, i := range idx {
		repN += float64(d.N[i])
		if d.N[i] < 2 || math.IsNaN(d.Var[i]) || math.IsInf(d.Var[i], 0) {
			continue
		}
		pairs++
		di, vi := float64(d.N[i]-1), d.Var[i]/(sd*sd)
		totDF += di
		totSS += di * vi
		p := d.Pairs[i]
		l := 0
		if lines > 1 {
			l = p.Line
		}
		ldf[l] += di
		lss[l] += di * vi
		for _, g := range uniq([2]int{drug(p.A), drug(p.B)}) {
			k, ok := cell[dl{g, l}]
			if !ok {
				k = len(cells)
				cell[dl{g, l}] = k
				cells = append(cells, dl{g, l})
				df, ss = append(df, 0), append(ss, 0)
			}
			df[k] += di
			ss[k] += di * vi
		}
	}
	if pairs == 0 {
		return nil
	}
	a := &aleatoric{Pairs: pairs, RepN: repN / float64(len(idx)), DF: totDF, NBits: nbits}
	pooled := totSS / totDF
	if lines == 1 {
		sg := make([]float64, len(cells))
		for k := range cells {
			sg[k] = ss[k] / df[k]
		}
		a.S0, a.PriorDF = squeezeVar(sg, df, pooled)
		for k, c := range cells {
			a.Drugs = append(a.Drugs, bits[c.g])
			a.DrugVar = append(a.DrugVar, moderated(a.S0, a.PriorDF, sg[k], df[k]))
		}
		return a
	}
	var sl, dfl []float64
	for l := range lines {
		if ldf[l] > 0 {
			sl, dfl = append(sl, lss[l]/ldf[l]), append(dfl, ldf[l])
		}
	}
	a.S0, a.LinePriorDF = squeezeVar(sl, dfl, pooled)
	a.LineVar = make([]float64, lines)
	for l := range lines {
		a.LineVar[l] = a.S0
		if ldf[l] > 0 {
			a.LineVar[l] = moderated(a.S0, a.LinePriorDF, lss[l]/ldf[l], ldf[l])
		}
	}
	ratio := make([]float64, len(cells))
	for k, c := range cells {
		ratio[k] = ss[k] / df[k] / a.LineVar[c.l]
	}
	_, a.PriorDF = squeezeVar(ratio, df, 1)
	for k, c := range cells {
		a.Drugs = append(a.Drugs, bits[c.g])
		a.DrugLine = append(a.DrugLine, c.l)
		a.DrugVar = append(a.DrugVar, moderated(a.LineVar[c.l], a.PriorDF, ss[k]/df[k], df[k]))
	}
	return a
}

// moderated is (d0·s0² + d·s²)/(d0 + d); d0 = 0 stands for ∞ (s0²).
func moderated(s0, d0, s, d float64) float64 {
	if d0 == 0 {
		return s0
	}
	return (d0*s0 + d*s) / (d0 + d)
}

// squeezeVar estimates the prior (s0², d0) of sample variances s with
// degrees of freedom d by Smyth's (2004) method of moments (see
// aleatoric). d0 = 0 means ∞. With fewer than three variances, or a zero
// among them (the log is undefined), it returns (pooled, 0).
func squeezeVar(s, d []float64, pooled float64) (s0, d0 float64) {
	g := len(s)
	if g < 3 {
		return pooled, 0
	}
	e := make([]float64, g)
	mean, meanTri := 0.0, 0.0
	for k := range s {
		if !(s[k] > 0) {
			return pooled, 0
		}
		e[k] = math.Log(s[k]) - mathext.Digamma(d[k]/2) + math.Log(d[k]/2)
		mean += e[k]
		meanTri += trigamma(d[k] / 2)
	}
	mean /= float64(g)
	meanTri /= float64(g)
	v := 0.0
	for _, x := range e {
		v += (x - mean) * (x - mean)
	}
	v = v/float64(g-1) - meanTri
	if !(v > 0) {
		return math.Exp(mean), 0
	}
	h := trigammaInverse(v)
	d0 = 2 * h
	return math.Exp(mean + mathext.Digamma(h) - math.Log(h)), d0
}

// trigamma is ψ′(x) for x > 0: the recurrence ψ′(x) = ψ′(x+1) + 1/x² up
// to x ≥ 6, then the asymptotic series 1/x + 1/(2x²) + 1/(6x³) − 1/(30x⁵)
// + 1/(42x⁷) − 1/(30x⁹) (Abramowitz & Stegun 6.4.12), accurate to ~1e-10
// there.
func trigamma(x float64) float64 {
	r := 0.0
	for x < 6 {
		r += 1 / (x * x)
		x++
	}
	x2 := 1 / (x * x)
	return r + 1/x + x2/2 + x2/x*(1.0/6-x2*(1.0/30-x2*(1.0/42-x2/30)))
}

// trigammaInverse solves ψ′(y) = v (v > 0) for y by bisection on log y
// (ψ′ is decreasing from ∞ at 0 to 0 at ∞; limma's trigammaInverse
// solves the same equation by Newton's method).
func trigammaInverse(v float64) float64 {
	lo, hi := math.Log(1e-8), math.Log(1e8)
	for range 200 {
		mid := (lo + hi) / 2
		if trigamma(math.Exp(mid)) > v {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2)
}

// aleaCtx looks up the moderated variances of the drugs of one feature
// matrix.
type aleaCtx struct {
	a   *aleatoric
	at  map[string]int // drug bits and line -> index in Drugs
	got map[[2]int]float64
}

func (a *aleatoric) context() *aleaCtx {
	c := &aleaCtx{a: a, at: map[string]int{}, got: map[[2]int]float64{}}
	for k, b := range a.Drugs {
		l := 0
		if k < len(a.DrugLine) {
			l = a.DrugLine[k]
		}
		c.at[lineKey(bitKey(b), l)] = k
	}
	return c
}

func lineKey(bits string, line int) string { return fmt.Sprintf("%d/%s", line, bits) }

// drug is s̃² of drug i of f in line l: its moderated variance if it had
// replicates there, else its line's (one line: s0²).
func (c *aleaCtx) drug(f *model.Features, i, l int) float64 {
	if len(c.a.LineVar) == 0 {
		l = 0
	}
	if v, ok := c.got[[2]int{i, l}]; ok {
		return v
	}
	v := c.a.S0
	if l < len(c.a.LineVar) {
		v = c.a.LineVar[l]
	}
	if k, ok := c.at[lineKey(bitKey(onBits(f, i, c.a.NBits)), l)]; ok {
		v = c.a.DrugVar[k]
	}
	c.got[[2]int{i, l}] = v
	return v
}

// pair is a(a, b) = (s̃_a² + s̃_b²)/2 in line l (pooled estimator only).
func (c *aleaCtx) pair(f *model.Features, a, b, l int) float64 {
	return (c.drug(f, a, l) + c.drug(f, b, l)) / 2
}

// legacy reports a file's ridge regressor (written before the pooled
// estimator).
func (a *aleatoric) legacy() bool { return len(a.W) > 0 }

// variance returns the legacy regressor's a(x) (one measurement,
// standardized units) for activations hid (h values).
func (a *aleatoric) variance(hid []float64) float64 {
	v := a.C
	for j, w := range a.W {
		v += w * hid[j]
	}
	return max(v, 0)
}

// check validates an estimate read from a model file (width h of the
// legacy regressor's activations).
func (a *aleatoric) check(h int) error {
	if !(a.RepN >= 1) || math.IsInf(a.RepN, 0) {
		return fmt.Errorf("aleatoric: mean replicate count %v", a.RepN)
	}
	if a.legacy() {
		if len(a.W) != h {
			return fmt.Errorf("aleatoric regressor of %d weights, network width %d", len(a.W), h)
		}
		return nil
	}
	if !(a.LinkC >= 0) || math.IsInf(a.LinkC, 0) || !(a.LinkTau >= 0) || math.IsInf(a.LinkTau, 0) || !(a.LinkLambda >= 0) || math.IsInf(a.LinkLambda, 0) {
		return fmt.Errorf("aleatoric: excess link c %v, tau %v, lambda %v", a.LinkC, a.LinkTau, a.LinkLambda)
	}
	if !(a.S0 >= 0) || math.IsInf(a.S0, 0) || !(a.PriorDF >= 0) || math.IsInf(a.PriorDF, 0) || len(a.Drugs) != len(a.DrugVar) || a.NBits < 1 || a.NBits > model.MaxFeatures {
		return fmt.Errorf("aleatoric: s0² %v, prior df %v, %d drugs with %d variances, %d bits", a.S0, a.PriorDF, len(a.Drugs), len(a.DrugVar), a.NBits)
	}
	if len(a.DrugLine) != 0 && len(a.DrugLine) != len(a.Drugs) || !(a.LinePriorDF >= 0) || math.IsInf(a.LinePriorDF, 0) {
		return fmt.Errorf("aleatoric: %d drug lines for %d drugs, line prior df %v", len(a.DrugLine), len(a.Drugs), a.LinePriorDF)
	}
	for l, v := range a.LineVar {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("aleatoric: line %d variance %v", l, v)
		}
	}
	for k, l := range a.DrugLine {
		if l < 0 || l >= len(a.LineVar) {
			return fmt.Errorf("aleatoric: drug %d in line %d of %d", k, l, len(a.LineVar))
		}
	}
	for k, v := range a.DrugVar {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("aleatoric: drug %d variance %v", k, v)
		}
		for j, c := range a.Drugs[k] {
			if c < 0 || int(c) >= a.NBits || (j > 0 && c <= a.Drugs[k][j-1]) {
				return fmt.Errorf("aleatoric: drug %d: bit %d out of order or range", k, c)
			}
		}
	}
	return nil
}
