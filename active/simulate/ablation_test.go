package simulate

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/deup-screening/deup/active"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestAblationCampaign: bucb's two halves in jointRun's panel campaign.
// Before any suggestion is measured the calibration is f = 1, so round 1
// of cucb (calibrated, the top of one ranking) proposes what ucb at kappa
// = z proposes, and round 1 of jucb (joint, uncalibrated) what bucb does;
// the suggest events record the calibration for the calibrated kinds
// only and the length-scale for the joint ones only, and by round 3
// cucb reads a calibration (12 measured suggestions).
func TestAblationCampaign(t *testing.T) {
	z := distuv.UnitNormal.Quantile(0.95)
	first := func(acq string) ([]active.PairOnLine, []map[string]any) {
		rounds, store, _, _ := jointRun(t, acq)
		var p []active.PairOnLine
		for _, s := range rounds[0].Suggestions {
			p = append(p, s.Pair)
		}
		return p, suggestExtras(t, store)
	}
	bucb, _ := first("bucb")
	ucbz, _ := first("ucb:" + strconv.FormatFloat(z, 'g', -1, 64))
	cucb, cx := first("cucb")
	jucb, jx := first("jucb")
	if !reflect.DeepEqual(cucb, ucbz) {
		t.Errorf("round 1: cucb %v, ucb:z %v; want the same batch at f = 1", cucb, ucbz)
	}
	if !reflect.DeepEqual(jucb, bucb) {
		t.Errorf("round 1: jucb %v, bucb %v; want the same batch at f = 1", jucb, bucb)
	}
	if reflect.DeepEqual(bucb, ucbz) {
		t.Errorf("round 1: the believer changed nothing (%v): the fixture does not separate them", bucb)
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
