package deupnet

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/deup-screening/deup/chem"
	"github.com/deup-screening/deup/model"
)

// Stationarizing features of DEUP's σ path (the paper's §3.2).
//
// DEUP's error predictor should see, beside the input, where the input
// lies relative to the data the main predictor was trained on. Here the
// main predictor (the μ head) is trained on the in-sample split D_in, and
// the σ path learns on the out-of-sample split D_out; a pair's σ
// features are computed relative to D_in only:
//
//   - density: log of a kernel density of the pair among the D_in pairs,
//     with the Tanimoto similarity T of the drugs' Morgan bits and the
//     kernel K(a, c) = exp(−(1 − T(a, c))/h), h = SigmaBandwidth:
//
//     dens(a, b) = Σ_{(c,d) ∈ D_in} [K(a,c)·K(b,d) + K(a,d)·K(b,c)] / (2 |D_in|)
//
//     (symmetric in a, b; a pair whose two drugs have close analogues
//     measured together, or measured with close analogues of the other
//     drug, is dense). One column, log dens.
//   - counts: how many D_in pairs each drug is in (a drug is identified
//     by its Morgan bits, as the tower sees it); two columns, log1p of the
//     smaller and of the larger count of the pair (symmetric).
//   - spread: how variable each drug's D_in targets are, a standard
//     deviation shrunk towards the pooled one of all D_in targets with
//     spreadPrior pseudo-observations (see sigmaRef.spread); two columns,
//     log of the smaller and of the larger of the pair. Not the paper's
//     model variance (an ensemble's or MC-Dropout's spread of μ, which
//     DEUP's single network does not have at no cost), but the same kind
//     of signal without a second network: where the targets near a pair
//     vary most, μ errs most.
//   - lines (a panel: a dataset with several cell lines): how much of the
//     pair's cell line D_in holds and how well μ fits the line; two
//     columns, log1p of the line's number of D_in pairs and log of μ's
//     residual spread on them (the root mean square of y − μ, shrunk
//     towards the pooled one of all D_in pairs as spread is, the same κ).
//     The spread depends on μ, so it is a network-dependent feature
//     (sigmadyn.go). On one line both are constants.
//
// Training and prediction compute them the same way. A D_out pair and a
// pair never measured (at prediction) are not in D_in: their features
// are exactly those above. A D_in pair (the in-sample step, bit 0) would
// count itself, which no unseen pair can; its features leave it out
// (leave-one-out: its own term 1 + K(a,b)² dropped from the density
// sum, one subtracted from each count, its target removed from each
// spread), so that in- and out-of-sample
// features have the same meaning and the seen bit alone tells the two
// apart. At prediction every pair is scored as unseen: a D_in pair's own
// term is kept, it has been measured.
//
// Each column is standardized with the mean and standard deviation of
// the D_out pairs' values at Fit (sd 1 when constant); the model file
// stores D_in (the distinct Morgan bit sets of its drugs and its pairs as
// indices into them), h and the standardization, so a loaded model
// computes the same numbers for any feature matrix with the same
// FeatureConfig, whatever its drugs and their order.

// SigmaFeatures selects the stationarizing inputs of DEUP's σ path. The
// zero value is none: the σ path sees the pair embedding and the seen bit
// only, as before these features existed.
type SigmaFeatures struct {
	Density bool // log kernel density of the pair among the in-sample pairs (1 column)
	Counts  bool // log1p in-sample pair counts of the two drugs, smaller and larger (2 columns)
	Spread  bool // log in-sample target spread of the two drugs, smaller and larger (2 columns)
	// The features below depend on the trained network (sigmadyn.go):
	// recomputed after every training epoch, stored at the end.
	Lines    bool // log1p in-sample pairs of the pair's cell line and log μ's shrunken residual spread on them (2 columns)
	Variance bool // log neural-linear variance of μ's last layer on the in-sample pairs (1 column)
	Error    bool // log out-of-sample mean |y − μ| of the two drugs' other D_out pairs, smaller and larger (2 columns)
	InError  bool // log in-sample mean |y − μ| of the two drugs' other D_in pairs, smaller and larger (2 columns)
	// XError is error with twice the data, cross-fitted: the two drugs'
	// mean out-of-sample |y − μ| over their other D_out pairs (μ's
	// residuals) and their other D_in pairs (residuals of a second μ
	// trained with D_in and D_out swapped), smaller and larger (2 columns).
	XError bool
}

