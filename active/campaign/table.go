package campaign

import (
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/trained"
)

// SettingError is a campaign setting the screen or the campaign refuses:
// Setting says which (Unnamed where Err says it itself), Err what is wrong
// with it. Its message names settings as the domain does ("score", "cell
// line"); the command layer names them by its flags.
type SettingError struct {
	Setting Setting
	Err     error
}

// Setting is a setting of a campaign that a SettingError is about.
type Setting int

// The settings, with what a SettingError about each holds in Err.
const (
	Unnamed    Setting = iota // Err says which setting and what is wrong
	Score                     // the score column; Err is the screen's
	CellLine                  // the one cell line; Err is the screen's
	CellLines                 // the cell lines of a campaign across a panel; Err says which is unknown
	LineChoice                // one cell line and a list of them both given; Err says to give one
	PerLine                   // a cap per cell line on fewer than two lines; Err names the run it is for
	Candidates                // a candidates file for a retrospective campaign; Err says why not
	InitSize                  // an initial set size for a live campaign; Err says why not
	PlateScore                // a plate readout scored as the campaign's score, which no block score is; Err names it
	Overrides                 // batch, acquisition or exploration for a round already proposed; Err names the round
	Batch                     // a batch larger than the pool of candidates, or than the per-line cap lets a batch hold; Err gives both numbers
)

var settingNames = [...]string{
	Unnamed: "", Score: "score", CellLine: "cell line", CellLines: "cell lines",
	LineChoice: "one cell line and a list of cell lines", PerLine: "a cap per cell line",
	Candidates: "candidates", InitSize: "an initial set", PlateScore: "the plate score",
	Overrides: "overrides", Batch: "batch",
}

// String names the setting in words.
func (s Setting) String() string {
	if s < 0 || int(s) >= len(settingNames) {
		return fmt.Sprintf("Setting(%d)", int(s))
	}
	return settingNames[s]
}

func (e *SettingError) Error() string {
	switch e.Setting {
	case Unnamed:
		return e.Err.Error()
	case PerLine:
		return "a cap per cell line needs several cell lines (" + e.Err.Error() + ")"
	case Candidates:
		return "a candidates file is for live campaigns (" + e.Err.Error() + ")"
	case InitSize:
		return "an initial set is for retrospective campaigns (" + e.Err.Error() + ")"
	case PlateScore:
		return e.Err.Error() + ": say which block score the plates are"
	case Overrides:
		return e.Err.Error() + ": export it as proposed, or import its results first"
	}
	return e.Setting.String() + ": " + e.Err.Error()
}

func (e *SettingError) Unwrap() error { return e.Err }

// Table is the measured part of a screen that a campaign runs on.
type Table struct {
	Screen *drugcomb.Screen
	Score  int    // the score column
	Lines  []int  // the campaign's cell lines: positions in Screen.CellLines
	Label  string // their names, joined by commas
	// Oracle holds the measured pairs of Lines on Score; Skipped counts
	// those without a score, left out.
	Oracle  active.TableOracle
	Skipped int
}

