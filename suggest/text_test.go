package suggest

import (
	"bytes"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/uq"
)

func TestWriteSigmaNote(t *testing.T) {
	c := &Candidates{Pairs: []active.PairOnLine{{A: 0, B: 1}}, Pred: []active.SurrogatePrediction{{SigmaTotal: 2}}, AcqIn: []active.SurrogatePrediction{{SigmaTotal: 3}}}
	const tail = "; e.g. the first candidate's by 1.5); the file's sigma columns are the model's\n" // 3/2
	tests := []struct {
		name string
		c    *Candidates
		o    Options
		want string
	}{
		{name: "off", c: c, o: Options{Cal: &uq.Calibrator{Method: uq.MethodScale}, Coverage: 0.9}, want: ""},
		{name: "no candidates", c: &Candidates{}, o: Options{CalibratedSigma: true, Cal: &uq.Calibrator{Method: uq.MethodScale}, Coverage: 0.9}, want: ""},
		{name: "normalized conformal: one factor", c: c, o: Options{CalibratedSigma: true, Cal: &uq.Calibrator{Method: uq.MethodConformalNormalized}, Coverage: 0.9},
			want: "--calibrated-sigma: the acquisition reads the sigmas scaled by the 90% calibration (one factor for every pair" + tail},
		{name: "isotonic: per pair", c: c, o: Options{CalibratedSigma: true, Cal: &uq.Calibrator{Method: uq.MethodIsotonic}, Coverage: 0.8},
			want: "--calibrated-sigma: the acquisition reads the sigmas scaled by the 80% calibration (a factor per pair" + tail},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.c.WriteSigmaNote(&buf, tc.o); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