// static reports whether any feature that does not depend on the network
// is on; dynamic, whether any that does.
func (s SigmaFeatures) static() int {
	return len(SigmaFeatures{Density: s.Density, Counts: s.Counts, Spread: s.Spread}.Columns())
}

func (s SigmaFeatures) dynamic() bool {
	return s.Variance || s.Error || s.InError || s.XError || s.Lines
}

// perDrug reports whether any per-drug error feature is on.
func (s SigmaFeatures) perDrug() bool { return s.Error || s.InError || s.XError }

// SigmaBandwidth is h of the density kernel exp(−(1 − Tanimoto)/h). Fixed
// before any experiment: with h = 0.2 a drug at Tanimoto 0.5 weighs
// e^−2.5 ≈ 0.08 of an identical one and a typical unrelated drug
// (Tanimoto ≈ 0.1) e^−4.5 ≈ 0.01.
const SigmaBandwidth = 0.2

// sigmaFeature is one σ feature: its name in --sigma-features, its switch
// in a SigmaFeatures and its columns.
type sigmaFeature struct {
	name string
	on   *bool
	cols []string
}

// sigmaFeatureList is every σ feature of s, in the order of the columns.
func sigmaFeatureList(s *SigmaFeatures) []sigmaFeature {
	return []sigmaFeature{
		{"density", &s.Density, []string{"log_density"}},
		{"counts", &s.Counts, []string{"log1p_count_min", "log1p_count_max"}},
		{"spread", &s.Spread, []string{"log_spread_min", "log_spread_max"}},
		{"variance", &s.Variance, []string{"log_variance"}},
		{"error", &s.Error, []string{"log_error_min", "log_error_max"}},
		{"inerror", &s.InError, []string{"log_inerror_min", "log_inerror_max"}},
		{"xerror", &s.XError, []string{"log_xerror_min", "log_xerror_max"}},
		{"lines", &s.Lines, []string{"log1p_line_count", "log_line_residual"}},
	}
}

// ParseSigmaFeatures reads "none" (or ""), or a comma-separated list of
// density, counts, spread, variance, error, inerror and xerror.
func ParseSigmaFeatures(s string) (SigmaFeatures, error) {
	var f SigmaFeatures
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return f, nil
	}
	list := sigmaFeatureList(&f)
	for _, part := range strings.Split(s, ",") {
		p := strings.TrimSpace(part)
		k := slices.IndexFunc(list, func(e sigmaFeature) bool { return e.name == p })
		if k < 0 {
			names := make([]string, len(list))
			for i, e := range list {
				names[i] = e.name
			}
			return SigmaFeatures{}, fmt.Errorf("model: sigma features %q: unknown feature %q (want none, or a list of %s)", s, p, strings.Join(names, ", "))
		}
		*list[k].on = true
	}
	return f, nil
}

// String is the form ParseSigmaFeatures reads: "none" or the list of the
// features on, in the order of Columns (for example "density,counts").
func (s SigmaFeatures) String() string {
	var p []string
	for _, e := range sigmaFeatureList(&s) {
		if *e.on {
			p = append(p, e.name)
		}
	}
	if len(p) == 0 {
		return "none"
	}
	return strings.Join(p, ",")
}

// Columns names the feature columns, in the order the σ path reads them.
func (s SigmaFeatures) Columns() []string {
	var c []string
	for _, e := range sigmaFeatureList(&s) {
		if *e.on {
			c = append(c, e.cols...)
		}
	}
	return c
}

// sigmaRef is the reference D_in of the σ features, as stored in a model
// file.
type sigmaRef struct {
	Features  string    `json:"features"`    // SigmaFeatures.String()
	Bandwidth float64   `json:"bandwidth"`   // h
	NBits     int       `json:"nbits"`       // Morgan bits: feature columns [0, NBits)
	Drugs     [][]int32 `json:"drugs"`       // distinct on-bit sets of the D_in drugs, each ascending
	Pairs     [][2]int  `json:"pairs"`       // D_in pairs as indices into Drugs
	Y         []float64 `json:"y,omitempty"` // D_in targets, aligned with Pairs (spread only)
	Mean      []float64 `json:"mean"`        // standardization of each column (D_out at Fit)
	SD        []float64 `json:"sd"`
	// Network-dependent features (sigmadyn.go), as of the end of Fit.
	Dyn *sigmaDyn `json:"dynamic,omitempty"`

	feat SigmaFeatures
	deg  []float64 // D_in pairs each reference drug is in
	// spread: per reference drug the sum and sum of squares of its D_in
	// targets; pooled is the variance of all D_in targets.
	s1, s2 []float64
	pooled float64
}

