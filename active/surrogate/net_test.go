package surrogate

import (
	"context"
	"math"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/data"
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
