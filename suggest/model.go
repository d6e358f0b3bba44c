package suggest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/trained"
	"github.com/deup-screening/deup/uq"
)

// Place is where a model suggests: the (screen line, model line) pairs it
// scores, the cell line's name for messages ("every cell line" across a
// panel) and the pairs the screen measured there, which are not suggested.
type Place struct {
	Lines    []drugcomb.LinePair
	CellLine string
	Measured active.TableOracle
}

// ErrPerLine is Where's error for a cap per cell line where the model
// suggests on one cell line (a model not trained on a panel, or a cell line
// named).
var ErrPerLine = errors.New("a cap per cell line needs a model trained on a panel, suggesting across its cell lines")

// PlaceError is a score or cell line Where cannot suggest on: the screen
// has no such score column (Score, with the screen's error in Err) or cell
// line (Err), or a panel model (Model, trained on the cell lines Trained)
// was not trained on the cell line named (CellLine; Err nil).
type PlaceError struct {
	Score    bool
	CellLine string
	Model    string
	Trained  []string
	Err      error
}

func (e *PlaceError) Error() string {
	switch {
	case e.Score:
		return "score: " + e.Err.Error()
	case e.Err != nil:
		return "cell line: " + e.Err.Error()
	}
	return fmt.Sprintf("cell line %s: %s was trained on %s", e.CellLine, e.Model, strings.Join(e.Trained, ", "))
}

func (e *PlaceError) Unwrap() error { return e.Err }

// Where resolves where a model trained on ms (nil for a model file that
// does not record its screen; name is the model in errors) suggests on the
// screen sc: a panel model across the lines of sc it knows unless cellLine
// names one, any other model on one cell line (cellLine; when sc is the
// model's own screen, own, the model's line by default). The score column
// is the model's unless score names another (drugcomb's selection rule).
// perLine > 0 needs a panel model without cellLine. Every error is about
// these choices.
func Where(sc *drugcomb.Screen, ms *trained.Screen, name string, own bool, cellLine, score string, perLine int) (*Place, error) {
	panel := ms != nil && len(ms.CellLines) > 1
	var lines []drugcomb.LinePair
	if panel && cellLine == "" {
		if lines = drugcomb.PanelLines(sc.CellLines, ms.CellLines, -1); len(lines) == 0 {
			return nil, fmt.Errorf("the screen has none of the cell lines %s was trained on (%s)", name, strings.Join(ms.CellLines, ", "))
		}
		if score == "" {
			score = ms.Score
		}
	} else if perLine > 0 {
		return nil, ErrPerLine
	}
	if ms != nil && own && lines == nil {
		if cellLine == "" {
			cellLine = ms.CellLine
		}
		if score == "" {
			score = ms.Score
		}
	}
	si, err := sc.ScoreColumn(score)
	if err != nil {
		return nil, &PlaceError{Score: true, Err: err}
	}
	p := &Place{CellLine: "every cell line", Lines: lines}
	tableLine := ""
	if lines == nil {
		ci, err := sc.CellLineIndex(cellLine)
		if err != nil {
			return nil, &PlaceError{Err: err}
		}
		p.CellLine, tableLine = sc.CellLines[ci], sc.CellLines[ci]
		ml := 0 // a one-line model's only line, or the named line of a panel model
		if panel {
			if ml = drugcomb.IndexName(ms.CellLines, p.CellLine); ml < 0 {
				return nil, &PlaceError{CellLine: p.CellLine, Model: name, Trained: ms.CellLines}
			}
		}
		p.Lines = []drugcomb.LinePair{{Screen: ci, Model: ml}}
	}
	if p.Measured, _, err = active.ScreenTable(sc, si, tableLine); err != nil {
		return nil, err
	}
	return p, nil
}