// spreadPrior is κ, the pseudo-observations at the pooled variance that
// shrink a drug's target variance (fixed before any experiment).
const spreadPrior = 2

// newSigmaRef builds the reference from the in-sample pairs idx of d.
func newSigmaRef(sf SigmaFeatures, d *model.Dataset, idx []int) *sigmaRef {
	r := &sigmaRef{Features: sf.String(), Bandwidth: SigmaBandwidth, NBits: d.Features.Config.NBits, feat: sf}
	at := map[string]int{}
	refOf := make(map[int]int)
	drug := func(i int) int {
		if k, ok := refOf[i]; ok {
			return k
		}
		bits := onBits(d.Features, i, r.NBits)
		key := bitKey(bits)
		k, ok := at[key]
		if !ok {
			k = len(r.Drugs)
			at[key] = k
			r.Drugs = append(r.Drugs, bits)
		}
		refOf[i] = k
		return k
	}
	for _, i := range idx {
		p := d.Pairs[i]
		r.Pairs = append(r.Pairs, [2]int{drug(p.A), drug(p.B)})
		if sf.Spread {
			r.Y = append(r.Y, d.Y[i])
		}
	}
	r.derive()
	return r
}

// derive fills the unexported fields from the stored ones.
func (r *sigmaRef) derive() {
	r.feat, _ = ParseSigmaFeatures(r.Features)
	r.deg = make([]float64, len(r.Drugs))
	for _, p := range r.Pairs {
		r.deg[p[0]]++
		if p[1] != p[0] {
			r.deg[p[1]]++
		}
	}
	if len(r.Y) == 0 {
		return
	}
	r.s1, r.s2 = make([]float64, len(r.Drugs)), make([]float64, len(r.Drugs))
	var m, v float64
	for i, p := range r.Pairs {
		y := r.Y[i]
		m += y
		for _, c := range uniq(p) {
			r.s1[c] += y
			r.s2[c] += y * y
		}
	}
	m /= float64(len(r.Y))
	for _, y := range r.Y {
		v += (y - m) * (y - m)
	}
	r.pooled = v / float64(len(r.Y))
}

// uniq is the distinct drugs of a pair.
func uniq(p [2]int) []int {
	if p[0] == p[1] {
		return p[:1]
	}
	return p[:]
}

// spread is the shrunken target standard deviation of a drug with n D_in
// pairs whose targets have sum s1 and sum of squares s2:
//
//	sqrt((s2 − s1²/n + κ·pooled) / (n − 1 + κ))   (n ≥ 1; sqrt(pooled) for n = 0)
func (r *sigmaRef) spread(n, s1, s2 float64) float64 {
	ss := 0.0
	if n > 0 {
		ss = max(s2-s1*s1/n, 0)
	}
	return math.Sqrt((ss + spreadPrior*r.pooled) / (max(n-1, 0) + spreadPrior))
}

