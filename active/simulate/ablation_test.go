package simulate

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
	"github.com/deup-screening/deup/active/surrogate"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestAblationCampaign: bucb's two halves in a panel campaign. Before any
// suggestion is measured the calibration is f = 1, so round 1 of cucb
// (calibrated, the top of one ranking) proposes what ucb at kappa = z
// proposes, and round 1 of jucb (joint, uncalibrated) what bucb does;
// the suggest events record the calibration for the calibrated kinds
// only and the length-scale for the joint ones only, and by round 3
// cucb reads a calibration (12 measured suggestions).
func TestAblationCampaign(t *testing.T) {
	base, table := activetest.PanelScreen(10, []float64{0, 30}, 5)
	initial, cands, err := active.SplitInitial(table, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	z := distuv.UnitNormal.Quantile(0.95)
	run := func(acq string) ([][]active.PairOnLine, []map[string]any) {
		cc := base
		cc.Mode, cc.Model, cc.Acquisition, cc.Batch, cc.Rounds, cc.MaxPerLine, cc.Seed, cc.Features = active.Retrospective, surrogate.RidgeDEUP, acq, 6, 3, 4, 7, "identity"
		enc, err := surrogate.NewEncoder(cc)
		if err != nil {
			t.Fatal(err)
		}
		sur, err := surrogate.NewFor(cc, enc)
		if err != nil {
			t.Fatal(err)
		}
		store := active.NewMemoryStore()
		c, err := active.Create(store, cc, initial, cands)
		if err != nil {
			t.Fatal(err)
		}
		var picks [][]active.PairOnLine
		for !c.Done() {
			prop, err := c.Step(context.Background(), sur, table)
			if err != nil {
				t.Fatalf("%s: %v", acq, err)
			}
			var p []active.PairOnLine
			for _, s := range prop.Round.Suggestions {
				p = append(p, s.Pair)
			}
			picks = append(picks, p)
		}
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
		return picks, extras
	}
	bucb, _ := run("bucb")
	ucbz, _ := run("ucb:" + strconv.FormatFloat(z, 'g', -1, 64))
	cucb, cx := run("cucb")
	jucb, jx := run("jucb")
	if !reflect.DeepEqual(cucb[0], ucbz[0]) {
		t.Errorf("round 1: cucb %v, ucb:z %v; want the same batch at f = 1", cucb[0], ucbz[0])
	}
	if !reflect.DeepEqual(jucb[0], bucb[0]) {
		t.Errorf("round 1: jucb %v, bucb %v; want the same batch at f = 1", jucb[0], bucb[0])
	}
	if reflect.DeepEqual(bucb[0], ucbz[0]) {
		t.Errorf("round 1: the believer changed nothing (%v): the fixture does not separate them", bucb[0])
	}
	for i := range cx {
		if _, ok := cx[i]["length_scale2"]; ok {
			t.Errorf("cucb round %d records a length-scale: %v", i+1, cx[i])
		}
		if _, ok := jx[i]["sigma_scale"]; ok {
			t.Errorf("jucb round %d records a calibration: %v", i+1, jx[i])
		}
		if _, ok := jx[i]["length_scale2"]; !ok {
			t.Errorf("jucb round %d: no length-scale: %v", i+1, jx[i])
		}
	}
	if len(cx) != 3 || cx[2]["calibration_pairs"] != 12.0 || cx[2]["sigma_scale"] == 1.0 {
		t.Errorf("cucb suggest events %v: want round 3 calibrated on 12 pairs", cx)
	}
}
