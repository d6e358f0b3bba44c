package model

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
)

// identityToy is makeToy with drug ids d0, d1, … (Config.Identity matches
// drugs by id).
func identityToy(seed uint64, nDrugs, dim, bits int) *toyProblem {
	tp := makeToy(seed, nDrugs, dim, bits, 0.1)
	for i := range nDrugs {
		tp.d.Features.IDs = append(tp.d.Features.IDs, fmt.Sprintf("d%d", i))
	}
	return tp
}

// identityConfig is smallConfig with identity vectors for the drugs of tp.
func identityConfig(tp *toyProblem, drop float64) Config {
	cfg := smallConfig()
	cfg.Identity, cfg.IdentityDrop = true, drop
	return cfg.WithLines(tp.d)
}

// fillParam sets a parameter's values to an arbitrary, nonzero pattern.
func fillParam(n *Network, name string) {
	w := n.byName[name].t.Data().([]float64)
	for i := range w {
		w[i] = 0.4 * math.Sin(float64(7*i+3))
	}
}

// TestIdentityGradients: the gradient of the identity vectors (and of
// everything else) matches central differences, with one drug slot's
// vector dropped and a padding slot.
func TestIdentityGradients(t *testing.T) {
	tp := identityToy(3, 6, 10, 4)
	cfg := identityConfig(tp, 0.5)
	n := NewNetwork(cfg, 10, true, 11)
	fillParam(n, IdentityParam)
	idx := []int{0, 3, 5, 7, 14}
	var b batch
	tp.d.makeBatch(idx, 0.2, 1.5, &b)
	u := len(b.drugs) + 1
	g, err := n.buildGraph(u, cfg.BatchSize, LossNLL, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	g.setInputs(tp.d.Features, b.drugs, b.pa, b.pb, b.line, b.y, b.w, 0)
	rows := slices.Clone(b.drugs) // drug row = identity row (ids d0…)
	rows[1] = -1                  // dropped
	g.setIdentity(rows)
	if _, err := g.run(); err != nil {
		t.Fatal(err)
	}
	checked := checkFiniteDifferences(t, n, g, func(p *param, j int, got float64) {
		if p.name == IdentityParam && (j/cfg.TowerHidden == b.drugs[1] || !slices.Contains(b.drugs, j/cfg.TowerHidden)) && got != 0 {
			t.Errorf("%s[%d]: gradient %v of a dropped or absent drug, want 0", p.name, j, got)
		}
	})
	if n.byName[IdentityParam].rows != 6 || n.byName[IdentityParam].cols != cfg.TowerHidden {
		t.Errorf("id.e is %d×%d, want 6×%d", n.byName[IdentityParam].rows, n.byName[IdentityParam].cols, cfg.TowerHidden)
	}
	t.Logf("%d gradient entries checked", checked)
}

// TestIdentityGraphMatchesInference: the inference path adds the same
// identity vectors as the graph, and a Features matrix whose drugs are in
// another order (a catalogue) gets each drug's own vector by id; a drug
// the network has no vector of is predicted from its structure alone.
func TestIdentityGraphMatchesInference(t *testing.T) {
	tp := identityToy(4, 8, 12, 5)
	cfg := identityConfig(tp, 0)
	n := NewNetwork(cfg, 12, true, 2)
	fillParam(n, IdentityParam)
	idx := []int{1, 2, 9, 20, 27}
	var b batch
	tp.d.makeBatch(idx, 0, 1, &b)
	g, err := n.buildGraph(len(b.drugs), cfg.BatchSize, LossNLL, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	g.setInputs(tp.d.Features, b.drugs, b.pa, b.pb, b.line, b.y, b.w, 0)
	g.setIdentity(b.drugs)
	if _, err := g.run(); err != nil {
		t.Fatal(err)
	}
	gmu := toFloat64(g.muV.Tensor().Data())
	gsig := toFloat64(g.sigmaV.Tensor().Data())
	pa, pb := make([]int, len(idx)), make([]int, len(idx))
	for k, i := range idx {
		pa[k], pb[k] = tp.d.Pairs[i].A, tp.d.Pairs[i].B
	}
	mu, sig := make([]float64, len(idx)), make([]float64, len(idx))
	NewForwarder(n).Pairs(tp.d.Features, pa, pb, nil, 0, nil, mu, sig, nil)
	for k := range idx {
		if math.Abs(mu[k]-gmu[k]) > 1e-12 || math.Abs(sig[k]-gsig[k]) > 1e-12 {
			t.Errorf("pair %d: graph (%v, %v), inference (%v, %v)", k, gmu[k], gsig[k], mu[k], sig[k])
		}
	}
	// The same drugs in reverse order, and one drug renamed (unknown).
	f := tp.d.Features
	nd := f.NumDrugs()
	r := &Features{Config: f.Config, RowPtr: []int{0}}
	for i := nd - 1; i >= 0; i-- {
		r.Col = append(r.Col, f.Col[f.RowPtr[i]:f.RowPtr[i+1]]...)
		r.Val = append(r.Val, f.Val[f.RowPtr[i]:f.RowPtr[i+1]]...)
		r.RowPtr = append(r.RowPtr, len(r.Col))
		r.IDs = append(r.IDs, f.IDs[i])
	}
	ra, rb := make([]int, len(idx)), make([]int, len(idx))
	for k := range idx {
		ra[k], rb[k] = nd-1-pa[k], nd-1-pb[k]
	}
	mu2 := make([]float64, len(idx))
	NewForwarder(n).Pairs(r, ra, rb, nil, 0, nil, mu2, nil, nil)
	if !slices.Equal(mu, mu2) {
		t.Errorf("reordered drugs: μ %v, want %v", mu2, mu)
	}
	// Without ids no drug has a vector: the network with id.e = 0.
	plain := &Features{Config: f.Config, RowPtr: f.RowPtr, Col: f.Col, Val: f.Val}
	mu3, mu4 := make([]float64, len(idx)), make([]float64, len(idx))
	NewForwarder(n).Pairs(plain, pa, pb, nil, 0, nil, mu3, nil, nil)
	clear(n.byName[IdentityParam].t.Data().([]float64))
	NewForwarder(n).Pairs(tp.d.Features, pa, pb, nil, 0, nil, mu4, nil, nil)
	if !slices.Equal(mu3, mu4) {
		t.Errorf("features without ids: μ %v, want the structure-only %v", mu3, mu4)
	}
	if slices.Equal(mu, mu4) {
		t.Errorf("the identity vectors do not change μ")
	}
}

// TestIdentityUnseenDrugs trains an ensemble member with identity vectors
// dropped at 0.5 on pairs of drugs 0–7 only: the vectors of drugs 8–9,
// never in an in-sample pair, stay exactly 0, so the model predicts their
// pairs from structure alone; the vectors of the training drugs moved;
// the model file keeps them and predicts as trained; the same seed
// trains the same network.
func TestIdentityUnseenDrugs(t *testing.T) {
	tp := identityToy(5, 10, 16, 5)
	cfg := toyConfig(1)
	cfg.MaxEpochs, cfg.Patience = 8, 8
	cfg.Identity, cfg.IdentityDrop = true, 0.5
	var train, val []int
	for i, p := range tp.d.Pairs {
		switch {
		case p.A >= 8 || p.B >= 8:
		case i%3 == 0:
			val = append(val, i)
		default:
			train = append(train, i)
		}
	}
	split := tp.split
	split.Train, split.Val, split.Test = train, val, nil
	fit := func() *DeepEnsemble {
		e := NewEnsemble(cfg, 1, false)
		if err := e.Fit(context.Background(), tp.d, split, nil); err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := fit()
	p := e.nets[0].byName[IdentityParam]
	w := p.t.Data().([]float32)
	for d := range 10 {
		norm := 0.0
		for _, v := range w[d*p.cols : (d+1)*p.cols] {
			norm += float64(v) * float64(v)
		}
		if d >= 8 && norm != 0 {
			t.Errorf("drug %d, in no training pair: identity vector norm² %v, want 0", d, norm)
		}
		if d < 8 && norm == 0 {
			t.Errorf("training drug %d: identity vector still 0", d)
		}
	}
	got := saveLoadSame(t, e, tp)
	var buf bytes.Buffer
	if err := got.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"Identity":["d0","d1"`)) || !bytes.Contains(buf.Bytes(), []byte(`"IdentityDrop":0.5`)) {
		t.Errorf("the model file does not record the identity vectors' drugs and drop probability")
	}
	a, _ := e.Predict(tp.d.Features, tp.d.Pairs)
	b, _ := fit().Predict(tp.d.Features, tp.d.Pairs)
	if !slices.Equal(a, b) {
		t.Errorf("two fits with seed 1 differ")
	}
	cfg.IdentityDrop = 0
	c, _ := fit().Predict(tp.d.Features, tp.d.Pairs)
	if slices.Equal(a, c) {
		t.Errorf("drop 0.5 and 0 train the same network")
	}
}

// TestIdentityOffUnchanged: without Identity the network has no id.e and
// its file no identity record (files written before it read the same).
func TestIdentityOffUnchanged(t *testing.T) {
	tp := identityToy(5, 6, 10, 4)
	cfg := smallConfig().WithLines(tp.d)
	n := NewNetwork(cfg, 10, true, 1)
	if _, ok := n.byName[IdentityParam]; ok {
		t.Fatal("id.e without Config.Identity")
	}
	fc := NewFileConfig(cfg)
	if fc.Identity != nil || fc.IdentityDrop != 0 {
		t.Errorf("file config %+v records identity vectors", fc)
	}
	if err := (Config{IdentityDrop: 1}).WithDefaults().Validate(); err == nil {
		t.Error("IdentityDrop 1 accepted")
	}
	bad := smallConfig()
	bad.Identity = true
	tp.d.Features.IDs = nil
	e := NewEnsemble(bad, 1, false)
	if err := e.Fit(context.Background(), tp.d, tp.split, nil); err == nil {
		t.Error("identity vectors without drug ids: no error")
	}
}
