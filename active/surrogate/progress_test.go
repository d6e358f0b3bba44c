package surrogate

import (
	"context"
	"slices"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/model"
)

// TestWithTrainProgress: a surrogate wrapped by WithTrainProgress proposes
// the same round (model version, pairs, predictions) as the plain one — the
// wrapper duplicates Net.Fit and NetMethod.Fit with a progress function, so
// this guards against the copies drifting — and reports every epoch of
// every network it trains.
func TestWithTrainProgress(t *testing.T) {
	sc, err := data.Synth(data.SynthConfig{Seed: 5, Drugs: 16, CellLines: 1, Pairs: 100, LatentDim: 2, Scale: 10, NoiseMin: 1, NoiseMax: 2, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	table, _, err := active.ScreenTable(sc, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	propose := func(t *testing.T, name string, fn func(model.Progress)) *active.Round {
		initial, cands, _ := active.SplitInitial(table, 30, 2)
		cfg := active.Config{Mode: active.Live, Model: name, Acquisition: "ucb", Batch: 5, Seed: 2, Score: "synergy", Drugs: sc.Drugs, CellLines: sc.CellLines}
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
		w := WithTrainProgress(s, fn)
		if w.Name() != s.Name() {
			t.Fatalf("wrapped name %q, want %q", w.Name(), s.Name())
		}
		_, pf := s.(active.Prefiller)
		if _, wpf := w.(active.Prefiller); wpf != pf {
			t.Fatalf("wrapped Prefiller %v, want %v", wpf, pf)
		}
		prop, err := c.Propose(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		return prop.Round
	}
	for _, tc := range []struct {
		model    string
		networks int // networks trained in the first round
	}{
		{"deup-ridge", 0},
		// Alg. 2 pre-fill: 5 folds of the 30 initial pairs, twice (until D_e
		// holds 2·30 examples), then the round's main predictor: 11 DEUPs
		// (RoundTrainings), 5 of them with the μ′ of their novelty fold
		// (model/deupnet/novelty.go): the other 6 train on pairs of all 16
		// drugs, where Net.Fit skips μ′ (TestNetSkipsNoveltyExactly).
		{"deup-net", 16},
		{"mcdropout-net", 1},
	} {
		t.Run(tc.model, func(t *testing.T) {
			var epochs, done int
			want := propose(t, tc.model, nil)
			got := propose(t, tc.model, func(p model.Progress) {
				if p.Done {
					done++
					return
				}
				if p.Epoch < 1 || p.Epoch > p.MaxEpochs {
					t.Errorf("epoch %d of %d", p.Epoch, p.MaxEpochs)
				}
				epochs++
			})
			if got.ModelVersion != want.ModelVersion {
				t.Errorf("model version %s, want %s", got.ModelVersion, want.ModelVersion)
			}
			eq := func(a, b active.Suggestion) bool {
				return a.Pair == b.Pair && a.Rank == b.Rank && a.SurrogatePrediction.Mu == b.SurrogatePrediction.Mu && a.SigmaTotal == b.SigmaTotal && a.Score == b.Score
			}
			if !slices.EqualFunc(got.Suggestions, want.Suggestions, eq) {
				t.Errorf("suggestions with progress %v\nwithout %v", got.Suggestions, want.Suggestions)
			}
			if done != tc.networks || (tc.networks > 0 && epochs < tc.networks) || (tc.networks == 0 && epochs != 0) {
				t.Errorf("%d networks trained (%d epochs), want %d", done, epochs, tc.networks)
			}
		})
	}
}