// Select resolves the score column named score (sc.ScoreColumn's rule) and
// the campaign's cell lines of sc: cellLine (sc.CellLineIndex's rule) when
// cellLines is "", else the lines of a campaign across a panel, "all" or a
// comma-separated list (active.CellLineIndices' rule, in the order given),
// the two being exclusive; and returns the measured pairs. A refused
// setting is a *SettingError.
func Select(sc *drugcomb.Screen, score, cellLine, cellLines string) (*Table, error) {
	si, err := sc.ScoreColumn(score)
	if err != nil {
		return nil, &SettingError{Score, err}
	}
	t := &Table{Screen: sc, Score: si}
	switch {
	case cellLines == "":
		ci, err := sc.CellLineIndex(cellLine)
		if err != nil {
			return nil, &SettingError{CellLine, err}
		}
		t.Lines = []int{ci}
	case cellLine != "":
		return nil, &SettingError{LineChoice, errors.New("give one of them")}
	default:
		var names []string // nil: every line
		for _, n := range strings.Split(cellLines, ",") {
			if n = strings.TrimSpace(n); n != "" && cellLines != "all" {
				names = append(names, n)
			}
		}
		if t.Lines, err = active.CellLineIndices(sc, names); err != nil {
			return nil, &SettingError{CellLines, errors.New(strings.TrimPrefix(err.Error(), "active: "))}
		}
	}
	names := make([]string, len(t.Lines))
	for i, l := range t.Lines {
		names[i] = sc.CellLines[l]
	}
	t.Label = strings.Join(names, ",")
	t.Oracle, t.Skipped, err = active.ScreenTableLines(sc, si, names)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// checkPerLine refuses, as a *SettingError, a cap per cell line (maxPerLine
// > 0) on a table of fewer than two lines; what names the run ("a
// campaign") across several lines that the cap is for.
func (t *Table) checkPerLine(maxPerLine int, what string) error {
	if maxPerLine > 0 && len(t.Lines) < 2 {
		return &SettingError{PerLine, fmt.Errorf("%s across several cell lines", what)}
	}
	return nil
}

// CheckBatch refuses, as a *SettingError, a batch of batch pairs that the
// pool of pool open candidates cannot fill, or that a cap of maxPerLine
// pairs per cell line (0: none) on lines lines cannot: a round would
// propose fewer pairs than asked for, which a batch never does silently.
func CheckBatch(batch, maxPerLine, pool, lines int) error {
	switch {
	case batch > pool:
		return &SettingError{Batch, fmt.Errorf("a batch of %d is larger than the pool of %d open candidate pairs", batch, pool)}
	case maxPerLine > 0 && maxPerLine*lines < batch:
		return &SettingError{Batch, fmt.Errorf("a batch of %d cannot be filled at %d pairs per cell line on %d lines (%d at most)", batch, maxPerLine, lines, maxPerLine*lines)}
	}
	return nil
}

// Unstructured says which drugs of a screen the structure rule left out
// (Screens.Structured) and of how many.
type Unstructured struct {
	Drugs int      // the screen's drugs, those left out among them
	Left  []string // each drug left out, named, with the parser's message
}

// Table opens the screen in dir ("" the synthetic default) under the
// structure rule (Structured) and selects its score and cell lines
// (Select). The drugs left out are returned even when Select refuses the
// settings (a *SettingError), for the caller to count them first.
func (s Screens) Table(dir, score, cellLine, cellLines string) (*Table, Unstructured, error) {
	sc, left, err := s.Structured(dir)
	if err != nil {
		return nil, Unstructured{}, err
	}
	un := Unstructured{Drugs: len(sc.Drugs) + len(left), Left: left}
	t, err := Select(sc, score, cellLine, cellLines)
	return t, un, err
}

// Target is where a campaign runs: its screen directory, cell line and
// score ("" where not said).
type Target struct {
	Dir, CellLine, Score string
}

// FromModel returns the target of a campaign on the screen a model was
// trained on (id), where the settings given do not say otherwise: the
// model's screen when given.Dir is "", and on that screen the model's cell
// line and score.
func FromModel(id trained.Screen, given Target) Target {
	t := given
	if t.Dir == "" && !id.Synthetic() {
		t.Dir = id.Dir
	}
	if t.Dir != id.Dir {
		return t
	}
	if t.CellLine == "" {
		t.CellLine = id.CellLine
	}
	if t.Score == "" {
		t.Score = id.Score
	}
	return t
}

// ModelStart is what a campaign started from a model file runs on: the
// model, and FromModel's target.
type ModelStart struct {
	Model *trained.Bundle
	Target
}

// FromModelFile reads the model file path with load (trained.ReadFile) and
// returns it with FromModel's target for the settings given. A model file that does
// not record the screen it was trained on is trained.ErrNoMeta.
func FromModelFile(path string, load trained.Loader, given Target) (*ModelStart, error) {
	tm, err := trained.ReadFile(path, load)
	if err != nil {
		return nil, err
	}
	if tm.Meta == nil {
		return nil, fmt.Errorf("%s: %w", path, trained.ErrNoMeta)
	}
	return &ModelStart{Model: tm, Target: FromModel(tm.Meta.Screen, given)}, nil
}
