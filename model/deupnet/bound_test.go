package deupnet

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/deup-screening/deup/model"
	"gonum.org/v1/gonum/stat"
)

// TestBoundApply: the cap of σ (bound.go), numbers worked by hand. The
// standardization is mean 10, sd 2; line 0 has standardized mean 0.5 and
// sd 1.5, so a pair with μ = 15 (2.5 standardized) has B = hypot(1.5, 2)
// = 2.5, and 3·B·2 = 15 in target units: σ_total 20 becomes 15, with
// σ_aleatoric 9 kept, σ_epistemic sqrt(15² − 9²) = 12.
func TestBoundApply(t *testing.T) {
	b := &sigmaBound{Mean: []float64{0.5}, SD: []float64{1.5}, AllMean: 0, AllSD: 1, K: 3}
	for _, c := range []struct {
		name string
		line int
		in   model.Prediction
		want model.Prediction
	}{
		{"under the bound: unchanged", 0, model.Prediction{Mu: 15, SigmaTotal: 14, SigmaEpistemic: 11, SigmaAleatoric: 9}, model.Prediction{Mu: 15, SigmaTotal: 14, SigmaEpistemic: 11, SigmaAleatoric: 9}},
		{"over: capped at 3·B", 0, model.Prediction{Mu: 15, SigmaTotal: 20, SigmaEpistemic: math.Sqrt(400 - 81), SigmaAleatoric: 9}, model.Prediction{Mu: 15, SigmaTotal: 15, SigmaEpistemic: 12, SigmaAleatoric: 9}},
		{"aleatoric above the cap: capped too", 0, model.Prediction{Mu: 15, SigmaTotal: 30, SigmaEpistemic: 0, SigmaAleatoric: 30}, model.Prediction{Mu: 15, SigmaTotal: 15, SigmaEpistemic: 0, SigmaAleatoric: 15}},
		// A line without D_in pairs (index 1) takes all of D_in: μ = 10
		// is 0 standardized, B = hypot(1, 0) = 1, cap 3·1·2 = 6.
		{"line without its own: all of D_in", 1, model.Prediction{Mu: 10, SigmaTotal: 10, SigmaEpistemic: 8, SigmaAleatoric: 6}, model.Prediction{Mu: 10, SigmaTotal: 6, SigmaEpistemic: 0, SigmaAleatoric: 6}},
	} {
		p := c.in
		b.apply(&p, c.line, 10, 2)
		if math.Abs(p.SigmaTotal-c.want.SigmaTotal) > 1e-12 || math.Abs(p.SigmaEpistemic-c.want.SigmaEpistemic) > 1e-12 || p.SigmaAleatoric != c.want.SigmaAleatoric || p.Mu != c.want.Mu {
			t.Errorf("%s: %+v, want %+v", c.name, p, c.want)
		}
	}
}

// TestBoundPanelModel trains DEUP on a small three-line panel: the bound
// holds each line's D_in mean and sd (gonum's PopMeanStdDev of the
// standardized training targets), every prediction is within it, it
// survives Save and Load, and a tighter multiple caps σ as the rule says.
func TestBoundPanelModel(t *testing.T) {
	tp := linesToy(3)
	cfg := model.Config{TowerHidden: 16, TowerOut: 8, CombHidden: 16, SigmaHidden: 8, BatchSize: 32, MaxEpochs: 30, Patience: 30, Seed: 3}
	m := New(Config{Config: cfg})
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	b := m.bound
	if b == nil || len(b.Mean) != 3 || b.K != BoundMultiple {
		t.Fatalf("bound %+v", b)
	}
	for l := range 3 {
		var z []float64
		for _, i := range tp.split.Train {
			if tp.d.Pairs[i].Line == l {
				z = append(z, (tp.d.Y[i]-m.mean)/m.sd)
			}
		}
		mean, sd := stat.PopMeanStdDev(z, nil)
		if math.Abs(b.Mean[l]-mean) > 1e-12 || math.Abs(b.SD[l]-sd) > 1e-12 {
			t.Errorf("line %d: bound mean %v sd %v, want %v %v", l, b.Mean[l], b.SD[l], mean, sd)
		}
	}
	pred, err := m.Predict(tp.d.Features, tp.d.Pairs)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range pred {
		if lim := b.limit(tp.d.Pairs[k].Line, (p.Mu-m.mean)/m.sd) * m.sd; p.SigmaTotal > lim*(1+1e-12) {
			t.Fatalf("pair %d: σ_total %v above the bound %v", k, p.SigmaTotal, lim)
		}
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if back.bound == nil || back.bound.K != b.K || back.bound.SD[2] != b.SD[2] {
		t.Fatalf("loaded bound %+v, saved %+v", back.bound, b)
	}
	// A multiple of 0.1 binds on every pair: σ_total is 0.1·B.
	back.bound.K = 0.1
	tight, err := back.Predict(tp.d.Features, tp.d.Pairs)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range tight {
		lim := back.bound.limit(tp.d.Pairs[k].Line, (p.Mu-m.mean)/m.sd) * m.sd
		if pred[k].SigmaTotal > lim && math.Abs(p.SigmaTotal-lim) > 1e-9*lim {
			t.Fatalf("pair %d: σ_total %v, want the cap %v", k, p.SigmaTotal, lim)
		}
		if d := p.SigmaTotal*p.SigmaTotal - p.SigmaEpistemic*p.SigmaEpistemic - p.SigmaAleatoric*p.SigmaAleatoric; math.Abs(d) > 1e-9*p.SigmaTotal*p.SigmaTotal && p.SigmaEpistemic > 0 {
			t.Fatalf("pair %d: σ_total² ≠ σ_epi² + σ_ale²: %+v", k, p)
		}
	}
}
