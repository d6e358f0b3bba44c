package model

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"
)

// TestFiLMGradients: with Config.LineFiLM the gradients of the FiLM gains
// (and of every other parameter) match central differences.
func TestFiLMGradients(t *testing.T) {
	tp := linesToy(3)
	cfg := smallConfig()
	cfg.lines, cfg.LineFiLM = 3, true
	n := NewNetwork(cfg, 24, true, 5)
	fillParam(n, LineFiLMParam)
	fillParam(n, LineEmbeddingParam)
	idx := []int{1, 2, 100, 150, 200}
	var b batch
	tp.d.makeBatch(idx, 0.2, 1.5, &b)
	g, err := n.buildGraph(len(b.drugs)+1, cfg.BatchSize, LossNLL, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	g.setInputs(tp.d.Features, b.drugs, b.pa, b.pb, b.line, b.y, b.w, 0)
	if _, err := g.run(); err != nil {
		t.Fatal(err)
	}
	found := false
	checkFiniteDifferences(t, n, g, func(p *param, _ int, _ float64) {
		found = found || p.name == LineFiLMParam
	})
	if !found {
		t.Fatal("the FiLM gains are not trained")
	}
}

// TestFiLMGraphMatchesInference: the inference path scales the first
// combined layer as the graph does; the gains start at 0 (the network
// without FiLM, weight for weight), and a line's gains change μ.
func TestFiLMGraphMatchesInference(t *testing.T) {
	tp := linesToy(3)
	cfg := smallConfig()
	cfg.lines = 3
	plain := NewNetwork(cfg, 24, true, 2)
	cfg.LineFiLM = true
	n := NewNetwork(cfg, 24, true, 2)
	idx := []int{1, 2, 100, 150, 200, 210}
	pa, pb, pl := make([]int, len(idx)), make([]int, len(idx)), make([]int, len(idx))
	for k, i := range idx {
		pa[k], pb[k], pl[k] = tp.d.Pairs[i].A, tp.d.Pairs[i].B, tp.d.Pairs[i].Line
	}
	mu0, mu1 := make([]float64, len(idx)), make([]float64, len(idx))
	NewForwarder(plain).Pairs(tp.d.Features, pa, pb, pl, 0, nil, mu0, nil, nil)
	NewForwarder(n).Pairs(tp.d.Features, pa, pb, pl, 0, nil, mu1, nil, nil)
	if !slices.Equal(mu0, mu1) {
		t.Errorf("FiLM at its start: μ %v, want the plain network's %v", mu1, mu0)
	}
	fillParam(n, LineFiLMParam)
	fillParam(n, LineEmbeddingParam)
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
	mu, sig := make([]float64, len(idx)), make([]float64, len(idx))
	NewForwarder(n).PairsSide(tp.d.Features, pa, pb, pl, 1, nil, mu, sig, nil)
	for k := range idx {
		if math.Abs(mu[k]-gmu[k]) > 1e-12 || math.Abs(sig[k]-gsig[k]) > 1e-12 {
			t.Errorf("pair %d: graph (%v, %v), inference (%v, %v)", k, gmu[k], gsig[k], mu[k], sig[k])
		}
	}
	clear(n.byName[LineFiLMParam].t.Data().([]float64))
	mu2 := make([]float64, len(idx))
	NewForwarder(n).Pairs(tp.d.Features, pa, pb, pl, 0, nil, mu2, nil, nil)
	if slices.Equal(mu, mu2) {
		t.Error("the FiLM gains do not change μ")
	}
}

// TestFiLMTrainSaveAddLines trains an ensemble member with FiLM on three
// lines: the gains move, the model file records FiLM and predicts as
// trained, and a line added from features gets zero gains; on one line
// LineFiLM adds nothing.
func TestFiLMTrainSaveAddLines(t *testing.T) {
	tp := linesToy(3)
	tp.d.LineFeatures = [][]float64{{1, 0}, {0, 1}, {-1, -1}}
	cfg := toyConfig(1)
	cfg.MaxEpochs, cfg.Patience, cfg.LineFiLM = 5, 5, true
	e := NewEnsemble(cfg, 1, false)
	if err := e.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	g := e.nets[0].byName[LineFiLMParam]
	if g == nil || g.rows != 3 || g.cols != 32 {
		t.Fatalf("FiLM gains %+v, want 3×32", g)
	}
	if !slices.ContainsFunc(g.t.Data().([]float32), func(v float32) bool { return v != 0 }) {
		t.Error("the FiLM gains did not move")
	}
	var buf bytes.Buffer
	if err := e.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"LineFiLM":true`)) {
		t.Error("the model file does not record LineFiLM")
	}
	saveLoadSame(t, e, tp)
	if err := e.AddLines(append(tp.d.LineFeatures, []float64{0.5, 0.5})); err != nil {
		t.Fatal(err)
	}
	g = e.nets[0].byName[LineFiLMParam]
	if g.rows != 4 || slices.ContainsFunc(g.t.Data().([]float32)[3*g.cols:], func(v float32) bool { return v != 0 }) {
		t.Errorf("added line: FiLM gains %d rows, the new one not 0", g.rows)
	}
	if _, err := e.Predict(tp.d.Features, []PairRef{{A: 0, B: 1, Line: 3}}); err != nil {
		t.Fatal(err)
	}
	one := smallConfig()
	one.LineFiLM = true
	if n := NewNetwork(one, 24, true, 1); n.byName[LineFiLMParam] != nil {
		t.Error("FiLM gains on a one-line network")
	}
}
