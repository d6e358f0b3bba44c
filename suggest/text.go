package suggest

import (
	"fmt"
	"io"

	"github.com/deup-screening/deup/uq"
)

// WriteSigmaNote writes, when o.CalibratedSigma is set, the line deup
// suggest prints on it: that the acquisition reads the sigmas scaled by
// o.Cal (one factor for every pair under normalized conformal calibration,
// a factor per pair otherwise), the first candidate's factor as an example,
// and that the file's sigma columns are the model's. It writes nothing
// otherwise or without candidates.
func (c *Candidates) WriteSigmaNote(w io.Writer, o Options) error {
	if !o.CalibratedSigma || len(c.Pairs) == 0 {
		return nil
	}
	note := "one factor for every pair"
	if o.Cal.Method != uq.MethodConformalNormalized {
		note = "a factor per pair"
	}
	_, err := fmt.Fprintf(w, "--calibrated-sigma: the acquisition reads the sigmas scaled by the %g%% calibration (%s; e.g. the first candidate's by %.4g); the file's sigma columns are the model's\n",
		100*o.Coverage, note, c.AcqIn[0].SigmaTotal/c.Pred[0].SigmaTotal)
	return err
}
