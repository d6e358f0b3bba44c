package ood_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/deup/deuptest"
	"github.com/deup-screening/deup/deup/mlp"
	"github.com/deup-screening/deup/gp"
	"github.com/deup-screening/deup/ood"
)

func TestRejectionCurve(t *testing.T) {
	r := ood.RejectionFractions()
	at := func(c []float64, frac float64) float64 {
		j := slices.Index(r, frac)
		if j < 0 {
			t.Fatalf("no fraction %v", frac)
		}
		return c[j]
	}
	// Hand-computed: losses 1..4 (mean 2.5), uncertainty in the same order.
	// Rejecting 25 % drops loss 4: kept mean 2 -> 0.8; 50 %: 1.5 -> 0.6.
	c := ood.RejectionCurve([]float64{1, 2, 3, 4}, []float64{1, 2, 3, 4})
	for _, tc := range []struct{ frac, want float64 }{{0, 1}, {0.25, 0.8}, {0.5, 0.6}, {0.75, 0.4}} {
		if got := at(c, tc.frac); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ordered: curve at %v = %v, want %v", tc.frac, got, tc.want)
		}
	}
	// Reversed ranking: rejecting 25 % drops loss 1 -> kept mean 3 -> 1.2.
	c = ood.RejectionCurve([]float64{4, 3, 2, 1}, []float64{1, 2, 3, 4})
	if got := at(c, 0.25); math.Abs(got-1.2) > 1e-12 {
		t.Errorf("reversed: curve at 0.25 = %v, want 1.2", got)
	}
	// A constant uncertainty is one tied block: 1 everywhere, whatever the
	// order of the losses.
	c = ood.RejectionCurve([]float64{7, 7, 7, 7, 7}, []float64{5, 0, 1, 9, 3})
	for j, v := range c {
		if math.Abs(v-1) > 1e-12 {
			t.Fatalf("constant uncertainty: curve[%d] = %v, want 1", j, v)
		}
	}
	if a := ood.RejectionAUC([]float64{7, 7, 7}, []float64{1, 2, 3}); math.Abs(a-1) > 1e-12 {
		t.Errorf("constant uncertainty: AUC %v, want 1", a)
	}
	// Ties at the cut: uncertainty {1, 2, 2} with losses {1, 0, 4}; rejecting
	// a third removes one unit of the tied block, whose mean loss is 2:
	// kept = 1 + 2 = 3 over 2 examples -> 1.5 / (5/3) = 0.9.
	c = ood.RejectionCurve([]float64{1, 2, 2}, []float64{1, 0, 4})
	if got := c[33]; math.Abs(got-0.9) > 1e-12 {
		t.Errorf("tie at the cut: curve at 0.33 = %v, want 0.9", got)
	}
	if c := ood.RejectionCurve([]float64{1, 2}, []float64{0, 0}); !math.IsNaN(c[0]) {
		t.Errorf("zero losses: curve %v, want NaN", c[0])
	}
}

