package model

import (
	"fmt"
	"math"
	"testing"
)

// linesToy is the toy screen measured on nl cell lines: line l adds
// 3·l to every pair's score, so a model that knows the line can tell them
// apart. Every pair is on every line; the split is the toy's, per line.
func linesToy(nl int) *toyProblem {
	tp := makeToy(11, 14, 24, 6, 0.2)
	np := len(tp.d.Pairs)
	d := &Dataset{Features: tp.d.Features}
	for l := range nl {
		d.LineNames = append(d.LineNames, fmt.Sprintf("L%d", l))
		for i, p := range tp.d.Pairs {
			d.Pairs = append(d.Pairs, PairRef{A: p.A, B: p.B, Line: l})
			d.Y = append(d.Y, tp.d.Y[i]+3*float64(l))
			d.N = append(d.N, tp.d.N[i])
			d.Var = append(d.Var, tp.d.Var[i])
		}
	}
	out := &toyProblem{d: d}
	for l := range nl {
		for _, i := range tp.split.Train {
			out.split.Train = append(out.split.Train, l*np+i)
		}
		for _, i := range tp.split.Val {
			out.split.Val = append(out.split.Val, l*np+i)
		}
		for _, i := range tp.split.Test {
			out.split.Test = append(out.split.Test, l*np+i)
		}
	}
	return out
}

// TestGraphMatchesInferenceLines: with a cell-line embedding the graph's
// forward pass and the per-drug inference path agree, and the line
// changes μ and σ.
func TestGraphMatchesInferenceLines(t *testing.T) {
	tp := linesToy(3)
	cfg := smallConfig()
	cfg.lines = 3
	n := NewNetwork(cfg, 24, true, 2)
	e := n.byName["cl.e"]
	if e == nil {
		t.Fatal("no cell-line embedding")
	}
	ed := e.t.Data().([]float64)
	for i, v := range ed {
		if v != 0 {
			t.Fatalf("cl.e[%d] = %v: the embedding does not start at 0", i, v)
		}
		ed[i] = math.Sin(float64(7*i + 3)) // as if trained
	}
	idx := []int{1, 2, 100, 150, 200, 210}
	var b batch
	tp.d.makeBatch(idx, 0, 1, &b)
	g, err := n.buildGraph(len(b.drugs), cfg.BatchSize, LossNLL, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	g.setInputs(tp.d.Features, b.drugs, b.pa, b.pb, b.line, b.y, b.w, 1)
	if _, err := g.run(); err != nil {
		t.Fatal(err)
	}
	gmu, gsig := toFloat64(g.muV.Tensor().Data()), toFloat64(g.sigmaV.Tensor().Data())
	pa, pb, pl := make([]int, len(idx)), make([]int, len(idx)), make([]int, len(idx))
	for k, i := range idx {
		pa[k], pb[k], pl[k] = tp.d.Pairs[i].A, tp.d.Pairs[i].B, tp.d.Pairs[i].Line
	}
	fwd := NewForwarder(n)
	mu, sig := make([]float64, len(idx)), make([]float64, len(idx))
	fwd.PairsSide(tp.d.Features, pa, pb, pl, 1, nil, mu, sig, nil)
	for k := range idx {
		if math.Abs(mu[k]-gmu[k]) > 1e-12 || math.Abs(sig[k]-gsig[k]) > 1e-12 {
			t.Errorf("pair %d: graph (%v, %v), inference (%v, %v)", k, gmu[k], gsig[k], mu[k], sig[k])
		}
	}
	// The same drugs on another line.
	other := make([]int, len(idx))
	for k := range other {
		other[k] = (pl[k] + 1) % 3
	}
	mu2, sig2 := make([]float64, len(idx)), make([]float64, len(idx))
	fwd.PairsSide(tp.d.Features, pa, pb, other, 1, nil, mu2, sig2, nil)
	if mu2[0] == mu[0] || sig2[0] == sig[0] {
		t.Errorf("the cell line does not change μ or σ: (%v, %v) vs (%v, %v)", mu[0], sig[0], mu2[0], sig2[0])
	}
}
