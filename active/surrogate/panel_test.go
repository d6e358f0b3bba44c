package surrogate

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/model"
)

// TestNetSurrogatePanel: the network surrogates give the line to the
// network (model.PairRef.Line, the line embedding) when the evidence spans
// several lines, so the same pair gets a different mu on each line, and
// not when it holds one line (the network a one-line campaign always
// trained: the same mu on every line); the per-line cap holds.
//
// The small NetConfig networks, trained a few hundred steps on 40 pairs,
// learn little of a line's offset (measured: under 0.1 of a 30-point
// offset on this screen), so the test checks that the line enters, not how
// much is learned.
func TestNetSurrogatePanel(t *testing.T) {
	if testing.Short() {
		t.Skip("trains networks")
	}
	sc, err := data.Synth(data.SynthConfig{Seed: 5, Drugs: 12, CellLines: 2, Pairs: 120, LatentDim: 2, Scale: 10, NoiseMin: 1, NoiseMax: 2, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	table, _, err := active.ScreenTable(sc, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	for p := range table {
		if p.CellLine == 1 {
			table[p] += 30
		}
	}
	probe := []active.PairOnLine{{A: 0, B: 1, CellLine: 0}, {A: 0, B: 1, CellLine: 1}}
	for _, name := range []string{"deup-net", "ensemble-net"} {
		for _, oneLine := range []bool{false, true} {
			var initial []active.Measurement
			var cands []active.PairOnLine
			all, rest, _ := active.SplitInitial(table, 40, 2)
			for _, m := range all {
				if !oneLine || m.Pair.CellLine == 0 {
					initial = append(initial, m)
				}
			}
			cands = rest
			cfg := active.Config{Mode: active.Retrospective, Model: name, Acquisition: "greedy", Batch: 4, Rounds: 1, MaxPerLine: 2, Seed: 2, Score: "synergy", Drugs: sc.Drugs, CellLines: sc.CellLines}
			c, err := active.Create(active.NewMemoryStore(), cfg, initial, cands)
			if err != nil {
				t.Fatal(err)
			}
			enc, _ := NewEncoder(cfg)
			s, err := NewFor(cfg, enc)
			if err != nil {
				t.Fatal(err)
			}
			prop, err := c.Step(context.Background(), s, table)
			if err != nil {
				t.Fatal(err)
			}
			if n := activetest.PerLine(prop.Round); n[0] != 2 || n[1] != 2 {
				t.Errorf("%s one line %v: per line %v, want 2 and 2", name, oneLine, n)
			}
			ps, err := s.Predict(context.Background(), probe)
			if err != nil {
				t.Fatal(err)
			}
			if same := ps[0].Mu == ps[1].Mu; same != oneLine || math.IsNaN(ps[0].Mu) {
				t.Errorf("%s, evidence on one line %v: mu %v on line 1, %v on line 2", name, oneLine, ps[0].Mu, ps[1].Mu)
			}
		}
	}
}

// TestNetSurrogateLineFeatures (issue 40): a campaign's cell-line
// features (active.Config.LineFeatures, deup campaign init --cell-features)
// reach the network that each round trains: the fitted method holds them
// as its line input's X.
func TestNetSurrogateLineFeatures(t *testing.T) {
	if testing.Short() {
		t.Skip("trains networks")
	}
	sc, err := data.Synth(data.SynthConfig{Seed: 5, Drugs: 12, CellLines: 2, Pairs: 120, LatentDim: 2, Scale: 10, NoiseMin: 1, NoiseMax: 2, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	table, _, err := active.ScreenTable(sc, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	x := [][]float64{{-1, 0.5}, {1, -0.5}}
	initial, cands, _ := active.SplitInitial(table, 40, 2)
	cfg := active.Config{Mode: active.Retrospective, Model: "mcdropout-net", Acquisition: "greedy", Batch: 4, Rounds: 1, Seed: 2, Score: "synergy", Drugs: sc.Drugs, CellLines: sc.CellLines, LineFeatures: x}
	c, err := active.Create(active.NewMemoryStore(), cfg, initial, cands)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := NewEncoder(cfg)
	s, err := NewFor(cfg, enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Step(context.Background(), s, table); err != nil {
		t.Fatal(err)
	}
	la, ok := s.(*NetMethod).m.(model.LineAdder)
	if !ok || !reflect.DeepEqual(la.LineFeatures(), x) {
		t.Fatalf("the fitted network's line features: %v (LineAdder %v), want %v", la, ok, x)
	}
	bad := cfg
	bad.LineFeatures = x[:1]
	if err := bad.Check(); err == nil {
		t.Error("features for 1 of 2 lines accepted")
	}
}
