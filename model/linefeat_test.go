package model

import (
	"math"
	"testing"
)

// TestGraphMatchesInferenceLineFeatures: with cell-line features the
// graph's forward pass (E_l + X_l·W_f in the pair embedding) and the
// inference path agree, W_f starts at 0, and the features change μ.
func TestGraphMatchesInferenceLineFeatures(t *testing.T) {
	tp := linesToy(3)
	x := [][]float64{{-1, 0.5}, {0, -1}, {1, 0.5}}
	cfg := smallConfig()
	cfg.lines, cfg.lineX = 3, &x
	n := NewNetwork(cfg, 24, true, 2)
	f := n.byName["cl.f"]
	if f == nil || f.rows != 2 || f.cols != cfg.TowerOut {
		t.Fatalf("cl.f: %+v", f)
	}
	fd := f.t.Data().([]float64)
	for i, v := range fd {
		if v != 0 {
			t.Fatalf("cl.f[%d] = %v: does not start at 0", i, v)
		}
		fd[i] = math.Cos(float64(5*i + 1)) // as if trained
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
	mu, sig := make([]float64, len(idx)), make([]float64, len(idx))
	NewForwarder(n).PairsSide(tp.d.Features, pa, pb, pl, 1, nil, mu, sig, nil)
	for k := range idx {
		if math.Abs(mu[k]-gmu[k]) > 1e-12 || math.Abs(sig[k]-gsig[k]) > 1e-12 {
			t.Errorf("pair %d: graph (%v, %v), inference (%v, %v)", k, gmu[k], gsig[k], mu[k], sig[k])
		}
	}
	// W_f back to 0: the same μ as a network without features.
	clear(fd)
	mu0 := make([]float64, len(idx))
	NewForwarder(n).PairsSide(tp.d.Features, pa, pb, pl, 1, nil, mu0, nil, nil)
	if mu0[0] == mu[0] {
		t.Errorf("the features do not change μ (%v)", mu[0])
	}
}
