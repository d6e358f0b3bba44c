package model

import (
	"fmt"
	"math"
	"testing"
)

func smallConfig() Config {
	return Config{TowerHidden: 7, TowerOut: 5, CombHidden: 4, SigmaHidden: 3, BatchSize: 6, MaxEpochs: 3, Patience: 2, float64: true}.WithDefaults()
}

// TestGradientsFiniteDifferences checks every gradient entry that gorgonia
// (with the custom sparse ops) computes against central differences of the
// same graph's cost, for each loss and with dropout masks.
func TestGradientsFiniteDifferences(t *testing.T) {
	tp := makeToy(3, 6, 10, 4, 0.1)
	// Non-binary values to exercise the sparse op's scaling.
	for k := range tp.d.Features.Val {
		tp.d.Features.Val[k] = float32(0.5 + float64(k%5)*0.25)
	}
	for _, tc := range []struct {
		name    string
		kind    Loss
		dropout bool
		bit     float64
		side    int // σ feature columns
	}{
		{"nll in-sample", LossNLL, false, 0, 0},
		{"nll out-of-sample sigma only", LossNLLSigma, false, 1, 0},
		{"nll in-sample sigma features", LossNLL, false, 0, 3},
		{"nll out-of-sample sigma features", LossNLLSigma, false, 1, 3},
		{"mse", LossMSE, false, 0, 0},
		{"mse dropout", LossMSE, true, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig()
			cfg.side = tc.side
			n := NewNetwork(cfg, 10, tc.kind != LossMSE, 11)
			idx := []int{0, 3, 5, 7, 14} // 5 pairs, padded to batch 6
			var b batch
			tp.d.makeBatch(idx, 0.2, 1.5, &b)
			u := len(b.drugs) + 2 // padding drug rows must not matter
			g, err := n.buildGraph(u, cfg.BatchSize, tc.kind, tc.dropout, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer g.close()
			g.setInputs(tp.d.Features, b.drugs, b.pa, b.pb, b.line, b.y, b.w, tc.bit)
			g.setSide(sideValues(len(idx), tc.side))
			if tc.dropout {
				d := newDropout(0.3, 5)
				for _, m := range g.masks {
					d.fill(m.Data())
				}
			}
			if _, err := g.run(); err != nil {
				t.Fatal(err)
			}
			checked := checkFiniteDifferences(t, n, g, nil)
			// The σ-only step must request no gradient outside the σ path.
			for _, i := range g.train {
				if tc.kind == LossNLLSigma && n.params[i].group != groupSigma {
					t.Errorf("σ-only step trains %s", n.params[i].name)
				}
			}
			t.Logf("%d gradient entries checked", checked)
		})
	}
}

// checkFiniteDifferences compares every gradient entry gorgonia computes
// for g's trained parameters with a central difference of g's cost (step
// 1e-6, tolerance 1e-5 relative to 1 + |difference|), calling each (when
// not nil) with the parameter, the entry and gorgonia's value; it returns
// the number of entries checked. The gradients are read at the graph's
// last run, before any weight moves.
func checkFiniteDifferences(t *testing.T, n *Network, g *graph, each func(p *param, j int, got float64)) int {
	t.Helper()
	grads := make([][]float64, len(g.train))
	for k := range g.train {
		gt, err := g.grad(k)
		if err != nil {
			t.Fatal(err)
		}
		grads[k] = toFloat64(gt.Data())
	}
	cost := func() float64 {
		c, err := g.run()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	checked := 0
	for k, i := range g.train {
		p := n.params[i]
		w := p.t.Data().([]float64)
		for j := range w {
			const h = 1e-6
			orig := w[j]
			w[j] = orig + h
			cp := cost()
			w[j] = orig - h
			cm := cost()
			w[j] = orig
			fd, got := (cp-cm)/(2*h), grads[k][j]
			if math.Abs(fd-got) > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("%s[%d]: gorgonia %.9g, finite difference %.9g", p.name, j, got, fd)
			}
			if each != nil {
				each(p, j, got)
			}
			checked++
		}
	}
	return checked
}

// TestGraphMatchesInference: the fast inference path (per-drug projections)
// computes the same μ and σ as the gorgonia graph.
func TestGraphMatchesInference(t *testing.T) {
	for _, side := range []int{0, 2} {
		t.Run(fmt.Sprintf("%d sigma features", side), func(t *testing.T) { testGraphMatchesInference(t, side) })
	}
}

// sideValues is n rows of k arbitrary σ feature values.
func sideValues(n, k int) []float64 {
	v := make([]float64, n*k)
	for i := range v {
		v[i] = math.Sin(float64(3*i+1)) * 1.5
	}
	return v
}

func testGraphMatchesInference(t *testing.T, side int) {
	tp := makeToy(4, 8, 12, 5, 0.1)
	cfg := smallConfig()
	cfg.side = side
	n := NewNetwork(cfg, 12, true, 2)
	idx := []int{1, 2, 9, 20, 27}
	var b batch
	tp.d.makeBatch(idx, 0, 1, &b)
	g, err := n.buildGraph(len(b.drugs), cfg.BatchSize, LossNLL, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	for _, bit := range []float64{0, 1} {
		g.setInputs(tp.d.Features, b.drugs, b.pa, b.pb, b.line, b.y, b.w, bit)
		sv := sideValues(len(idx), side)
		g.setSide(sv)
		if _, err := g.run(); err != nil {
			t.Fatal(err)
		}
		gmu := toFloat64(g.muV.Tensor().Data())
		gsig := toFloat64(g.sigmaV.Tensor().Data())
		fwd := NewForwarder(n)
		pa, pb := make([]int, len(idx)), make([]int, len(idx))
		for k, i := range idx {
			pa[k], pb[k] = tp.d.Pairs[i].A, tp.d.Pairs[i].B
		}
		mu, sig := make([]float64, len(idx)), make([]float64, len(idx))
		if side == 0 {
			sv = nil
		}
		fwd.PairsSide(tp.d.Features, pa, pb, nil, bit, sv, mu, sig, nil)
		for k := range idx {
			if math.Abs(mu[k]-gmu[k]) > 1e-12 || math.Abs(sig[k]-gsig[k]) > 1e-12 {
				t.Errorf("bit %v pair %d: graph (%v, %v), inference (%v, %v)", bit, k, gmu[k], gsig[k], mu[k], sig[k])
			}
		}
		if side > 0 { // the features must matter (σ without them differs)
			s0 := make([]float64, len(idx))
			fwd.PairsSide(tp.d.Features, pa, pb, nil, bit, make([]float64, len(idx)*side), mu, s0, nil)
			diff := 0.0
			for k := range s0 {
				diff = max(diff, math.Abs(s0[k]-sig[k]))
			}
			if diff < 1e-6 {
				t.Errorf("bit %v: σ does not depend on the σ features (max change %g)", bit, diff)
			}
		}
	}
}