// check validates a reference read from a model file.
func (r *sigmaRef) check() error {
	sf, err := ParseSigmaFeatures(r.Features)
	if err != nil {
		return err
	}
	k := len(sf.Columns())
	if k == 0 {
		return fmt.Errorf("sigma features %q: no columns", r.Features)
	}
	if !(r.Bandwidth > 0) || math.IsInf(r.Bandwidth, 0) || r.NBits < 1 || r.NBits > model.MaxFeatures {
		return fmt.Errorf("sigma features: bandwidth %v, %d bits", r.Bandwidth, r.NBits)
	}
	if len(r.Pairs) == 0 || len(r.Drugs) == 0 {
		return fmt.Errorf("sigma features: %d reference pairs of %d drugs", len(r.Pairs), len(r.Drugs))
	}
	for i, b := range r.Drugs {
		for j, c := range b {
			if c < 0 || int(c) >= r.NBits || (j > 0 && c <= b[j-1]) {
				return fmt.Errorf("sigma features: reference drug %d: bit %d out of order or range [0,%d)", i, c, r.NBits)
			}
		}
	}
	for i, p := range r.Pairs {
		if p[0] < 0 || p[0] >= len(r.Drugs) || p[1] < 0 || p[1] >= len(r.Drugs) {
			return fmt.Errorf("sigma features: reference pair %d references drug (%d, %d) of %d", i, p[0], p[1], len(r.Drugs))
		}
	}
	ys := sf.Spread
	if ys != (len(r.Y) == len(r.Pairs)) || (!ys && len(r.Y) != 0) {
		return fmt.Errorf("sigma features %q: %d targets for %d reference pairs", r.Features, len(r.Y), len(r.Pairs))
	}
	for i, y := range r.Y {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return fmt.Errorf("sigma features: reference pair %d: target %v", i, y)
		}
	}
	if len(r.Mean) != k || len(r.SD) != k {
		return fmt.Errorf("sigma features: %d means and %d sds for %d columns", len(r.Mean), len(r.SD), k)
	}
	if sf.dynamic() != (r.Dyn != nil) {
		return fmt.Errorf("sigma features %q: network-dependent state present %v", r.Features, r.Dyn != nil)
	}
	if r.Dyn != nil {
		if err := r.Dyn.check(sf, r.NBits); err != nil {
			return err
		}
	}
	for j := range k {
		if math.IsNaN(r.Mean[j]) || math.IsInf(r.Mean[j], 0) || !(r.SD[j] > 0) || math.IsInf(r.SD[j], 0) {
			return fmt.Errorf("sigma features: column %d standardized by mean %v, sd %v", j, r.Mean[j], r.SD[j])
		}
	}
	return nil
}

// columns is the number of feature columns.
func (r *sigmaRef) columns() int { return len(r.feat.Columns()) }

// sigmaCtx holds the per-drug quantities of one feature matrix against a
// reference: the kernel row K(a, ·) and B(a, ·) = A·K(a, ·) (A the
// symmetric D_in pair-count matrix) for the density, the count for the
// counts. Built for the drugs of one call; not shared.
type sigmaCtx struct {
	r     *sigmaRef
	k, b  map[int][]float64
	count map[int]float64
	match map[int]int // reference drug with the same bits, −1 if none
	// dmatch: drug of Dyn.Drugs with the same bits, −1 if none (sigmadyn.go)
	dmatch map[int]int
}

// drugStats is n, s1, s2 of drug a of f (0 when no reference drug has its
// bits).
func (c *sigmaCtx) drugStats(a int) (n, s1, s2 float64) {
	m := c.match[a]
	if m < 0 {
		return 0, 0, 0
	}
	return c.r.deg[m], c.r.s1[m], c.r.s2[m]
}

func (r *sigmaRef) context() *sigmaCtx {
	return &sigmaCtx{r: r, k: map[int][]float64{}, b: map[int][]float64{}, count: map[int]float64{}, match: map[int]int{}, dmatch: map[int]int{}}
}

func (c *sigmaCtx) drug(f *model.Features, a int) {
	if _, ok := c.match[a]; ok {
		return
	}
	r := c.r
	bits := onBits(f, a, r.NBits)
	c.match[a] = -1
	kr := make([]float64, len(r.Drugs))
	for j, rb := range r.Drugs {
		t := chem.Tanimoto(bits, rb)
		if t == 1 && slices.Equal(bits, rb) {
			c.match[a] = j
		}
		kr[j] = math.Exp(-(1 - t) / r.Bandwidth)
	}
	if m := c.match[a]; m >= 0 {
		c.count[a] = r.deg[m]
	}
	if r.feat.Density {
		br := make([]float64, len(r.Drugs))
		for _, p := range r.Pairs {
			br[p[0]] += kr[p[1]]
			br[p[1]] += kr[p[0]]
		}
		c.k[a], c.b[a] = kr, br
	}
}

