package model_test

import (
	"context"
	"fmt"

	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/model/onehot"
)

// TestMeanExperiment is the harness behind docs/training.md: the
// leave-drug-combination-out protocol of issue 40 (DeepSynergy's: every
// unordered drug pair, with all its cell lines, in one of 5 folds drawn
// from a seeded permutation of the pairs), DEUP's mean and the one-hot
// reference trained on 4 folds (validation: 30 % of the training folds'
// combinations) and scored on the fifth. It runs only with
// DEUP_EXPERIMENT=mean:
//
//	DEUP_EXPERIMENT=mean DEUP_EXP_SCREEN=panel DEUP_EXP_FOLDS=0 \
//	  DEUP_EXP_METHODS=deup,onehot DEUP_EXP_SET=dropout=0.3 \
//	  go test -run TestMeanExperiment -v -timeout 0 ./model/
//
// DEUP_EXP_SCREEN is panel, PC-3 or MCF7 (almanac/synergy_*.csv);
// DEUP_EXP_FOLDS a list of folds or "all"; DEUP_EXP_SET sets model.Config
// fields (lr, batch, epochs, patience, dropout, warmup, decay, th, to, ch,
// wd), sub=N (a subsample of about N pairs, whole combinations) and id=1
// (a one-hot identity column per drug appended to the fingerprint) and
// idvec=P (model.Config.Identity with IdentityDrop P: learned identity
// vectors dropped with probability P in training) and film=1
// (model.Config.LineFiLM). DEUP
// runs without its novelty hold-out (a separate network, μ′, that does
// not change μ). Each line prints the test fold's Pearson r and RMSE, the
// best validation RMSE and the epochs.
func TestMeanExperiment(t *testing.T) {
	if os.Getenv("DEUP_EXPERIMENT") != "mean" {
		t.Skip("set DEUP_EXPERIMENT=mean to run the mean experiment (docs/training.md)")
	}
	screen := envOr("DEUP_EXP_SCREEN", "panel")
	_, d := loadAlmanac(t, screen)
	set := map[string]string{}
	for _, kv := range strings.Split(os.Getenv("DEUP_EXP_SET"), ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			set[k] = v
		}
	}
	cfg := model.Config{Seed: 1}
	num := func(k string) float64 {
		v, err := strconv.ParseFloat(set[k], 64)
		if set[k] != "" && err != nil {
			t.Fatalf("DEUP_EXP_SET %s=%s: %v", k, set[k], err)
		}
		return v
	}
	cfg.LR, cfg.BatchSize, cfg.MaxEpochs, cfg.Patience = num("lr"), int(num("batch")), int(num("epochs")), int(num("patience"))
	cfg.Dropout, cfg.Warmup, cfg.Decay, cfg.WeightDecay = num("dropout"), int(num("warmup")), set["decay"], num("wd")
	cfg.TowerHidden, cfg.TowerOut, cfg.CombHidden = int(num("th")), int(num("to")), int(num("ch"))
	cfg.LineFiLM = set["film"] == "1"
	if _, ok := set["idvec"]; ok {
		cfg.Identity, cfg.IdentityDrop = true, num("idvec")
	}
	if sub := int(num("sub")); sub > 0 {
		d = subsample(d, sub, 7)
	}
	if set["id"] == "1" {
		d = withIdentity(d)
	}
	folds := combinationFolds(d, 5, 1)
	var which []int
	if f := envOr("DEUP_EXP_FOLDS", "0"); f == "all" {
		which = []int{0, 1, 2, 3, 4}
	} else {
		for _, s := range strings.Split(f, ",") {
			k, err := strconv.Atoi(s)
			if err != nil || k < 0 || k >= 5 {
				t.Fatalf("DEUP_EXP_FOLDS %q", f)
			}
			which = append(which, k)
		}
	}
	t.Logf("screen %s: %d pairs, %d lines; set %v", screen, len(d.Pairs), d.Lines(), set)
	for _, name := range strings.Split(envOr("DEUP_EXP_METHODS", "deup,onehot"), ",") {
		var sr, srmse float64
		for _, k := range which {
			split := innerSplit(d, folds, k, 0.3, 1)
			d := d
			if set["prof"] == "1" {
				d = withProfile(d, split.Train)
			}
			var m model.Method
			switch name {
			case "deup":
				m = deupnet.New(deupnet.Config{Config: cfg, Options: deupnet.Options{NoveltyHoldout: -1}})
			case "onehot":
				m = onehot.New(onehot.Config{Config: cfg})
			case "mu":
				m = model.NewEnsemble(cfg, 1, false)
			default:
				t.Fatalf("unknown method %q", name)
			}
			var last, done model.Progress
			start := time.Now()
			err := m.Fit(context.Background(), d, split, func(p model.Progress) {
				if p.Done {
					done = p
				} else if p.Epoch == p.BestEpoch {
					last = p
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			pred, err := m.Predict(d.Features, d.PairsAt(split.Test))
			if err != nil {
				t.Fatal(err)
			}
			y, mu := make([]float64, len(pred)), make([]float64, len(pred))
			s := 0.0
			for i, p := range pred {
				y[i], mu[i] = d.Y[split.Test[i]], p.Mu
				s += (p.Mu - y[i]) * (p.Mu - y[i])
			}
			r, rmse := pearsonOf(y, mu), math.Sqrt(s/float64(len(y)))
			sr += r
			srmse += rmse
			t.Logf("%-7s fold %d: r %.4f rmse %.3f | val-rmse %.3f best epoch %d of %d (cap %d) | train %d val %d test %d | %.0f s",
				name, k, r, rmse, last.ValRMSE, done.BestEpoch, done.Epoch, done.MaxEpochs, len(split.Train), len(split.Val), len(split.Test), time.Since(start).Seconds())
		}
		n := float64(len(which))
		t.Logf("%-7s mean of %d folds: r %.4f rmse %.3f", name, len(which), sr/n, srmse/n)
	}
}

// TestBudgetExperiment is the training-fit table of docs/training.md:
// on fold 0 of the combination folds (validation as in
// TestMeanExperiment), the best validation RMSE of μ (one network, the
// ensemble's MSE training) with main's defaults (the one-line settings,
// or Config.Panel on several lines), with the rule (Config.Budget), and
// with a 4× longer budget than the rule's (4× patience and epoch cap) at
// DEUP_EXP_LRS times its learning rate (default 0.5,1,2); DEUP_EXP_RUNS
// picks the runs (below). DEUP_EXPERIMENT=budget; DEUP_EXP_SCREEN
// (panel, PC-3, MCF7, or dir:DIR for a screen stored by deup data
// import) and DEUP_EXP_SET (sub=N) as in TestMeanExperiment.
func TestBudgetExperiment(t *testing.T) {
	if os.Getenv("DEUP_EXPERIMENT") != "budget" {
		t.Skip("set DEUP_EXPERIMENT=budget to run the training-budget experiment (docs/training.md)")
	}
	screen := envOr("DEUP_EXP_SCREEN", "PC-3")
	var d *model.Dataset
	if dir, ok := strings.CutPrefix(screen, "dir:"); ok {
		d = loadScreenDir(t, dir)
	} else {
		_, d = loadAlmanac(t, screen)
	}
	if sub, _ := strconv.Atoi(strings.TrimPrefix(os.Getenv("DEUP_EXP_SET"), "sub=")); sub > 0 {
		d = subsample(d, sub, 7)
	}
	split := innerSplit(d, combinationFolds(d, 5, 1), 0, 0.3, 1)
	n := len(split.Train)
	// main: what deup train and bench give a screen today (the one-line
	// defaults, or the panel constants on a screen of several lines);
	// rule: model.Config.Budget.
	main := model.Config{Seed: 1}
	if len(d.LineNames) > 1 {
		main = main.Panel()
	}
	main = main.WithDefaults()
	rule := model.Config{Seed: 1}.Budget(n).WithDefaults()
	run := func(c model.Config) (float64, model.Progress) {
		m := model.NewEnsemble(c, 1, false)
		best, done := math.Inf(1), model.Progress{}
		if err := m.Fit(context.Background(), d, split, func(p model.Progress) {
			if p.Done {
				done = p
			} else if p.ValRMSE < best {
				best = p.ValRMSE
			}
		}); err != nil {
			t.Fatal(err)
		}
		return best, done
	}
	steps := func(c model.Config) int { return (n + c.BatchSize - 1) / c.BatchSize }
	t.Logf("%s: %d pairs, %d lines, train %d, val %d", screen, len(d.Pairs), len(d.LineNames), n, len(split.Val))
	// DEUP_EXP_RUNS picks the runs: main and rule (the two defaults),
	// half (the rule at half its learning rate) and sweep (4× the rule's
	// patience and cap at DEUP_EXP_LRS times its rate), each at the seeds
	// of DEUP_EXP_SEEDS (default 1: the seed draws the network's
	// initialisation and batch order; the folds stay seed 1's).
	runs := map[string]bool{}
	for _, r := range strings.Split(envOr("DEUP_EXP_RUNS", "main,rule,sweep"), ",") {
		runs[r] = true
	}
	var seeds []uint64
	for _, f := range strings.Split(envOr("DEUP_EXP_SEEDS", "1"), ",") {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			t.Fatalf("DEUP_EXP_SEEDS: %v", err)
		}
		seeds = append(seeds, v)
	}
	type config struct {
		name string
		c    model.Config
	}
	half := rule
	half.LR = rule.LR / 2
	var cs []config
	for _, v := range []config{{"main", main}, {"rule", rule}, {"half", half}} {
		if runs[v.name] {
			cs = append(cs, v)
		}
	}
	if runs["sweep"] {
		for _, fs := range strings.Split(envOr("DEUP_EXP_LRS", "0.5,1,2"), ",") {
			f, err := strconv.ParseFloat(fs, 64)
			if err != nil {
				t.Fatalf("DEUP_EXP_LRS: %v", err)
			}
			c := rule
			c.LR, c.Patience, c.MaxEpochs = rule.LR*f, 4*rule.Patience, 4*rule.MaxEpochs
			cs = append(cs, config{fmt.Sprintf("4× budget, lr %.2g", c.LR), c})
		}
	}
	first, mean := map[string]float64{}, map[string]float64{}
	best1, bestM := math.Inf(1), math.Inf(1)
	for _, v := range cs {
		sum := 0.0
		for i, seed := range seeds {
			c := v.c
			c.Seed = seed
			start := time.Now()
			r, p := run(c)
			sum += r
			if i == 0 {
				first[v.name] = r
				best1 = min(best1, r)
			}
			t.Logf("  %s, seed %d: batch %d lr %.2g patience %d cap %d (%d steps/epoch): val RMSE %.3f, best epoch %d of %d, %.0f s",
				v.name, seed, c.BatchSize, c.LR, c.Patience, c.MaxEpochs, steps(c), r, p.BestEpoch, p.Epoch, time.Since(start).Seconds())
		}
		mean[v.name] = sum / float64(len(seeds))
		bestM = min(bestM, mean[v.name])
		if len(seeds) > 1 {
			t.Logf("  %s: mean of %d seeds %.3f", v.name, len(seeds), mean[v.name])
		}
	}
	for _, name := range []string{"main", "rule", "half"} {
		if v, ok := first[name]; ok {
			t.Logf("%s: %s default / best: seed %d %.4f; mean of %d seeds %.4f", screen, name, seeds[0], v/best1, len(seeds), mean[name]/bestM)
		}
	}
}

// loadScreenDir reads a screen stored by deup data import (its first
// score) with radius-3 1024-bit Morgan features; pairs with a drug
// without a usable structure are left out, as deup train leaves them.
func loadScreenDir(tb testing.TB, dir string) *model.Dataset {
	tb.Helper()
	sc, err := drugcomb.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	x, err := features.ForScreen(sc, features.Config{Kind: features.Fingerprint}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := model.NewDataset(x.Screen, x.Features, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func pearsonOf(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// combos groups the pairs of d by unordered drug pair, the groups in a
// permutation drawn from seed.
func combos(d *model.Dataset, seed, stream uint64) [][]int {
	by := map[[2]int][]int{}
	for i, p := range d.Pairs {
		a, b := min(p.A, p.B), max(p.A, p.B)
		by[[2]int{a, b}] = append(by[[2]int{a, b}], i)
	}
	keys := make([][2]int, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	rng := rand.New(rand.NewPCG(seed, stream))
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	out := make([][]int, len(keys))
	for i, k := range keys {
		out[i] = by[k]
	}
	return out
}

// combinationFolds puts the k-th combination of the permutation in fold
// k mod K.
func combinationFolds(d *model.Dataset, K int, seed uint64) [][]int {
	folds := make([][]int, K)
	for i, c := range combos(d, seed, 0x666f6c64) {
		folds[i%K] = append(folds[i%K], c...)
	}
	return folds
}

// innerSplit tests fold k and splits the other folds' combinations into
// training and a validation share val.
func innerSplit(d *model.Dataset, folds [][]int, k int, val float64, seed uint64) drugcomb.Split {
	in := map[int]bool{}
	for j, f := range folds {
		if j == k {
			continue
		}
		for _, i := range f {
			in[i] = true
		}
	}
	var s drugcomb.Split
	s.Test = append(s.Test, folds[k]...)
	cs := combos(d, seed, 0x76616c)
	var kept [][]int
	for _, c := range cs {
		if in[c[0]] {
			kept = append(kept, c)
		}
	}
	nv := int(math.Round(val * float64(len(kept))))
	for i, c := range kept {
		if i < nv {
			s.Val = append(s.Val, c...)
		} else {
			s.Train = append(s.Train, c...)
		}
	}
	return s
}

// subsample keeps whole combinations, in a permutation drawn from seed,
// until about n pairs.
func subsample(d *model.Dataset, n int, seed uint64) *model.Dataset {
	o := &model.Dataset{Features: d.Features, LineNames: d.LineNames, LineFeatures: d.LineFeatures}
	for _, c := range combos(d, seed, 0x737562) {
		if len(o.Pairs) >= n {
			break
		}
		for _, i := range c {
			o.Pairs = append(o.Pairs, d.Pairs[i])
			o.Y = append(o.Y, d.Y[i])
			o.N = append(o.N, d.N[i])
			o.Var = append(o.Var, d.Var[i])
		}
	}
	return o
}

// withIdentity appends a one-hot identity column per drug to the
// fingerprints (as a "fp+sig" matrix whose signature is the identity).
func withIdentity(d *model.Dataset) *model.Dataset {
	f := d.Features
	nd := f.NumDrugs()
	g := &model.Features{Config: f.Config, IDs: f.IDs, RowPtr: []int{0}}
	g.Config.Kind, g.Config.SigDim = "fp+sig", nd
	for i := 0; i < nd; i++ {
		g.Col = append(g.Col, f.Col[f.RowPtr[i]:f.RowPtr[i+1]]...)
		g.Val = append(g.Val, f.Val[f.RowPtr[i]:f.RowPtr[i+1]]...)
		g.Col = append(g.Col, int32(f.Config.Dim()+i))
		g.Val = append(g.Val, 1)
		g.RowPtr = append(g.RowPtr, len(g.Col))
	}
	o := *d
	o.Features = g
	return &o
}

// withProfile appends to each drug's features its response profile: for
// every cell line, the shrunk mean score of the train pairs with the drug
// on that line minus the line's mean (shrinkage: 5 pseudo-pairs at the
// line's mean), over the train pairs' score sd; 0 where the drug has no
// train pair on the line. Only the rows of train enter it.
func withProfile(d *model.Dataset, train []int) *model.Dataset {
	f := d.Features
	nd, nl := f.NumDrugs(), d.Lines()
	lineSum, lineN := make([]float64, nl), make([]float64, nl)
	sum, cnt := make([]float64, nd*nl), make([]float64, nd*nl)
	var s1, s2 float64
	for _, i := range train {
		p, y := d.Pairs[i], d.Y[i]
		lineSum[p.Line] += y
		lineN[p.Line]++
		s1 += y
		s2 += y * y
		for _, dr := range []int{p.A, p.B} {
			sum[dr*nl+p.Line] += y
			cnt[dr*nl+p.Line]++
		}
	}
	n := float64(len(train))
	sd := math.Sqrt(s2/n - (s1/n)*(s1/n))
	g := &model.Features{Config: f.Config, IDs: f.IDs, RowPtr: []int{0}}
	g.Config.Kind, g.Config.SigDim = "fp+sig", nl
	for i := 0; i < nd; i++ {
		g.Col = append(g.Col, f.Col[f.RowPtr[i]:f.RowPtr[i+1]]...)
		g.Val = append(g.Val, f.Val[f.RowPtr[i]:f.RowPtr[i+1]]...)
		for l := 0; l < nl; l++ {
			if cnt[i*nl+l] == 0 || lineN[l] == 0 {
				continue
			}
			lm := lineSum[l] / lineN[l]
			v := ((sum[i*nl+l]+5*lm)/(cnt[i*nl+l]+5) - lm) / sd
			g.Col = append(g.Col, int32(f.Config.Dim()+l))
			g.Val = append(g.Val, float32(v))
		}
		g.RowPtr = append(g.RowPtr, len(g.Col))
	}
	o := *d
	o.Features = g
	return &o
}
