package deupnet

import (
	"fmt"
	"math"
	"slices"

	"github.com/deup-screening/deup/model"
	"gonum.org/v1/gonum/mat"
)

// Network-dependent stationarizing features of DEUP's σ path (issue 17,
// second attempt; see sigmafeat.go for the others and
// docs/sigma-features.md for the results).
//
//   - variance: the paper's model variance V̂(x) (§3.2), here the
//     posterior variance of μ's last layer read as a Bayesian linear
//     regression on the last combined layer's activations φ(x) (a
//     "neural-linear" model): V(x) = φ(x)ᵀ (ΦᵀΦ + λI)⁻¹ φ(x), Φ the
//     activations of the D_in pairs, λ the mean diagonal of ΦᵀΦ (the
//     convention of the aleatoric ridge, aleatoric.go; fixed before any
//     run). It costs no second network: one Hidden×Hidden Cholesky
//     factorization. One column, log V.
//   - error: each drug's mean |y − μ| over its D_out pairs, shrunk towards
//     the mean over all D_out pairs with errPrior pseudo-pairs; two
//     columns, log of the smaller and of the larger of the pair.
//   - inerror: the same over the D_in pairs (μ's in-sample residuals,
//     information the σ path, trained on D_out, never sees otherwise).
//   - xerror (third attempt): error from about twice the out-of-sample
//     data, cross-fitted: the mean over a drug's D_out pairs of μ's
//     residuals and over its D_in pairs of the residuals of a second μ′,
//     trained as DEUP's μ with D_in and D_out swapped (it never sees
//     D_in; DEUP.Fit trains it first, with its own seed). μ′'s residuals
//     are fixed; μ's are refreshed as for error.
//   - lines (a panel): the pair's cell line's number of D_in pairs n_l
//     and μ's residual spread on them, s_l = sqrt((Σ (y − μ)² +
//     κ·g) / (n_l + κ)), g the mean (y − μ)² over all D_in pairs and κ =
//     spreadPrior; two columns, log1p n_l and log s_l. A D_in pair is left
//     out of its own line's sums and of g (n_l − 1, its own (y − μ)²
//     removed), the paper's recipe for a stationarizing feature of a
//     training point; a line with no D_in pair (a held-out line) gets
//     n = 0 and s = sqrt(g).
//
// They depend on μ and its activations, so the trainer recomputes them
// after every epoch (the σ steps of an epoch read those of the previous
// one) and after the best epoch's parameters are restored; the σ refit
// then runs on the final ones, and the model file stores what prediction
// needs (the precision matrix, the per-drug residual sums and counts).
//
// Same computation at training and prediction. A pair not in the set a
// feature is computed from gets exactly the definition above: D_out pairs
// for variance and inerror, D_in pairs for error, every pair at
// prediction. A pair in the set would see itself, which no unseen pair
// can, so it is left out: for a D_in pair V is the leave-one-out h/(1−h)
// (Sherman–Morrison, h = φᵀ(ΦᵀΦ + λI)⁻¹φ), and a D_out (error) or D_in
// (inerror) pair's own |y − μ| and count are removed from its drugs' sums
// and from the overall mean. A drug is identified by its Morgan bits, as
// for the counts; a drug with no pair in the set gets the overall mean.
//
// Leakage (error): the feature of a D_out pair is computed from other
// D_out pairs' residuals, never its own, and at prediction from D_out
// residuals only, never a test target. Leave-one-out does make the
// feature decrease by |y−μ|/(n+κ−1) as the pair's own error grows; a σ
// path that could recover each drug's full sum would learn a weaker
// weight for it than it should (a bias against the feature, not an
// optimistic one).

// errPrior is κ of the per-drug error means (pseudo-pairs at the overall
// mean; fixed before any run, as spreadPrior).
const errPrior = 2

// sigmaDyn is what the network-dependent features need at prediction.
type sigmaDyn struct {
	Hidden int       `json:"hidden,omitempty"` // width of φ (CombHidden); variance only
	Prec   []float64 `json:"prec,omitempty"`   // (ΦᵀΦ + λI)⁻¹, Hidden×Hidden row-major; variance only
	Drugs  [][]int32 `json:"drugs,omitempty"`  // on-bit sets of the D_in ∪ D_out drugs (error, inerror)
	Out    []errSum  `json:"out,omitempty"`    // per drug of Drugs: D_out residuals (error)
	In     []errSum  `json:"in,omitempty"`     // per drug of Drugs: D_in residuals (inerror)
	X      []errSum  `json:"x,omitempty"`      // per drug of Drugs: D_out residuals of μ and D_in residuals of μ′ (xerror)
	// Lines holds per cell line the sum of (y − μ)² (standardized units)
	// over its D_in pairs and their number; LinesAll over all D_in pairs
	// (lines only).
	Lines    []errSum `json:"lines,omitempty"`
	LinesAll errSum   `json:"lines_all"`
	OutAll   errSum   `json:"out_all"`
	InAll    errSum   `json:"in_all"`
	XAll     errSum   `json:"x_all"`
}

