package data

import (
	"math"
	"sort"
	"testing"
)

func TestSynthDefault(t *testing.T) {
	s, drugs, err := synth(DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(s.Drugs), 60; got != want {
		t.Errorf("drugs = %d, want %d", got, want)
	}
	if got, want := len(s.Pairs), 1800; got != want {
		t.Errorf("pairs = %d, want %d", got, want)
	}
	if got, want := len(s.CellLines), 2; got != want {
		t.Errorf("cell lines = %d, want %d", got, want)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	rare := 0
	for _, d := range drugs {
		if d.rare {
			rare++
		}
	}
	// Rare families must exist but stay a minority.
	if rare < 2 || rare > len(drugs)/4 {
		t.Errorf("%d of %d drugs contain a rare fragment, want 2..%d", rare, len(drugs), len(drugs)/4)
	}
	reps, meas := 0, 0
	for i, p := range s.Pairs {
		meas += p.N
		if p.N > 1 {
			reps++
			if math.IsNaN(p.Var[0]) {
				t.Errorf("pair %d: n=%d but variance NaN", i, p.N)
			}
		} else if !math.IsNaN(p.Var[0]) {
			t.Errorf("pair %d: n=1 but variance %g", i, p.Var[0])
		}
		if v := s.Truth.NoiseVar[i]; !(v >= 1 && v <= 144) {
			t.Errorf("pair %d: true noise variance %g outside [1, 144]", i, v)
		}
	}
	// Strongly heteroscedastic noise: the 95th percentile of the noise sd
	// is several times the 5th (measured, seed 1: 9.04 / 1.27 = 7.1).
	sds := make([]float64, len(s.Pairs))
	for i := range sds {
		sds[i] = math.Sqrt(s.Truth.NoiseVar[i])
	}
	sort.Float64s(sds)
	if lo, hi := sds[len(sds)/20], sds[len(sds)*19/20]; hi < 4*lo {
		t.Errorf("noise sd 5th–95th percentile %.2f–%.2f: not heteroscedastic enough (want a ratio >= 4)", lo, hi)
	}
	// ReplicateFrac 0.3 of 1800 = 540 expected; binomial sd ≈ 19.
	if reps < 450 || reps > 630 {
		t.Errorf("%d replicated pairs, want about 540", reps)
	}
	t.Logf("drugs %d (rare %d), pairs %d, replicated %d, measurements %d", len(s.Drugs), rare, len(s.Pairs), reps, meas)
}

func TestSynthDeterministic(t *testing.T) {
	a, err := Synth(DefaultSynth(7))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Synth(DefaultSynth(7))
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) {
		t.Fatal("same seed gave different screens")
	}
	c, err := Synth(DefaultSynth(8))
	if err != nil {
		t.Fatal(err)
	}
	if a.Drugs[0] == c.Drugs[0] && a.Pairs[0].Mean[0] == c.Pairs[0].Mean[0] {
		t.Fatal("different seeds gave the same screen")
	}
}

// TestSynthNoiseMatchesTruth checks that the replicate variances are draws
// around the true noise variance: E[s^2 / sigma^2] = 1 for the sample
// variance, and with about 540 replicated pairs (chi-square with 1–2
// degrees of freedom) the average ratio has a standard error near 0.05.
func TestSynthNoiseMatchesTruth(t *testing.T) {
	s, err := Synth(DefaultSynth(3))
	if err != nil {
		t.Fatal(err)
	}
	sum, n := 0.0, 0
	var mu []float64
	for i, p := range s.Pairs {
		mu = append(mu, s.Truth.Mean[i])
		if p.N > 1 {
			sum += p.Var[0] / s.Truth.NoiseVar[i]
			n++
		}
	}
	if r := sum / float64(n); math.Abs(r-1) > 0.2 {
		t.Errorf("mean of s^2/sigma^2 over %d replicated pairs = %.3f, want 1 ± 0.2", n, r)
	}
	// The true synergy must vary on the configured scale (Scale 10), or
	// there is nothing to learn.
	m, sd := meanSD(mu)
	if sd < 3 || sd > 40 {
		t.Errorf("true synergy mean %.2f sd %.2f; want sd of the order of Scale = 10", m, sd)
	}
	t.Logf("replicated %d, mean s^2/sigma^2 %.3f; truth mean %.2f sd %.2f", n, sum/float64(n), m, sd)
}

func meanSD(x []float64) (float64, float64) {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return m, math.Sqrt(ss / float64(len(x)-1))
}

// TestSynthInvalid: every out-of-range field is an error, never a default.
func TestSynthInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*SynthConfig)
	}{
		{"one drug", func(c *SynthConfig) { c.Drugs = 1 }},
		{"no cell line", func(c *SynthConfig) { c.CellLines = 0 }},
		{"too many pairs", func(c *SynthConfig) { c.Pairs = c.CellLines*c.Drugs*(c.Drugs-1)/2 + 1 }},
		{"replicate fraction", func(c *SynthConfig) { c.ReplicateFrac = 1.5 }},
		{"max replicates", func(c *SynthConfig) { c.MaxReplicates = 1 }},
		{"latent dim", func(c *SynthConfig) { c.LatentDim = 0 }},
		{"scale", func(c *SynthConfig) { c.Scale = 0 }},
		{"noise range", func(c *SynthConfig) { c.NoiseMax = c.NoiseMin / 2 }},
		{"rare weight", func(c *SynthConfig) { c.RareWeight = 0 }},
		{"rare effect zero", func(c *SynthConfig) { c.RareEffect = 0 }},
		{"rare effect infinite", func(c *SynthConfig) { c.RareEffect = math.Inf(1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultSynth(1)
			tc.edit(&c)
			if _, err := Synth(c); err == nil {
				t.Errorf("%+v: no error", c)
			}
		})
	}
}
