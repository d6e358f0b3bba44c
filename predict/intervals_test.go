package predict

import (
	"bytes"
	"strings"
	"testing"

	"github.com/deup-screening/deup/trained"
	"github.com/deup-screening/deup/uq"
)

// TestIntervals: without a calibration a model gives none, with a note,
// unless intervals were asked for (then Calibration's error); with one the
// note names the coverage and the calibration (uq.Calibrator.String:
// "conformal on 9 pairs").
func TestIntervals(t *testing.T) {
	cal := &trained.Bundle{Meta: &trained.Meta{Calibration: &uq.Calibrator{Method: uq.MethodConformal, N: 9}}}
	for _, tc := range []struct {
		name    string
		tm      *trained.Bundle
		asked   bool
		wantCal bool
		want    string // the line written
		err     string
	}{
		{name: "none, not asked", tm: &trained.Bundle{}, want: "no intervals: m.deup holds no calibration (retrain it with deup train --calibration 0.1 for lower/upper)\n"},
		{name: "none, asked", tm: &trained.Bundle{}, asked: true, err: "m.deup holds no calibration"},
		{name: "calibrated", tm: cal, wantCal: true, want: "intervals: lower and upper at 90% coverage, conformal on 9 pairs held out of training\n"},
		{name: "calibrated, asked", tm: cal, asked: true, wantCal: true, want: "intervals: lower and upper at 90% coverage, conformal on 9 pairs held out of training\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			got, err := Intervals(&buf, tc.tm, "m.deup", 0.9, tc.asked)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || (got != nil) != tc.wantCal || buf.String() != tc.want {
				t.Errorf("got %v, %v, %q; want calibration %v, %q", got, err, buf.String(), tc.wantCal, tc.want)
			}
		})
	}
}
