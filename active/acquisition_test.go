package active

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestExpectedImprovement(t *testing.T) {
	// Hand-computed with Phi(1)=0.8413447461, phi(1)=0.2419707245,
	// Phi(-0.5)=0.3085375387, phi(-0.5)=0.3520653268, phi(0)=0.3989422804.
	cases := []struct {
		name              string
		mu, sigma, target float64
		want              float64
	}{
		{"one sigma above", 1, 1, 0, 0.8413447461 + 0.2419707245},
		{"at target", 0, 1, 0, 0.3989422804},
		{"below target", -1, 2, 0, -0.3085375387 + 2*0.3520653268},
		{"no sigma above", 3, 0, 1, 2},
		{"no sigma below", 0, 0, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ExpectedImprovement(c.mu, c.sigma, c.target)
			if math.Abs(got-c.want) > 1e-9 {
				t.Errorf("EI(%v,%v,%v) = %.10f, want %.10f", c.mu, c.sigma, c.target, got, c.want)
			}
		})
	}
}

func TestScores(t *testing.T) {
	preds := []SurrogatePrediction{
		{Mu: 10, SigmaEpistemic: 1},
		{Mu: 8, SigmaEpistemic: 3},
		{Mu: -1, SigmaEpistemic: 2},
	}
	cases := []struct {
		name string
		acq  string
		best float64
		want []float64
	}{
		// 10+2*1, 8+2*3, -1+2*2
		{"ucb default kappa 2", "ucb", 0, []float64{12, 14, 3}},
		{"ucb kappa 0.5", "ucb:0.5", 0, []float64{10.5, 9.5, 0}},
		{"greedy", "greedy", 0, []float64{10, 8, -1}},
		{"explore", "explore", 0, []float64{1, 3, 2}},
		// best 9: d = 1, -1, -10 over sigma 1, 3, 2.
		// EI1 = 1*Phi(1)+phi(1) = 1.0833154706
		// EI2 = -Phi(-1/3)+3*phi(1/3) = -0.3694413402+3*0.3773832277 = 0.7627083429
		// EI3 = -10*Phi(-5)+2*phi(5) = -2.866515719e-6 + 2.973439031e-6 = 1.06923312e-7
		{"ei best 9", "ei", 9, []float64{1.0833154706, 0.7627083429, 1.06923312e-7}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := ParseAcquisition(c.acq)
			if err != nil {
				t.Fatal(err)
			}
			got, err := a.Scores(nil, preds, c.best, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if math.Abs(got[i]-c.want[i]) > 1e-9 {
					t.Errorf("score[%d] = %.10g, want %.10g", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestScoresSeeded(t *testing.T) {
	preds := []SurrogatePrediction{{Mu: 10, SigmaEpistemic: 1}, {Mu: 8, SigmaEpistemic: 3}, {Mu: -1, SigmaEpistemic: 0}}
	t.Run("thompson", func(t *testing.T) {
		a, _ := ParseAcquisition("thompson")
		got, err := a.Scores(nil, preds, 0, rand.New(rand.NewPCG(7, 8)))
		if err != nil {
			t.Fatal(err)
		}
		// The same draws replayed from the same seed: mu + sigma*z.
		r := rand.New(rand.NewPCG(7, 8))
		for i, p := range preds {
			want := p.Mu + p.SigmaEpistemic*r.NormFloat64()
			if got[i] != want {
				t.Errorf("score[%d] = %v, want %v", i, got[i], want)
			}
		}
		if got[2] != -1 {
			t.Errorf("sigma 0 must give mu exactly, got %v", got[2])
		}
		again, _ := a.Scores(nil, preds, 0, rand.New(rand.NewPCG(7, 8)))
		if !reflect.DeepEqual(got, again) {
			t.Errorf("same seed gave %v then %v", got, again)
		}
	})
	t.Run("thompson moments", func(t *testing.T) {
		// Mean and sd of 20000 draws from N(8, 3^2): within 4 standard errors.
		a, _ := ParseAcquisition("thompson")
		r := rand.New(rand.NewPCG(1, 1))
		const n = 20000
		var s, s2 float64
		for i := 0; i < n; i++ {
			v, _ := a.Scores(nil, preds[1:2], 0, r)
			s += v[0]
			s2 += v[0] * v[0]
		}
		mean := s / n
		sd := math.Sqrt(s2/n - mean*mean)
		if math.Abs(mean-8) > 4*3/math.Sqrt(n) || math.Abs(sd-3) > 0.1 {
			t.Errorf("mean %v sd %v, want 8 and 3", mean, sd)
		}
	})
	t.Run("random", func(t *testing.T) {
		a, _ := ParseAcquisition("random")
		got, err := a.Scores(nil, preds, 0, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		for i := range preds {
			if want := r.Float64(); got[i] != want {
				t.Errorf("score[%d] = %v, want %v", i, got[i], want)
			}
		}
	})
	t.Run("needs rand", func(t *testing.T) {
		a, _ := ParseAcquisition("thompson")
		if _, err := a.Scores(nil, preds, 0, nil); err == nil {
			t.Error("thompson without a random source: want an error")
		}
	})
}

func TestScoresRejectNaN(t *testing.T) {
	a, _ := ParseAcquisition("ucb")
	for _, p := range []SurrogatePrediction{{Mu: math.NaN()}, {SigmaEpistemic: math.NaN()}, {SigmaEpistemic: -1}} {
		if _, err := a.Scores(nil, []SurrogatePrediction{{}, p}, 0, nil); err == nil {
			t.Errorf("prediction %+v: want an error", p)
		}
	}
}

func TestParseAcquisition(t *testing.T) {
	cases := []struct {
		in      string
		want    Acquisition
		wantErr bool
	}{
		{"ucb", Acquisition{Kind: UCB, Kappa: 2}, false},
		{"UCB:1.5", Acquisition{Kind: UCB, Kappa: 1.5}, false},
		{"ei", Acquisition{Kind: EI}, false},
		{"ei:0.1", Acquisition{Kind: EI, Xi: 0.1}, false},
		{"thompson", Acquisition{Kind: Thompson}, false},
		{"greedy", Acquisition{Kind: Greedy}, false},
		{"explore", Acquisition{Kind: Explore}, false},
		{"random", Acquisition{Kind: Random}, false},
		{"ucb:x", Acquisition{}, true},
		{"ucb:-1", Acquisition{}, true},
		{"ucb:NaN", Acquisition{}, true},
		{"greedy:1", Acquisition{}, true},
		{"bogus", Acquisition{}, true},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseAcquisition(c.in)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, c.wantErr)
			}
			if got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
			if err == nil {
				back, err := ParseAcquisition(got.String())
				if err != nil || back != got {
					t.Errorf("round trip %q -> %+v, %v", got.String(), back, err)
				}
			}
		})
	}
}

func TestSelectBatch(t *testing.T) {
	pairs := []PairOnLine{
		{A: 0, B: 1}, // score 9
		{A: 0, B: 2}, // score 8
		{A: 0, B: 3}, // score 7
		{A: 1, B: 2}, // score 7 (tie with index 2: lower index first)
		{A: 2, B: 3}, // score 1
		{A: 4, B: 5}, // score 0
	}
	scores := []float64{9, 8, 7, 7, 1, 0}
	cases := []struct {
		name       string
		b, perDrug int
		want       []int
	}{
		{"top 3 no rule", 3, 0, []int{0, 1, 2}},
		{"ties by index", 4, 0, []int{0, 1, 2, 3}},
		// k=1: (0,1) uses 0,1; (0,2),(0,3),(1,2) blocked; (2,3) ok; (4,5) ok.
		{"each drug once", 6, 1, []int{0, 4, 5}},
		// k=2: (0,1),(0,2) -> drug 0 twice; (0,3) blocked; (1,2) ok -> 1,2 twice; (2,3) blocked; (4,5) ok.
		{"each drug twice", 6, 2, []int{0, 1, 3, 5}},
		{"batch larger than pool", 10, 0, []int{0, 1, 2, 3, 4, 5}},
		{"empty batch", 0, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := SelectBatch(pairs, scores, c.b, c.perDrug)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("SelectBatch(b=%d,k=%d) = %v, want %v", c.b, c.perDrug, got, c.want)
			}
		})
	}
}

// TestExploreWeight: the blend (1-w) r(score) + w r(sigma_epistemic) by
// hand. Four candidates, ucb:2 scores 12, 14, 3, 14 (mu + 2 sigma) have
// mid-ranks 1/3, 5/6, 0, 5/6 (the tie 14 shares ranks 2 and 3 of 0..3,
// scaled by 3); sigma 1, 3, 4, 0 ranks 1/3, 2/3, 1, 0.
func TestExploreWeight(t *testing.T) {
	preds := []SurrogatePrediction{
		{Mu: 10, SigmaEpistemic: 1},
		{Mu: 8, SigmaEpistemic: 3},
		{Mu: -5, SigmaEpistemic: 4},
		{Mu: 14, SigmaEpistemic: 0},
	}
	rs := []float64{1.0 / 3, 5.0 / 6, 0, 5.0 / 6}
	rsig := []float64{1.0 / 3, 2.0 / 3, 1, 0}
	for _, c := range []struct {
		acq  string
		w    float64
		want []float64
	}{
		{"ucb", 0, []float64{12, 14, 3, 14}}, // off: the raw scores, unchanged
		{"ucb", 0.5, []float64{(rs[0] + rsig[0]) / 2, (rs[1] + rsig[1]) / 2, (rs[2] + rsig[2]) / 2, (rs[3] + rsig[3]) / 2}},
		{"ucb", 1, rsig},                        // ranks like explore
		{"explore", 0.5, []float64{1, 3, 4, 0}}, // explore ignores it
		// greedy: mu 10, 8, -5, 14 ranks 2/3, 1/3, 0, 1; w 0.25.
		{"greedy", 0.25, []float64{0.75*2/3 + 0.25*rsig[0], 0.75/3 + 0.25*rsig[1], 0.25 * rsig[2], 0.75 + 0.25*rsig[3]}},
	} {
		a, err := ParseAcquisition(c.acq)
		if err != nil {
			t.Fatal(err)
		}
		a.ExploreWeight = c.w
		got, err := a.Scores(nil, preds, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("%s explore %g: scores %v, want %v", c.acq, c.w, got, c.want)
				break
			}
		}
	}
	// Random keeps its draws.
	r := Acquisition{Kind: Random}
	plain, _ := r.Scores(nil, preds, 0, rand.New(rand.NewPCG(1, 2)))
	r.ExploreWeight = 1
	blended, _ := r.Scores(nil, preds, 0, rand.New(rand.NewPCG(1, 2)))
	if !reflect.DeepEqual(plain, blended) {
		t.Errorf("random with explore 1: %v, want its draws %v", blended, plain)
	}
	for _, w := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		if err := CheckExplore(w); err == nil {
			t.Errorf("CheckExplore(%v): no error", w)
		}
		a := Acquisition{Kind: UCB, Kappa: 2, ExploreWeight: w}
		if _, err := a.Scores(nil, preds, 0, nil); err == nil {
			t.Errorf("Scores with explore %v: no error", w)
		}
	}
}

