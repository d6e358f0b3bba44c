package predict

import (
	"errors"
	"fmt"
	"io"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/digest"
	"github.com/deup-screening/deup/scores"
	"github.com/deup-screening/deup/trained"
	"github.com/deup-screening/deup/uq"
)

// Plan is where a prediction run writes and which rows it scores.
type Plan struct {
	// Out is a file (CSV, Arrow or Parquet by its extension) or, with Hive,
	// a directory of hive parts, one per line scored.
	Out   string
	Hive  bool
	Pairs string // a pairs file (ReadPairs); "": every pair of the drugs
	Lines []int  // the model's lines to score (Lines); t.Lines names them
	// LinesGiven says Lines came from a spec of the user's (--cell-lines),
	// which a pairs file with a cell_line column may not have.
	LinesGiven bool
	Shard      scores.Shard
	// Model and Program are the model file and the program (deup
	// --version) a hive part records (scores.Identity).
	Model, Program string
}

// ErrLinesTwice is Open's error for lines to score given both by the plan
// (LinesGiven) and by the pairs file's cell_line column.
var ErrLinesTwice = errors.New("the pairs file has a cell_line column: each row is scored on its own line")

// ErrNoCellLine is Open's error for hive parts of a model that does not
// record its cell line (a model file from an older deup).
var ErrNoCellLine = errors.New("predict: the model does not record its cell line")

// Open sets t.Drugs to the kept rows of drugs (KeptDrugs) and, with a
// pairs file, t.Extra to its other columns; it returns the job (the
// shard's rows of the pairs, on p.Lines; with the file's cell_line column
// each row on its own line, and the job's Lines those of the shard's rows,
// in model order) and the writer of p.Out. A hive
// part records the identity of the run (Identity); cellLine is the model's.
func Open(p Plan, drugs []drugcomb.Drug, kept []int, cellLine string, t *Table) (Job, *Writer, error) {
	job := Job{Lines: p.Lines}
	t.Drugs = KeptDrugs(drugs, kept)
	var err error
	if p.Pairs != "" {
		if job.Pairs, err = ReadPairs(p.Pairs, t.Drugs.Row, drugs, t.Lines); err != nil {
			return job, nil, err
		}
		if job.Pairs.OwnLines && p.LinesGiven {
			return job, nil, ErrLinesTwice
		}
		t.Extra = job.Pairs.ExtraNames
	}
	total := Total(job.Pairs, len(kept))
	job.Lo, job.Hi = p.Shard.Range(total)
	if job.Pairs != nil && job.Pairs.OwnLines {
		job.Lines = job.Pairs.linesOf(job.Lo, job.Hi, len(t.Lines))
	}
	if !p.Hive {
		w, err := Create(p.Out, t)
		return job, w, err
	}
	if cellLine == "" {
		return job, nil, ErrNoCellLine
	}
	id, err := Identity(p, t.Drugs, cellLine, job.Lo, job.Hi, total)
	if err != nil {
		return job, nil, err
	}
	var parts []string // DIR/cell_line=X/part-i-of-N.parquet
	for _, l := range job.Lines {
		parts = append(parts, t.Lines[l])
	}
	w, err := CreatePart(p.Out, id, parts, t)
	return job, w, err
}

// Identity is what a hive part records about its run: the model file's and
// the pairs file's digests, the scored drugs' (d: the feature rows kept,
// ids in row order), the program, the model's cell line and the shard's
// rows [lo, hi) of total.
func Identity(p Plan, d Drugs, cellLine string, lo, hi, total int) (scores.Identity, error) {
	md, err := digest.File(p.Model)
	if err != nil {
		return scores.Identity{}, err
	}
	pd := scores.AllPairs
	if p.Pairs != "" {
		if pd, err = digest.File(p.Pairs); err != nil {
			return scores.Identity{}, err
		}
	}
	return scores.Identity{
		Model: md, Drugs: scores.DrugsDigest(d.IDs, d.SMILES), NDrugs: len(d.IDs), Pairs: pd,
		Program: p.Program, CellLine: cellLine,
		Shard: p.Shard, Lo: lo, Hi: hi, Total: total,
	}, nil
}

// CalibrationError is a model's calibration that cannot give intervals at
// Coverage: the model file (Path) holds none (Need 0), or one of N pairs
// where a conformal interval at Coverage needs Need. A model without one is
// retrained with a calibration fraction, one with too few pairs with a
// larger fraction (or a lower coverage is asked).
type CalibrationError struct {
	Path     string
	Coverage float64
	N, Need  int
}

func (e *CalibrationError) Error() string {
	if e.Need == 0 {
		return fmt.Sprintf("%s holds no calibration (trained without one, or by an older deup): no intervals at coverage %v", e.Path, e.Coverage)
	}
	return fmt.Sprintf("%s was calibrated on %d pairs, and a %g%% conformal interval needs at least %d", e.Path, e.N, 100*e.Coverage, e.Need)
}

// Calibration returns the calibration stored in the model tm (read from
// path) if it can give intervals at coverage, or a *CalibrationError
// saying why not.
func Calibration(tm *trained.Bundle, path string, coverage float64) (*uq.Calibrator, error) {
	if tm.Meta == nil || tm.Meta.Calibration == nil {
		return nil, &CalibrationError{Path: path, Coverage: coverage}
	}
	cal := tm.Meta.Calibration
	if need := uq.MinCalibration(1 - coverage); cal.N < need {
		return nil, &CalibrationError{Path: path, Coverage: coverage, N: cal.N, Need: need}
	}
	return cal, nil
}

// Intervals returns the calibration that gives suggestions and the TUI
// their intervals at coverage, and writes a line to w saying which it is.
// A model without calibration gives none (nil, with a note on how to get
// one) unless asked is set (--coverage or --calibrated-sigma given); then,
// as any calibration unfit for coverage, it is Calibration's error.
func Intervals(w io.Writer, tm *trained.Bundle, path string, coverage float64, asked bool) (*uq.Calibrator, error) {
	if (tm.Meta == nil || tm.Meta.Calibration == nil) && !asked {
		fmt.Fprintf(w, "no intervals: %s holds no calibration (retrain it with deup train --calibration 0.1 for lower/upper)\n", path)
		return nil, nil
	}
	cal, err := Calibration(tm, path, coverage)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "intervals: lower and upper at %g%% coverage, %s held out of training\n", 100*coverage, cal)
	return cal, nil
}