// Options are how suggestions are picked from a model's predictions.
type Options struct {
	Acquisition      active.Acquisition
	Batch            int
	PerDrug, PerLine int // at most this many per drug, per cell line (0: no cap)
	Seed             uint64
	// Cal gives each suggestion its interval at Coverage (nil: none);
	// with CalibratedSigma the acquisition reads the sigmas scaled by it
	// (active.Calibrated).
	Cal             *uq.Calibrator
	Coverage        float64
	CalibratedSigma bool
}

// Candidates are the pairs suggestions are picked from, with a model's
// predictions.
type Candidates struct {
	Screen    *drugcomb.Screen
	Pairs     []active.PairOnLine
	Pred      []active.SurrogatePrediction // the model's
	AcqIn     []active.SurrogatePrediction // what the acquisition reads: Pred, or scaled by the calibration
	Intervals []active.Interval            // nil without a calibration
	measured  active.TableOracle           // the place's measured pairs
}

// Predict returns every pair of the feature rows of f (kept[r] is the
// screen's drug of row r) on the lines of p that the screen has not
// measured, with the model's predictions (predict: a trained method's
// Predict) and, with o.Cal, their intervals. No candidates (every pair
// measured) is not an error: Pairs is empty.
func Predict(sc *drugcomb.Screen, p *Place, predict func(*model.Features, []model.PairRef) ([]model.Prediction, error), f *model.Features, kept []int, o Options) (*Candidates, error) {
	c := &Candidates{Screen: sc, measured: p.Measured}
	cands, mp := active.UnmeasuredCandidates(kept, p.Lines, p.Measured)
	if c.Pairs = cands; len(cands) == 0 {
		return c, nil
	}
	preds, err := predict(f, mp)
	if err != nil {
		return nil, err
	}
	c.Pred = active.FromModel(preds)
	c.AcqIn = c.Pred
	if o.Cal != nil {
		var bad int
		if c.AcqIn, c.Intervals, bad, err = active.Calibrated(c.Pred, o.Cal, o.Coverage, o.CalibratedSigma); err != nil {
			return nil, fmt.Errorf("pair %s, %s: %w", sc.Drugs[cands[bad].A].ID, sc.Drugs[cands[bad].B].ID, err)
		}
	}
	return c, nil
}

// Pick ranks the candidates with o's acquisition against the best score
// measured at their place (active.Rank, with o's caps and seed) and returns the
// batch, best first: each with the model's prediction, the acquisition's
// score and the reason (its rank, the caps, the interval).
func (c *Candidates) Pick(o Options) ([]Suggestion, error) {
	acq := o.Acquisition
	pick, scores, err := active.Rank(acq, c.Pairs, c.AcqIn, c.measured, o.Batch, o.PerDrug, o.PerLine, o.Seed)
	if err != nil {
		return nil, err
	}
	var rows []Suggestion
	for rank, i := range pick {
		p, ap := c.Pairs[i], c.Pred[i]
		reason := acq.Reason(c.AcqIn[i], scores[i], rank+1, len(c.Pairs))
		if o.CalibratedSigma {
			reason += " (calibrated sigma)"
		}
		if o.PerDrug > 0 {
			reason += fmt.Sprintf("; at most %d per drug", o.PerDrug)
		}
		if o.PerLine > 0 {
			reason += fmt.Sprintf("; at most %d per cell line", o.PerLine)
		}
		s := Suggestion{Rank: rank + 1, DrugA: c.Screen.Drugs[p.A], DrugB: c.Screen.Drugs[p.B], CellLine: c.Screen.CellLines[p.CellLine],
			Mu: ap.Mu, SigmaTotal: ap.SigmaTotal, SigmaEpistemic: ap.SigmaEpistemic, SigmaAleatoric: ap.SigmaAleatoric,
			Acquisition: scores[i], Reason: reason}
		if c.Intervals != nil {
			iv := c.Intervals[i]
			s.Interval = &Interval{Lower: iv.Lower, Upper: iv.Upper}
			s.Reason += fmt.Sprintf("; %g%% interval [%.4g, %.4g]", 100*o.Coverage, iv.Lower, iv.Upper)
		}
		rows = append(rows, s)
	}
	return rows, nil
}