// TestExploreBatchSigma: what the blend guarantees. For the best B of
// h_w = (1-w) r(score) + w r(sigma), the batch's summed r(sigma) never
// falls as w rises: with S1 best for w1 < w2 and S2 best for w2,
// h_w1(S1) >= h_w1(S2) and h_w2(S2) >= h_w2(S1) give
// (w2 - w1)(r_sigma(S2) - r_sigma(S1)) >= 0. 300 seeded candidates, mu and
// sigma drawn independently, batches of 20 (no per-drug cap), w from 0 to 1
// by 0.1, for UCB, EI and greedy.
func TestExploreBatchSigma(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 9))
	preds := make([]SurrogatePrediction, 300)
	pairs := make([]PairOnLine, len(preds))
	sig := make([]float64, len(preds))
	for i := range preds {
		preds[i] = SurrogatePrediction{Mu: 10 * rng.NormFloat64(), SigmaEpistemic: math.Abs(5 * rng.NormFloat64())}
		pairs[i] = PairOnLine{A: i, B: i + 1}
		sig[i] = preds[i].SigmaEpistemic
	}
	rsig := midRanks(sig)
	for _, name := range []string{"ucb", "ei", "greedy"} {
		a, err := ParseAcquisition(name)
		if err != nil {
			t.Fatal(err)
		}
		prev := math.Inf(-1)
		var sums []float64
		for k := 0; k <= 10; k++ {
			a.ExploreWeight = float64(k) / 10
			scores, err := a.Scores(nil, preds, 5, nil)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for _, i := range SelectBatch(pairs, scores, 20, 0) {
				sum += rsig[i]
			}
			sums = append(sums, sum)
			if sum < prev-1e-9 {
				t.Errorf("%s: summed r(sigma) of the batch falls from %v to %v at explore %v", name, prev, sum, a.ExploreWeight)
			}
			prev = sum
		}
		// At w = 1 the batch is the 20 largest sigmas: r = 280/299 … 299/299.
		if want := float64(280+299) * 20 / 2 / 299; math.Abs(sums[10]-want) > 1e-9 {
			t.Errorf("%s: explore 1: summed r(sigma) %v, want %v", name, sums[10], want)
		}
		if sums[0] >= sums[10] {
			t.Errorf("%s: summed r(sigma) %v: explore 1 no higher than 0", name, sums)
		}
	}
}