// errSum is a sum of |y − μ| (standardized units) over N pairs.
type errSum struct {
	S float64 `json:"s"`
	N float64 `json:"n"`
}

// shrunk is the mean with errPrior pseudo-pairs at the mean of all; own,
// when n1 is 1, is a residual left out of both.
func (e errSum) shrunk(all errSum, own, n1 float64) float64 {
	g := (all.S - own) / max(all.N-n1, 1)
	return (max(e.S-own, 0) + errPrior*g) / (max(e.N-n1, 0) + errPrior)
}

// self kinds of dynRow.
const (
	selfNone = iota // scored as unseen
	selfIn          // a D_in pair
	selfOut         // a D_out pair
)

// dynRow writes the raw network-dependent features of one pair into row
// (the dynamic columns only): phi its activations, da and db its drugs'
// indices in Dyn.Drugs (−1 when absent), l its cell line, own its |y − μ|
// when self is selfIn or selfOut, ownX its term of the xerror sums (|y − μ′|
// for a D_in pair, |y − μ| for a D_out one).
func (r *sigmaRef) dynRow(phi []float64, da, db, l int, self int, own, ownX float64, row []float64) {
	dy := r.Dyn
	j := 0
	if r.feat.Variance {
		h := dy.Hidden
		v := 0.0
		for x := range h {
			s := 0.0
			p := dy.Prec[x*h : (x+1)*h]
			for y, f := range phi {
				s += p[y] * f
			}
			v += phi[x] * s
		}
		if self == selfIn {
			v = v / max(1-v, 1e-12)
		}
		row[j] = math.Log(max(v, 1e-300))
		j++
	}
	// A pair in the set has both drugs in Drugs; a drug with no pair in
	// the set (d < 0, prediction only) has an empty sum: the overall mean.
	pairErr := func(per []errSum, all errSum, mine bool, own float64) (float64, float64) {
		o, n1 := 0.0, 0.0
		if mine {
			o, n1 = own, 1
		}
		var e [2]float64
		for x, d := range [2]int{da, db} {
			var s errSum
			if d >= 0 {
				s = per[d]
			}
			e[x] = s.shrunk(all, o, n1)
		}
		return math.Log(min(e[0], e[1])), math.Log(max(e[0], e[1]))
	}
	if r.feat.Error {
		row[j], row[j+1] = pairErr(dy.Out, dy.OutAll, self == selfOut, own)
		j += 2
	}
	if r.feat.InError {
		row[j], row[j+1] = pairErr(dy.In, dy.InAll, self == selfIn, own)
		j += 2
	}
	if r.feat.XError {
		row[j], row[j+1] = pairErr(dy.X, dy.XAll, self != selfNone, ownX)
		j += 2
	}
	if r.feat.Lines {
		row[j], row[j+1] = dy.lineRow(l, self == selfIn, own)
	}
}

// lineRow is the lines feature of a pair on line l (see above): log1p n_l
// and log s_l; in, for a D_in pair whose own |y − μ| is own, leaves it out.
func (dy *sigmaDyn) lineRow(l int, in bool, own float64) (float64, float64) {
	var s errSum
	if l >= 0 && l < len(dy.Lines) { // a line unknown to D_in: n = 0
		s = dy.Lines[l]
	}
	all := dy.LinesAll
	if in && s.N > 0 {
		s.S, s.N = max(s.S-own*own, 0), s.N-1
		all.S, all.N = max(all.S-own*own, 0), all.N-1
	}
	g := all.S / max(all.N, 1)
	return math.Log1p(s.N), 0.5 * math.Log(max((s.S+spreadPrior*g)/(s.N+spreadPrior), 1e-300))
}

// dynDrug is the index in Dyn.Drugs of drug a of f (same Morgan bits), −1
// when none; cached in the context.
func (c *sigmaCtx) dynDrug(f *model.Features, a int) int {
	if k, ok := c.dmatch[a]; ok {
		return k
	}
	bits := onBits(f, a, c.r.NBits)
	k := -1
	for j, b := range c.r.Dyn.Drugs {
		if slices.Equal(bits, b) {
			k = j
			break
		}
	}
	c.dmatch[a] = k
	return k
}

