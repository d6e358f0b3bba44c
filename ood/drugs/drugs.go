// Package drugs is deup ood's experiment, the drug-combination use of
// package ood (as package bench is deup bench's): held-out drugs chosen by
// chemical clusters, a Tanimoto kernel density of drugs, the MC-Dropout
// two-tower network as DEUP's main predictor and variance source, and the
// baselines of package model scored on the same test pairs.
// Run returns each seed's test pairs and every method's predictions;
// the command scores and prints them.
package drugs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/deup-screening/deup/chem"
	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/deup/mlp"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/due"
	"github.com/deup-screening/deup/ood"
)

// Method names of deup ood besides "deup-" + a feature subset.
const (
	TwoHead   = "deup-twohead"
	Ensemble  = "ensemble"
	MCDropout = "mcdropout"
	DUE       = "due"
	Density   = "density" // -log q(pair) itself, without an error predictor
)

// Settings are the settings of one deup ood run (flags and fixed
// choices, documented in the command's help and in ood/doc.go).
type Settings struct {
	HoldOut   float64 // fraction of drugs held out
	InTest    float64 // fraction of in-distribution pairs tested
	Folds     int
	Seeds     []uint64
	Methods   []string
	Model     model.Config
	DUE       due.Config
	Members   int
	Passes    int     // MC-Dropout passes for the v feature and the mcdropout row
	Dropout   float64 // MC-Dropout rate
	Cutoff    float64 // Butina Tanimoto-distance cutoff
	Bandwidth float64 // Tanimoto kernel bandwidth h: k = exp(-(1 - T)/h)
	PCADims   int     // dimensions of the x feature
	Workers   int
	// Registry builds the trained methods (deup-twohead, ensemble, due)
	// by their registered names; nil means methods.Default().
	Registry *methods.Registry
}

// Sets returns the feature set of every deup-<set> method, in order.
func Sets(methods []string) (names []string, sets []deup.FeatureSet, err error) {
	for _, m := range methods {
		if m == TwoHead || !strings.HasPrefix(m, "deup-") {
			continue
		}
		s, err := deup.ParseFeatures(strings.TrimPrefix(m, "deup-"))
		if err != nil {
			return nil, nil, fmt.Errorf("drugs: method %s: %w", m, err)
		}
		names, sets = append(names, m), append(sets, s)
	}
	return names, sets, nil
}

// SeedResult is one seed's test pairs and each method's predictions.
type SeedResult struct {
	Seed   uint64
	Split  drugcomb.GroupSplit
	Test   []int  // TestIn, TestOne, TestTwo in that order
	Unseen []int8 // 0, 1 or 2 held-out drugs per test pair
	Mu     map[string][]float64
	U      map[string][]float64 // uncertainty: predicted loss or variance
	// Epi is each method's σ_epistemic per test pair (issue 29): the
	// model methods' own split (package model's SigmaEpistemic), the
	// MC-Dropout spread √v, and √e of a deup-<set> error predictor (it has
	// no aleatoric estimate, so a = 0: the paper's conservative case,
	// u = e). The density row has none.
	Epi      map[string][]float64
	Seconds  map[string]float64 // training seconds of each job
	DEUPTime [3]float64         // folds, final, error predictors
	NErrors  int                // D_e entries
	Clusters int
	targets  []float64
}

// Y is the measured target of pair i of the dataset.
func (r *SeedResult) Y(i int) float64 { return r.targets[i] }

// Experiment holds what every seed shares.
type Experiment struct {
	d        *model.Dataset
	sc       *drugcomb.Screen
	set      Settings
	sim      [][]float64 // Tanimoto of the drugs' Morgan bits
	clusters []int
	nClust   int
}

func NewExperiment(sc *drugcomb.Screen, d *model.Dataset, set Settings) (*Experiment, error) {
	f := d.Features
	nb := f.Config.NBits
	bits := make([][]int, f.NumDrugs())
	for i := range bits {
		for k := f.RowPtr[i]; k < f.RowPtr[i+1]; k++ {
			if c := int(f.Col[k]); c < nb && f.Val[k] != 0 {
				bits[i] = append(bits[i], c)
			}
		}
	}
	tan := func(i, j int) float64 { // as tui/pairs.Tanimoto: an empty set is similar only to itself
		if i == j {
			return 1
		}
		if len(bits[i]) == 0 || len(bits[j]) == 0 {
			return 0
		}
		return chem.Tanimoto(bits[i], bits[j])
	}
	n := len(bits)
	sim := make([][]float64, n)
	for i := range sim {
		sim[i] = make([]float64, n)
		for j := range sim[i] {
			sim[i][j] = tan(i, j)
		}
	}
	cl := drugcomb.Butina(n, func(i, j int) float64 { return sim[i][j] }, set.Cutoff)
	return &Experiment{d: d, sc: sc, set: set, sim: sim, clusters: cl, nClust: slices.Max(cl) + 1}, nil
}

