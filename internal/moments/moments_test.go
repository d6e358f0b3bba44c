package moments

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMeanSDRule: the one rule for degenerate samples, and values worked
// out by hand ({2, 4, 4, 4, 5, 5, 7, 9}: mean 5, population sd 2, sample
// sd sqrt(32/7)).
func TestMeanSDRule(t *testing.T) {
	nan := math.NaN()
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	x := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	for _, c := range []struct {
		name           string
		x              []float64
		m, sd, pm, psd float64
	}{
		{"none", nil, nan, nan, nan, nan},
		{"one", []float64{3}, 3, nan, 3, 0},
		{"two equal", []float64{3, 3}, 3, 0, 3, 0},
		{"eight", x, 5, math.Sqrt(32.0 / 7), 5, 2},
		{"NaN propagates", []float64{1, nan}, nan, nan, nan, nan},
	} {
		m, sd := MeanSD(c.x)
		pm, psd := PopMeanSD(c.x)
		if !same(m, c.m) || !same(sd, c.sd) || !same(pm, c.pm) || !same(psd, c.psd) {
			t.Errorf("%s: MeanSD %v, %v; PopMeanSD %v, %v; want %v, %v; %v, %v", c.name, m, sd, pm, psd, c.m, c.sd, c.pm, c.psd)
		}
	}
}

// TestMeanSDBits: the bits of the helpers MeanSD replaced (the sequential
// sum, then sqrt(ss/(n-1)) or sqrt(ss/n)), on random samples.
func TestMeanSDBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	for k := 0; k < 200; k++ {
		x := make([]float64, 2+rng.IntN(40))
		for i := range x {
			x[i] = rng.NormFloat64()*math.Pow(10, float64(rng.IntN(6))) + 100*rng.Float64()
		}
		var m, ss float64
		for _, v := range x {
			m += v
		}
		m /= float64(len(x))
		for _, v := range x {
			d := v - m
			ss += d * d
		}
		gm, gsd := MeanSD(x)
		_, gpsd := PopMeanSD(x)
		if gm != m || gsd != math.Sqrt(ss/float64(len(x)-1)) || gpsd != math.Sqrt(ss/float64(len(x))) {
			t.Fatalf("sample %d: bits differ from the sequential formula", k)
		}
	}
}

// TestFormat: a mean and sd as tables print them (mean alone for one value,
// whose sd MeanSD gives as NaN; the missing mark for no value).
func TestFormat(t *testing.T) {
	for _, c := range []struct {
		name     string
		mean, sd float64
		prec     int
		want     string
	}{
		{"mean and sd", 299.75, 424.617, 1, "299.8 ± 424.6"},
		{"one value", 855.4, math.NaN(), 1, "855.4"},
		{"no value", math.NaN(), math.NaN(), 3, "n/a"},
		{"sd zero", 0.5, 0, 3, "0.500 ± 0.000"},
		{"negative", -5.11, 0.06, 2, "-5.11 ± 0.06"},
	} {
		if got := Format(c.mean, c.sd, c.prec, "n/a"); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