// refreshDynamic recomputes the network-dependent features with the
// network of fw as it is now: it refits the stored state (Dyn) on the
// pairs train (D_in) and val (D_out) of d and writes the features of
// those pairs, standardized on val, into their columns of side
// (len(d.Pairs)×columns). mean and sd standardize the targets as μ does.
// xin (xerror only) holds |y − μ′| of the train pairs, standardized.
func (r *sigmaRef) refreshDynamic(c *sigmaCtx, fw model.Forwarder, d *model.Dataset, train, val []int, mean, sd float64, h int, side, xin []float64) error {
	idx := append(append([]int(nil), train...), val...)
	n := len(idx)
	pa, pb, pl := make([]int, n), make([]int, n), make([]int, n)
	for k, i := range idx {
		pa[k], pb[k], pl[k] = d.Pairs[i].A, d.Pairs[i].B, d.Pairs[i].Line
	}
	mu, hid := make([]float64, n), make([]float64, n*h)
	fw.Pairs(d.Features, pa, pb, pl, 0, nil, mu, nil, hid)
	res := make([]float64, n)
	for k, i := range idx {
		res[k] = math.Abs((d.Y[i]-mean)/sd - mu[k])
	}
	if r.Dyn == nil {
		r.Dyn = &sigmaDyn{}
	}
	dy := r.Dyn
	if r.feat.Variance {
		dy.Hidden = h
		prec, err := neuralLinearPrec(hid[:len(train)*h], len(train), h)
		if err != nil {
			return err
		}
		dy.Prec = prec
	}
	if r.feat.XError && len(xin) != len(train) {
		return fmt.Errorf("model: sigma features: xerror: %d residuals of μ′ for %d in-sample pairs", len(xin), len(train))
	}
	if r.feat.perDrug() {
		if dy.Drugs == nil {
			seen := map[string]bool{}
			for _, i := range idx {
				for _, a := range [2]int{d.Pairs[i].A, d.Pairs[i].B} {
					b := onBits(d.Features, a, r.NBits)
					if key := bitKey(b); !seen[key] {
						seen[key] = true
						dy.Drugs = append(dy.Drugs, b)
					}
				}
			}
		}
		dy.In, dy.Out, dy.X = make([]errSum, len(dy.Drugs)), make([]errSum, len(dy.Drugs)), nil
		dy.InAll, dy.OutAll, dy.XAll = errSum{}, errSum{}, errSum{}
		if r.feat.XError {
			dy.X = make([]errSum, len(dy.Drugs))
		}
		add := func(per []errSum, all *errSum, i int, e float64) {
			all.S += e
			all.N++
			for _, x := range uniq([2]int{c.dynDrug(d.Features, d.Pairs[i].A), c.dynDrug(d.Features, d.Pairs[i].B)}) {
				per[x].S += e
				per[x].N++
			}
		}
		for k, i := range idx {
			x := res[k] // xerror: μ's residual of a D_out pair, μ′'s of a D_in pair
			if k < len(train) {
				add(dy.In, &dy.InAll, i, res[k])
				if dy.X != nil {
					x = xin[k]
				}
			} else {
				add(dy.Out, &dy.OutAll, i, res[k])
			}
			if dy.X != nil {
				add(dy.X, &dy.XAll, i, x)
			}
		}
	}
	dy.Lines, dy.LinesAll = nil, errSum{}
	if r.feat.Lines {
		dy.Lines = make([]errSum, d.Lines())
		for k, i := range train {
			e := res[k] * res[k]
			dy.Lines[d.Pairs[i].Line].S += e
			dy.Lines[d.Pairs[i].Line].N++
			dy.LinesAll.S += e
			dy.LinesAll.N++
		}
	}
	if !r.feat.Error {
		dy.Out, dy.OutAll = nil, errSum{}
	}
	if !r.feat.InError {
		dy.In, dy.InAll = nil, errSum{}
	}
	k, ks := r.columns(), r.feat.static()
	for x, i := range idx {
		self := selfIn
		if x >= len(train) {
			self = selfOut
		}
		p := d.Pairs[i]
		ownX := res[x]
		if self == selfIn && xin != nil {
			ownX = xin[x]
		}
		r.dynRow(hid[x*h:(x+1)*h], c.dynDrug(d.Features, p.A), c.dynDrug(d.Features, p.B), p.Line, self, res[x], ownX, side[i*k+ks:(i+1)*k])
	}
	r.standardize(side, k, val, ks, k)
	return nil
}

