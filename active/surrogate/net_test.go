package surrogate

import (
	"context"
	"math"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
)

// TestNetSurrogate runs two rounds of interactive DEUP on package model's
// network, and of model's Deep Ensemble, MC-Dropout and two-head DEUP, over a small synthetic screen
// (with SMILES), twice each: the same seed must give the same batches
// (resume relies on it), and the predictions must be finite (with their
// stationarizing features for DEUP).
func TestNetSurrogate(t *testing.T) {
	sc, err := data.Synth(data.SynthConfig{Seed: 5, Drugs: 16, CellLines: 1, Pairs: 100, LatentDim: 2, Scale: 10, NoiseMin: 1, NoiseMax: 2, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	table, _, err := active.ScreenTable(sc, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	runOnce := func(model string) []active.Measurement {
		initial, cands, _ := active.SplitInitial(table, 30, 2)
		cfg := active.Config{Mode: active.Retrospective, Model: model, Acquisition: "ucb", Batch: 5, Rounds: 2, Seed: 2, Score: "synergy", Drugs: sc.Drugs, CellLines: sc.CellLines}
		c, err := active.Create(active.NewMemoryStore(), cfg, initial, cands)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := NewEncoder(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewFor(cfg, enc)
		if err != nil {
			t.Fatal(err)
		}
		if s.Name() != model {
			t.Errorf("name %q", s.Name())
		}
		for !c.Done() {
			prop, err := c.Step(context.Background(), s, table)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range prop.Preds {
				if math.IsNaN(p.Mu) || math.IsNaN(p.SigmaTotal) || (model == "deup-net" && len(p.Phi) != enc.Dim()+3) {
					t.Fatalf("prediction %d: %+v", i, p)
				}
			}
		}
		return c.Measured()
	}
	for _, model := range []string{"deup-net", "ensemble-net", "mcdropout-net", "twohead-net"} {
		a, b := runOnce(model), runOnce(model)
		if len(a) != 40 {
			t.Fatalf("%s: %d measured, want 40", model, len(a))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s: same seed, different campaign at measurement %d: %v vs %v", model, i, a[i], b[i])
			}
		}
	}
}

// TestNetSkipsNoveltyExactly: Net.Fit leaves out DEUP's held-out-drug μ′
// when its training pairs hold every drug (trainsEveryDrug), because the
// novelty scale is then exactly 1 for every pair of the campaign's drugs
// (model/deupnet/novelty.go: "a pair of two measured drugs keeps its σ
// exactly"). Checked here: the network trained with μ′ and the one without
// predict the same μ and σs, to the bit, on every pair of the 16 drugs.
func TestNetSkipsNoveltyExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("trains networks")
	}
	sc, err := data.Synth(data.SynthConfig{Seed: 5, Drugs: 16, CellLines: 1, Pairs: 100, LatentDim: 2, Scale: 10, NoiseMin: 1, NoiseMax: 2, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNet(sc.Drugs, NetConfig, 3)
	if err != nil {
		t.Fatal(err)
	}
	d := &model.Dataset{Features: n.Feat}
	for _, p := range sc.Pairs {
		d.Pairs = append(d.Pairs, model.PairRef{A: p.A, B: p.B})
		d.Y, d.N, d.Var = append(d.Y, p.Mean[0]), append(d.N, 1), append(d.Var, math.NaN())
	}
	split := drugcomb.SplitRandom(len(d.Pairs), [3]float64{0.8, 0.2, 0}, n.Seed)
	if !trainsEveryDrug(d.Pairs, split.Train, len(sc.Drugs)) {
		t.Fatal("the training split misses a drug: pick another seed")
	}
	var all []model.PairRef
	for a := range sc.Drugs {
		for b := a + 1; b < len(sc.Drugs); b++ {
			all = append(all, model.PairRef{A: a, B: b})
		}
	}
	predict := func(holdout float64) []model.Prediction {
		m := deupnet.New(deupnet.Config{Config: NetConfig, Options: deupnet.Options{NoveltyHoldout: holdout}})
		if err := m.Fit(context.Background(), d, split, nil); err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(n.Feat, all)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	with, without := predict(0), predict(-1)
	for i := range all {
		if with[i] != without[i] {
			t.Fatalf("pair %v: with μ′ %+v, without %+v", all[i], with[i], without[i])
		}
	}
}

// TestPanelTraining: a network surrogate on a panel trains with the panel
// settings of package model (batch model.PanelBatchSize, patience
// model.PanelPatience, rate model.PanelLR) and keeps NetConfig's widths
// and epoch cap (100: early stopping ends the training).
func TestPanelTraining(t *testing.T) {
	got := PanelTraining(NetConfig)
	want := NetConfig
	want.BatchSize, want.Patience, want.LR = model.PanelBatchSize, model.PanelPatience, model.PanelLR
	if got != want {
		t.Errorf("PanelTraining(NetConfig) = %+v, want %+v", got, want)
	}
	if got.MaxEpochs != 100 || got.TowerHidden != 256 {
		t.Errorf("epoch cap %d, tower %d: want NetConfig's 100 and 256", got.MaxEpochs, got.TowerHidden)
	}
}
