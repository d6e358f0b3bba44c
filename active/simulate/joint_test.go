package simulate

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
	"github.com/deup-screening/deup/active/surrogate"
)

// jointRun is the panel campaign of the joint-batch tests (10 drugs on two
// lines, 20 initial pairs, 3 rounds of 6, at most 4 pairs per line,
// interactive DEUP on identity features, seed 7) with acquisition acq,
// stepped to its end: its rounds, its store, the screen, and a maker of
// fresh surrogates for resuming it.
func jointRun(t *testing.T, acq string) ([]*active.Round, active.Store, active.TableOracle, func() active.Surrogate) {
	t.Helper()
	base, table := activetest.PanelScreen(10, []float64{0, 30}, 5)
	initial, cands, err := active.SplitInitial(table, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	cc := base
	cc.Mode, cc.Model, cc.Acquisition, cc.Batch, cc.Rounds, cc.MaxPerLine, cc.Seed, cc.Features = active.Retrospective, surrogate.RidgeDEUP, acq, 6, 3, 4, 7, "identity"
	enc, err := surrogate.NewEncoder(cc)
	if err != nil {
		t.Fatal(err)
	}
	newSur := func() active.Surrogate {
		s, err := surrogate.NewFor(cc, enc)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	store := active.NewMemoryStore()
	c, err := active.Create(store, cc, initial, cands)
	if err != nil {
		t.Fatal(err)
	}
	sur := newSur()
	var rounds []*active.Round
	for !c.Done() {
		prop, err := c.Step(context.Background(), sur, table)
		if err != nil {
			t.Fatalf("%s: %v", acq, err)
		}
		rounds = append(rounds, prop.Round)
	}
	return rounds, store, table, newSur
}

// suggestExtras returns the Extra of each suggest event of store, decoded.
func suggestExtras(t *testing.T, store active.Store) []map[string]any {
	t.Helper()
	var extras []map[string]any
	for _, e := range store.Events() {
		if e.Kind == active.KindSuggest {
			var m map[string]any
			if err := json.Unmarshal([]byte(e.Extra), &m); err != nil {
				t.Fatal(err)
			}
			extras = append(extras, m)
		}
	}
	return extras
}

// TestJointCampaign runs a panel campaign with the joint batch (bucb on
// interactive DEUP) the way simulate and campaign step do (State.Step):
// round 1 reads the sigmas as given (no measured suggestion yet), later
// rounds the calibration of the earlier rounds' pairs, recorded in the
// suggest event; the per-line cap holds; and a campaign replayed from its
// events after any round proposes the next batch as the uninterrupted one.
func TestJointCampaign(t *testing.T) {
	rounds, store, table, newSur := jointRun(t, "bucb")
	for _, r := range rounds {
		for l, n := range activetest.PerLine(r) {
			if n > 4 {
				t.Errorf("round %d: %d pairs on line %d, cap 4", r.Index, n, l)
			}
		}
	}
	var extras []map[string]float64
	for _, m := range suggestExtras(t, store) {
		extras = append(extras, map[string]float64{"scale": m["sigma_scale"].(float64), "n": m["calibration_pairs"].(float64), "l2": m["length_scale2"].(float64)})
	}
	if len(extras) != 3 {
		t.Fatalf("%d suggest events, want 3", len(extras))
	}
	if extras[0]["scale"] != 1 || extras[0]["n"] != 0 {
		t.Errorf("round 1: %v, want scale 1 from no calibration pair", extras[0])
	}
	// Round 2 has round 1's 6 pairs (fewer than the 9 a 0.9 quantile
	// needs: scale 1), round 3 twelve: a calibrated scale.
	if extras[1]["n"] != 6 || extras[1]["scale"] != 1 || extras[2]["n"] != 12 || extras[2]["scale"] == 1 || !(extras[2]["scale"] > 0) {
		t.Errorf("rounds 2, 3: %v, %v", extras[1], extras[2])
	}
	for _, e := range extras {
		if !(e["l2"] > 0) {
			t.Errorf("length-scale %v", e)
		}
	}
	// Resume after each round: replay the events up to it and step on
	// with a fresh surrogate.
	evs := store.Events()
	for cut := 1; cut < len(evs); cut++ {
		if evs[cut].Kind != active.KindSuggest {
			continue
		}
		part := active.NewMemoryStore()
		for i := 0; i < cut; i++ {
			e := evs[i]
			part.Append(&e)
		}
		rc, err := active.Load(part)
		if err != nil {
			t.Fatal(err)
		}
		prop, err := rc.Step(context.Background(), newSur(), table)
		if err != nil {
			t.Fatal(err)
		}
		want := rounds[prop.Round.Index-1]
		if !reflect.DeepEqual(prop.Round.Suggestions, want.Suggestions) {
			t.Errorf("resumed before round %d: a different batch", prop.Round.Index)
		}
	}
}