// dynamicRows writes the standardized network-dependent features of the
// pairs (pa[i], pb[i]) of f on cell lines pl[i] (nil: line 0), scored as
// unseen, into their columns of dst (len(pa)×columns); hid holds the
// pairs' activations (len(pa)×Hidden, or nil without variance).
func (r *sigmaRef) dynamicRows(c *sigmaCtx, f *model.Features, pa, pb, pl []int, hid []float64, h int, dst []float64) {
	k, ks := r.columns(), r.feat.static()
	for i := range pa {
		da, db := -1, -1
		if r.feat.perDrug() {
			da, db = c.dynDrug(f, pa[i]), c.dynDrug(f, pb[i])
		}
		var phi []float64
		if hid != nil {
			phi = hid[i*h : (i+1)*h]
		}
		row := dst[i*k : (i+1)*k]
		r.dynRow(phi, da, db, model.LineOf(pl, i), selfNone, 0, 0, row[ks:])
		for j := ks; j < k; j++ {
			row[j] = (row[j] - r.Mean[j]) / r.SD[j]
		}
	}
}

// neuralLinearPrec is (ΦᵀΦ + λI)⁻¹ for the n×h rows phi, λ the mean
// diagonal of ΦᵀΦ (at least 1e-6), row-major.
func neuralLinearPrec(phi []float64, n, h int) ([]float64, error) {
	X := mat.NewDense(n, h, phi)
	var a mat.SymDense
	a.SymOuterK(1, X.T())
	lambda := 0.0
	for j := range h {
		lambda += a.At(j, j)
	}
	lambda = max(lambda/float64(h), 1e-6)
	for j := range h {
		a.SetSym(j, j, a.At(j, j)+lambda)
	}
	var chol mat.Cholesky
	if !chol.Factorize(&a) {
		return nil, fmt.Errorf("model: sigma features: variance: singular activations")
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		return nil, fmt.Errorf("model: sigma features: variance: %w", err)
	}
	out := make([]float64, h*h)
	for x := range h {
		for y := range h {
			out[x*h+y] = inv.At(x, y)
		}
	}
	return out, nil
}

// check validates the stored state of the network-dependent features.
func (dy *sigmaDyn) check(sf SigmaFeatures, nbits int) error {
	if sf.Variance {
		if dy.Hidden < 1 || dy.Hidden > 1<<14 || len(dy.Prec) != dy.Hidden*dy.Hidden {
			return fmt.Errorf("sigma features: variance: %d precision values for width %d", len(dy.Prec), dy.Hidden)
		}
		for i, v := range dy.Prec {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("sigma features: variance: precision value %d is %v", i, v)
			}
		}
	} else if len(dy.Prec) != 0 {
		return fmt.Errorf("sigma features %q: precision values without variance", sf)
	}
	for i, b := range dy.Drugs {
		for j, c := range b {
			if c < 0 || int(c) >= nbits || (j > 0 && c <= b[j-1]) {
				return fmt.Errorf("sigma features: error drug %d: bit %d out of order or range [0,%d)", i, c, nbits)
			}
		}
	}
	sums := func(name string, on bool, per []errSum, all errSum) error {
		if !on {
			if len(per) != 0 {
				return fmt.Errorf("sigma features %q: %s sums without the feature", sf, name)
			}
			return nil
		}
		if len(per) != len(dy.Drugs) || !(all.N >= 1) || !(all.S > 0) || math.IsInf(all.S, 0) || math.IsInf(all.N, 0) {
			return fmt.Errorf("sigma features: %s: %d sums for %d drugs, total %v over %v pairs", name, len(per), len(dy.Drugs), all.S, all.N)
		}
		for i, e := range per {
			if !(e.S >= 0) || !(e.N >= 0) || e.S > all.S*(1+1e-9)+1e-12 || e.N > all.N {
				return fmt.Errorf("sigma features: %s: drug %d: sum %v over %v pairs", name, i, e.S, e.N)
			}
		}
		return nil
	}
	if err := sums("error", sf.Error, dy.Out, dy.OutAll); err != nil {
		return err
	}
	if err := sums("inerror", sf.InError, dy.In, dy.InAll); err != nil {
		return err
	}
	if err := sums("xerror", sf.XError, dy.X, dy.XAll); err != nil {
		return err
	}
	if !sf.Lines {
		if len(dy.Lines) != 0 {
			return fmt.Errorf("sigma features %q: cell-line sums without the feature", sf)
		}
		return nil
	}
	if len(dy.Lines) == 0 || !(dy.LinesAll.N >= 1) || !(dy.LinesAll.S >= 0) || math.IsInf(dy.LinesAll.S, 0) || math.IsInf(dy.LinesAll.N, 0) {
		return fmt.Errorf("sigma features: lines: %d cell lines, total %v over %v pairs", len(dy.Lines), dy.LinesAll.S, dy.LinesAll.N)
	}
	for i, e := range dy.Lines {
		if !(e.S >= 0) || !(e.N >= 0) || e.S > dy.LinesAll.S*(1+1e-9)+1e-12 || e.N > dy.LinesAll.N {
			return fmt.Errorf("sigma features: lines: line %d: sum %v over %v pairs", i, e.S, e.N)
		}
	}
	return nil
}