// Clusters is the number of Butina clusters of the drugs.
func (x *Experiment) Clusters() int { return x.nClust }

// job is one unit of training work of one seed.
type job struct {
	seed   int // index into results
	method string
	cost   int // trainings, for the progress bar and the order of jobs
}

// Run trains and predicts every method on every seed. tick is called after
// each finished training (serialized).
func (x *Experiment) Run(ctx context.Context, tick func(done int, detail string)) ([]*SeedResult, error) {
	set := x.set
	res := make([]*SeedResult, len(set.Seeds))
	probs := make([]*ood.Problem, len(set.Seeds))
	for k, seed := range set.Seeds {
		sp, err := drugcomb.SplitByDrugGroups(x.sc, x.clusters, set.HoldOut, set.InTest, seed)
		if err != nil {
			return nil, err
		}
		r := &SeedResult{Seed: seed, Split: sp, targets: x.d.Y, Mu: map[string][]float64{}, U: map[string][]float64{}, Epi: map[string][]float64{}, Seconds: map[string]float64{}, Clusters: x.nClust}
		for _, part := range []struct {
			idx []int
			u   int8
		}{{sp.TestIn, 0}, {sp.TestOne, 1}, {sp.TestTwo, 2}} {
			r.Test = append(r.Test, part.idx...)
			for range part.idx {
				r.Unseen = append(r.Unseen, part.u)
			}
		}
		if len(sp.TestIn) < 2 || len(sp.TestOne)+len(sp.TestTwo) < 2 {
			return nil, fmt.Errorf("seed %d: %d in-distribution and %d out-of-distribution test pairs: too few to score", seed, len(sp.TestIn), len(sp.TestOne)+len(sp.TestTwo))
		}
		res[k] = r
		probs[k] = x.problem(sp)
	}
	names, sets := mustSets(set.Methods)
	var jobs []job
	for k := range set.Seeds {
		if len(sets) > 0 || slices.Contains(set.Methods, MCDropout) || slices.Contains(set.Methods, Density) {
			jobs = append(jobs, job{k, "deup", set.Folds + 1})
		}
		for _, m := range []string{DUE, Ensemble, TwoHead} {
			if slices.Contains(set.Methods, m) {
				c := 1
				if m == Ensemble {
					c = set.Members
				}
				if m == DUE {
					c = 3 // about three DEUP trainings of time
				}
				jobs = append(jobs, job{k, m, c})
			}
		}
	}
	// Longest first, so the workers finish together.
	slices.SortStableFunc(jobs, func(a, b job) int { return b.cost - a.cost })
	var mu sync.Mutex
	done := 0
	report := func(detail string) {
		mu.Lock()
		defer mu.Unlock()
		done++
		if tick != nil {
			tick(done, detail)
		}
	}
	// At most set.Workers trainings at a time, on the project's one pool
	// (kernels.Jobs: each holds a worker of the process's budget); the
	// first error cancels the others.
	err := kernels.Jobs(ctx, len(jobs), set.Workers, func(ctx context.Context, k int) error {
		j := jobs[k]
		if err := x.runJob(ctx, j, res[j.seed], probs[j.seed], names, sets, report, &mu); err != nil {
			return fmt.Errorf("seed %d, %s: %w", set.Seeds[j.seed], j.method, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, ctx.Err()
}

func mustSets(methods []string) ([]string, []deup.FeatureSet) {
	names, sets, err := Sets(methods)
	if err != nil {
		panic("drugs: unchecked methods: " + err.Error()) // the command checked them first
	}
	return names, sets
}

// problem builds the ood.Problem of one split: targets, groups (the drugs'
// clusters) and the x feature (the sum of the two drugs' coordinates on the
// first principal components of the training drugs' fingerprints).
func (x *Experiment) problem(sp drugcomb.GroupSplit) *ood.Problem {
	p := &ood.Problem{Y: x.d.Y}
	for _, pr := range x.d.Pairs {
		p.Groups = append(p.Groups, []int{x.clusters[pr.A], x.clusters[pr.B]})
	}
	emb := x.embed(sp.Train)
	for _, pr := range x.d.Pairs {
		row := make([]float64, len(emb[pr.A]))
		for j := range row {
			row[j] = emb[pr.A][j] + emb[pr.B][j]
		}
		p.X = append(p.X, row)
	}
	return p
}

// embed returns every drug's coordinates on the first PCADims principal
// components of the fingerprints of the drugs of the training pairs.
func (x *Experiment) embed(train []int) [][]float64 {
	f := x.d.Features
	in := map[int]bool{}
	for _, i := range train {
		in[x.d.Pairs[i].A], in[x.d.Pairs[i].B] = true, true
	}
	var rows []int
	for dr := 0; dr < f.NumDrugs(); dr++ {
		if in[dr] {
			rows = append(rows, dr)
		}
	}
	dim := f.Config.Dim()
	a := mat.NewDense(len(rows), dim, nil)
	for r, dr := range rows {
		a.SetRow(r, f.Dense(dr))
	}
	k := min(x.set.PCADims, len(rows)-1, dim)
	out := make([][]float64, f.NumDrugs())
	var pc stat.PC
	if k < 1 || !pc.PrincipalComponents(a, nil) {
		for dr := range out {
			out[dr] = []float64{0}
		}
		return out
	}
	var vecs mat.Dense
	pc.VectorsTo(&vecs)
	mean := make([]float64, dim)
	for r := range rows {
		for j := 0; j < dim; j++ {
			mean[j] += a.At(r, j) / float64(len(rows))
		}
	}
	for dr := range out {
		v := f.Dense(dr)
		out[dr] = make([]float64, k)
		for c := 0; c < k; c++ {
			var s float64
			for j := 0; j < dim; j++ {
				s += (v[j] - mean[j]) * vecs.At(j, c)
			}
			out[dr][c] = s
		}
	}
	return out
}

// runJob trains one job and stores its predictions in r.
func (x *Experiment) runJob(ctx context.Context, j job, r *SeedResult, p *ood.Problem, names []string, sets []deup.FeatureSet, report func(string), mu *sync.Mutex) error {
	seed := r.Seed
	set := x.set
	t0 := time.Now()
	store := func(name string, mean, u, epi []float64) {
		mu.Lock()
		r.Mu[name], r.U[name] = mean, u
		if epi != nil {
			r.Epi[name] = epi
		}
		mu.Unlock()
	}
	sqrtOf := func(u []float64) []float64 {
		out := make([]float64, len(u))
		for k, v := range u {
			out[k] = math.Sqrt(max(v, 0))
		}
		return out
	}
	fit, val := ood.FinalSplit(r.Split.Train, ood.DefaultValFrac, seed)
	testPairs := make([]model.PairRef, len(r.Test))
	for k, i := range r.Test {
		testPairs[k] = x.d.Pairs[i]
	}
	label := fmt.Sprintf("seed %d %s", seed, j.method)
	switch j.method {
	case "deup":
		cfg := ood.Config{
			Folds:   set.Folds,
			Main:    mcdFitter{x: x, label: label, report: report},
			Density: tanimotoDensity{x},
			Error:   mlp.Learner{Config: errorMLP(seed)},
			Seed:    seed,
		}
		res, err := ood.Run(ctx, p, r.Split.Train, r.Test, sets, cfg)
		if err != nil {
			return err
		}
		mean := make([]float64, len(res.Final))
		v := make([]float64, len(res.Final))
		negD := make([]float64, len(res.Final))
		for k, e := range res.Final {
			mean[k], v[k] = e.Mean, math.Exp(e.LogVariance)
			negD[k] = -e.LogDensity
		}
		for k, name := range names {
			store(name, mean, res.Uncertainty[k], sqrtOf(res.Uncertainty[k]))
		}
		if slices.Contains(set.Methods, MCDropout) {
			store(MCDropout, mean, v, sqrtOf(v))
		}
		if slices.Contains(set.Methods, Density) {
			if len(sets) == 0 || !hasD(sets) {
				// The final entries carry a density only when a set used d.
				ld, err := tanimotoDensity{x}.logDensity(fit, r.Test)
				if err != nil {
					return err
				}
				for k := range negD {
					negD[k] = -ld[k]
				}
			}
			store(Density, mean, negD, nil)
		}
		mu.Lock()
		r.DEUPTime = [3]float64{res.FoldSeconds, res.FinalSeconds, res.ErrorSeconds}
		r.NErrors = len(res.Errors)
		r.Seconds["deup"] = time.Since(t0).Seconds()
		mu.Unlock()
		return nil
	}
	mc := set.Model
	mc.Seed = seed
	method, ok := map[string]string{TwoHead: methods.DEUP, Ensemble: methods.Ensemble, DUE: methods.DUE}[j.method]
	if !ok {
		return fmt.Errorf("unknown job %q", j.method)
	}
	reg := set.Registry
	if reg == nil {
		reg = methods.Default()
	}
	m, err := reg.New(method, methods.Config{Model: mc, DUE: set.DUE, Members: set.Members})
	if err != nil {
		return err
	}
	progress := func(pr model.Progress) {
		if pr.Done {
			report(label)
		}
	}
	if err := m.Fit(ctx, x.d, drugcomb.Split{Train: fit, Val: val}, progress); err != nil {
		return err
	}
	pred, err := m.Predict(x.d.Features, testPairs)
	if err != nil {
		return err
	}
	mean, u, epi := make([]float64, len(pred)), make([]float64, len(pred)), make([]float64, len(pred))
	for k, pr := range pred {
		mean[k], u[k], epi[k] = pr.Mu, pr.SigmaTotal*pr.SigmaTotal, pr.SigmaEpistemic
	}
	store(j.method, mean, u, epi)
	mu.Lock()
	r.Seconds[j.method] = time.Since(t0).Seconds()
	mu.Unlock()
	return nil
}

func hasD(sets []deup.FeatureSet) bool {
	for _, s := range sets {
		if s&deup.FeatD != 0 {
			return true
		}
	}
	return false
}

// errorMLP is the error predictor of every deup-<features> row: a small
// MLP on the log losses (deup.LogErrors standardizes nothing; mlp does).
func errorMLP(seed uint64) mlp.Config {
	return mlp.Config{Hidden: []int{32, 32}, Epochs: 300, LR: 1e-3, WeightDecay: 1e-4, BatchSize: 256, Seed: seed}
}

// mcdFitter is DEUP's main predictor and variance source: the MC-Dropout
// two-tower network of package model.
type mcdFitter struct {
	x      *Experiment
	label  string
	report func(string)
}

func (f mcdFitter) Fit(ctx context.Context, train, val []int, seed uint64) (ood.MainModel, error) {
	mc := f.x.set.Model
	mc.Seed = seed
	m := model.NewMCDropout(mc, f.x.set.Dropout, f.x.set.Passes)
	if err := m.Fit(ctx, f.x.d, drugcomb.Split{Train: train, Val: val}, nil); err != nil {
		return nil, err
	}
	f.report(f.label)
	return mcdModel{f.x.d, m}, nil
}

type mcdModel struct {
	d *model.Dataset
	m *model.MCDropout
}

func (m mcdModel) Predict(idx []int) (mean, variance []float64, err error) {
	ps := make([]model.PairRef, len(idx))
	for k, i := range idx {
		ps[k] = m.d.Pairs[i]
	}
	pred, err := m.m.Predict(m.d.Features, ps)
	if err != nil {
		return nil, nil, err
	}
	mean, variance = make([]float64, len(pred)), make([]float64, len(pred))
	for k, p := range pred {
		mean[k], variance[k] = p.Mu, p.SigmaTotal*p.SigmaTotal
	}
	return mean, variance, nil
}

// tanimotoDensity is the d feature for drug pairs: a kernel density of each
// drug among the drugs of the training pairs, in Tanimoto similarity of
// their Morgan fingerprints, q(u) = 1/m sum_t exp(-(1 - T(u, t))/h), and
// log q(a, b) = log q(a) + log q(b).
type tanimotoDensity struct{ x *Experiment }

func (t tanimotoDensity) FitDensity(train []int) (ood.Density, error) {
	return fittedTanimoto{t, slices.Clone(train)}, nil
}

type fittedTanimoto struct {
	t     tanimotoDensity
	train []int
}

func (f fittedTanimoto) LogDensity(idx []int) ([]float64, error) {
	return f.t.logDensity(f.train, idx)
}

func (t tanimotoDensity) logDensity(train, idx []int) ([]float64, error) {
	x := t.x
	h := x.set.Bandwidth
	in := map[int]bool{}
	for _, i := range train {
		in[x.d.Pairs[i].A], in[x.d.Pairs[i].B] = true, true
	}
	if len(in) == 0 {
		return nil, errors.New("tanimoto density on no drugs")
	}
	var drugs []int
	for dr := range in {
		drugs = append(drugs, dr)
	}
	slices.Sort(drugs)
	q := map[int]float64{}
	logq := func(u int) float64 {
		if v, ok := q[u]; ok {
			return v
		}
		// log-sum-exp of -(1 - T)/h over the training drugs.
		best := math.Inf(-1)
		for _, dr := range drugs {
			best = math.Max(best, -(1-x.sim[u][dr])/h)
		}
		var s float64
		for _, dr := range drugs {
			s += math.Exp(-(1-x.sim[u][dr])/h - best)
		}
		v := best + math.Log(s) - math.Log(float64(len(drugs)))
		q[u] = v
		return v
	}
	out := make([]float64, len(idx))
	for k, i := range idx {
		p := x.d.Pairs[i]
		out[k] = logq(p.A) + logq(p.B)
	}
	return out, nil
}