func TestGroupFolds(t *testing.T) {
	// 40 examples, each with two of 12 groups (like drug pairs).
	rng := rand.New(rand.NewPCG(3, 3))
	p := &ood.Problem{}
	var train []int
	for i := 0; i < 40; i++ {
		a, b := rng.IntN(12), rng.IntN(12)
		p.Y = append(p.Y, float64(i))
		p.Groups = append(p.Groups, []int{a, b})
		train = append(train, i)
	}
	folds, err := ood.GroupFolds(p, train, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := ood.GroupFolds(p, train, 4, 1)
	if !slices.EqualFunc(folds, again, slices.Equal[[]int]) {
		t.Error("same seed, different folds")
	}
	seen := map[int]int{}
	for f, gs := range folds {
		if len(gs) == 0 {
			t.Errorf("fold %d is empty", f)
		}
		for _, g := range gs {
			seen[g]++
		}
		out, rest := ood.HeldOut(p, train, gs)
		if len(out)+len(rest) != len(train) {
			t.Errorf("fold %d: %d + %d != %d", f, len(out), len(rest), len(train))
		}
		for _, i := range rest {
			for _, g := range p.Groups[i] {
				if slices.Contains(gs, g) {
					t.Errorf("fold %d: training example %d has held-out group %d", f, i, g)
				}
			}
		}
		for _, i := range out {
			if !slices.Contains(gs, p.Groups[i][0]) && !slices.Contains(gs, p.Groups[i][1]) {
				t.Errorf("fold %d: held-out example %d has no held-out group", f, i)
			}
		}
	}
	for g, n := range seen {
		if n != 1 {
			t.Errorf("group %d in %d folds", g, n)
		}
	}
	if _, err := ood.GroupFolds(p, train[:1], 4, 1); err == nil {
		t.Error("2 groups for 4 folds: no error")
	}
}

// gapProblem samples deuptest.WaveTruth on [0, 4] with noise sd 0.05, in
// 16 groups of width 0.25: the test examples are every example in the gap
// [1.5, 2.5) (out of distribution: about two periods of the wave that no
// model fitted outside can infer) and 30 % of the others (in
// distribution); the training examples are the rest. The folds hold out
// intervals of the training range, where the main predictor errs as it
// does in the gap.
func gapProblem(n int, seed uint64) (p *ood.Problem, train, test []int, isOOD []bool) {
	rng := rand.New(rand.NewPCG(seed, 7))
	p = &ood.Problem{}
	for i := 0; i < n; i++ {
		x := 4 * rng.Float64()
		p.Y = append(p.Y, deuptest.WaveTruth(x)+0.05*rng.NormFloat64())
		p.X = append(p.X, []float64{x})
		p.Groups = append(p.Groups, []int{int(x / 0.25)})
		switch {
		case x >= 1.5 && x < 2.5:
			test, isOOD = append(test, i), append(isOOD, true)
		case rng.Float64() < 0.3:
			test, isOOD = append(test, i), append(isOOD, false)
		default:
			train = append(train, i)
		}
	}
	return p, train, test, isOOD
}

func TestRunFindsTheGap(t *testing.T) {
	p, train, test, isOOD := gapProblem(300, 1)
	sets := []deup.FeatureSet{deup.FeatD, deup.FeatV, deup.FeatD | deup.FeatV, deup.FeatD | deup.FeatV | deup.FeatB}
	events := 0
	cfg := ood.Config{
		Folds:   4,
		Main:    ood.RowFitter{Inputs: p.X, Targets: p.Y, Learner: deup.GP{Config: gp.FitConfig{Family: gp.Matern52, Standardize: true, Seed: 1}}},
		Density: ood.RowKDE{Inputs: p.X},
		Error:   mlp.Learner{Config: mlp.Config{Hidden: []int{32, 32}, Epochs: 300, Seed: 1}},
		Seed:    1,
		Progress: func(e ood.Event) {
			events++
			if e.Done != events || e.Total != 5 {
				t.Errorf("event %+v, want done %d of 5", e, events)
			}
		},
	}
	res, err := ood.Run(context.Background(), p, train, test, sets, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if events != 5 {
		t.Errorf("%d progress events, want 5 (4 folds + final)", events)
	}
	kinds := map[ood.Kind]int{}
	for _, e := range res.Errors {
		kinds[e.Kind]++
		if e.Seen != (e.Kind == ood.InSample) {
			t.Fatalf("entry %+v: seen bit", e)
		}
	}
	if kinds[ood.OutOfGroup] == 0 || kinds[ood.InGroup] == 0 || kinds[ood.InSample] == 0 {
		t.Errorf("D_e kinds %v: want all three", kinds)
	}
	loss := make([]float64, len(res.Final))
	for j, e := range res.Final {
		loss[j] = e.Loss
	}
	// The final model's own variance (the GP's) as a reference.
	v := make([]float64, len(res.Final))
	for j, e := range res.Final {
		v[j] = e.LogVariance
	}
	ref := ood.Score(v, loss, isOOD)
	t.Logf("GP variance: %+v", ref)
	for k, s := range sets {
		sc := ood.Score(res.Uncertainty[k], loss, isOOD)
		t.Logf("deup-%s: %+v", s, sc)
		// The gap's errors are orders of magnitude above the noise: every
		// stationarizing feature set must rank them first.
		if !(sc.AUROC > 0.9) || !(sc.SRCC > 0.5) || !(sc.RejectionAUC < 0.5) {
			t.Errorf("deup-%s: %+v, want AUROC > 0.9, SRCC > 0.5, rejection AUC < 0.5", s, sc)
		}
	}
	// Same seed, same numbers.
	res2, err := ood.Run(context.Background(), p, train, test, sets[:1], ood.Config{Folds: 4, Main: cfg.Main, Density: cfg.Density, Error: cfg.Error, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Uncertainty[0], res2.Uncertainty[0]) {
		t.Error("same seed gave different uncertainties")
	}
}

func TestRunErrors(t *testing.T) {
	p, train, test, _ := gapProblem(60, 2)
	main := ood.RowFitter{Inputs: p.X, Targets: p.Y, Learner: deup.Linear{}, Variance: deup.Ensemble{Members: []deup.Learner{deup.Linear{}, deup.Linear{Ridge: 1}}}}
	el := deup.Linear{}
	for _, tc := range []struct {
		name  string
		p     *ood.Problem
		train []int
		test  []int
		sets  []deup.FeatureSet
		cfg   ood.Config
	}{
		{"no main", p, train, test, []deup.FeatureSet{deup.FeatV}, ood.Config{Error: el}},
		{"d without density", p, train, test, []deup.FeatureSet{deup.FeatD}, ood.Config{Main: main, Error: el}},
		{"train and test overlap", p, train, append([]int{train[0]}, test...), []deup.FeatureSet{deup.FeatV}, ood.Config{Main: main, Error: el}},
		{"index out of range", p, append([]int{999}, train...), test, []deup.FeatureSet{deup.FeatV}, ood.Config{Main: main, Error: el}},
		{"one fold", p, train, test, []deup.FeatureSet{deup.FeatV}, ood.Config{Folds: 1, Main: main, Error: el}},
		{"NaN target", &ood.Problem{Y: []float64{math.NaN()}, Groups: [][]int{{0}}}, []int{0}, []int{0}, nil, ood.Config{Main: main, Error: el}},
		{"x without X", &ood.Problem{Y: p.Y, Groups: p.Groups}, train, test, []deup.FeatureSet{deup.FeatX}, ood.Config{Main: main, Error: el}},
	} {
		if _, err := ood.Run(context.Background(), tc.p, tc.train, tc.test, tc.sets, tc.cfg); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