// pairs writes the standardized features of the pairs (pa[i], pb[i]) of
// f into dst (len(pa)×columns,
// row-major). loo[i], when loo is not nil, marks a pair of D_in whose own
// term is left out (see above); its target is y[i].
func (c *sigmaCtx) pairs(f *model.Features, pa, pb, pl []int, loo []bool, y []float64, dst []float64) {
	r := c.r
	k := r.columns()
	ks := r.feat.static()
	norm := 2 * float64(len(r.Pairs))
	floor := math.Exp(-2 / r.Bandwidth) // the smallest kernel product
	for i := range pa {
		a, b := pa[i], pb[i]
		c.drug(f, a)
		c.drug(f, b)
		self := loo != nil && loo[i]
		row := dst[i*k : (i+1)*k]
		j := 0
		if r.feat.Density {
			ka, bb := c.k[a], c.b[b]
			s := 0.0
			for x, v := range ka {
				s += v * bb[x]
			}
			if self {
				kab := math.Exp(-(1 - chem.Tanimoto(onBits(f, a, r.NBits), onBits(f, b, r.NBits))) / r.Bandwidth)
				s -= 1 + kab*kab
			}
			row[j] = math.Log(max(s, floor) / norm)
			j++
		}
		if r.feat.Counts {
			na, nb := c.count[a], c.count[b]
			if self {
				na, nb = max(na-1, 0), max(nb-1, 0)
			}
			row[j], row[j+1] = math.Log1p(min(na, nb)), math.Log1p(max(na, nb))
			j += 2
		}
		if r.feat.Spread {
			var sp [2]float64
			for x, d := range [2]int{a, b} {
				n, s1, s2 := c.drugStats(d)
				if self && n > 0 {
					n, s1, s2 = n-1, s1-y[i], s2-y[i]*y[i]
				}
				sp[x] = math.Log(r.spread(n, s1, s2))
			}
			row[j], row[j+1] = min(sp[0], sp[1]), max(sp[0], sp[1])
		}
		if r.Mean != nil {
			for x := range row[:ks] {
				row[x] = (row[x] - r.Mean[x]) / r.SD[x]
			}
		}
	}
}

// standardize sets Mean and SD of the columns [lo, hi) from their raw
// values in the rows of D_out (all holds n rows of k columns) and
// standardizes those columns of every row of all in place.
func (r *sigmaRef) standardize(all []float64, k int, dout []int, lo, hi int) {
	if len(r.Mean) != k {
		r.Mean, r.SD = make([]float64, k), make([]float64, k)
	}
	n := float64(len(dout))
	for j := lo; j < hi; j++ {
		m := 0.0
		for _, i := range dout {
			m += all[i*k+j]
		}
		m /= n
		v := 0.0
		for _, i := range dout {
			d := all[i*k+j] - m
			v += d * d
		}
		sd := math.Sqrt(v / n)
		if !(sd > 1e-12) {
			sd = 1
		}
		r.Mean[j], r.SD[j] = m, sd
		for i := 0; i < len(all)/k; i++ {
			all[i*k+j] = (all[i*k+j] - m) / sd
		}
	}
}

// datasetSigmaFeatures computes the standardized σ features of every pair
// of d against the reference of the in-sample pairs train (leave-one-out
// for them), standardized on the pairs val (D_out). It returns the
// reference and the len(d.Pairs)×columns features; the columns of the
// network-dependent features are 0 until the trainer's refresh
// (sigmadyn.go) fills them.
func datasetSigmaFeatures(sf SigmaFeatures, d *model.Dataset, train, val []int) (*sigmaRef, []float64) {
	r := newSigmaRef(sf, d, train)
	k := r.columns()
	n := len(d.Pairs)
	pa, pb, pl, loo := make([]int, n), make([]int, n), make([]int, n), make([]bool, n)
	for i, p := range d.Pairs {
		pa[i], pb[i], pl[i] = p.A, p.B, p.Line
	}
	for _, i := range train {
		loo[i] = true
	}
	all := make([]float64, n*k)
	r.context().pairs(d.Features, pa, pb, pl, loo, d.Y, all)
	r.standardize(all, k, val, 0, sf.static())
	return r, all
}

// onBits is the ascending list of the Morgan bits (columns < nbits with a
// nonzero value) of row i of f.
func onBits(f *model.Features, i, nbits int) []int32 {
	var b []int32
	for k := f.RowPtr[i]; k < f.RowPtr[i+1]; k++ {
		if c := f.Col[k]; int(c) < nbits && f.Val[k] != 0 {
			b = append(b, c)
		}
	}
	return b
}

func bitKey(b []int32) string {
	var sb strings.Builder
	for _, c := range b {
		fmt.Fprintf(&sb, "%d,", c)
	}
	return sb.String()
}

// DefaultSigmaFeatures is the default of deup train's and deup bench's
// --sigma-features for DEUP (deup-neighbors has its own:
// methods.StackedSigmaFeatures).
const DefaultSigmaFeatures = "none"
