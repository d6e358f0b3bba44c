package campaign

import (
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/trained"
)

// SettingError is a campaign setting the screen refuses (a score or cell
// line it does not have); Setting names it as deup's flags spell it
// ("--score", "--cell-line", "--cell-lines"), or is "" where the message
// names the settings itself.
type SettingError struct {
	Setting string
	Err     error
}

func (e *SettingError) Error() string {
	if e.Setting == "" {
		return e.Err.Error()
	}
	return e.Setting + ": " + e.Err.Error()
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
		return nil, &SettingError{"--score", err}
	}
	t := &Table{Screen: sc, Score: si}
	switch {
	case cellLines == "":
		ci, err := sc.CellLineIndex(cellLine)
		if err != nil {
			return nil, &SettingError{"--cell-line", err}
		}
		t.Lines = []int{ci}
	case cellLine != "":
		return nil, &SettingError{"--cell-line and --cell-lines", errors.New("give one of them")}
	default:
		var names []string // nil: every line
		for _, n := range strings.Split(cellLines, ",") {
			if n = strings.TrimSpace(n); n != "" && cellLines != "all" {
				names = append(names, n)
			}
		}
		if t.Lines, err = active.CellLineIndices(sc, names); err != nil {
			return nil, &SettingError{"--cell-lines", errors.New(strings.TrimPrefix(err.Error(), "active: "))}
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
		return &SettingError{Err: fmt.Errorf("--per-line goes with --cell-lines all|A,B,… (%s across several cell lines)", what)}
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

// FromModel returns the screen directory, cell line and score of a
// campaign on the screen a model was trained on (id), where dir, cellLine
// and score (the settings given, "" when not) do not say otherwise: the
// model's screen when dir is "", and on that screen the model's cell line
// and score.
func FromModel(id trained.Screen, dir, cellLine, score string) (string, string, string) {
	if dir == "" && !id.Synthetic() {
		dir = id.Dir
	}
	if dir != id.Dir {
		return dir, cellLine, score
	}
	if cellLine == "" {
		cellLine = id.CellLine
	}
	if score == "" {
		score = id.Score
	}
	return dir, cellLine, score
}

// ModelStart is what a campaign started from a model file runs on: the
// model, and FromModel's screen directory, cell line and score.
type ModelStart struct {
	Model                *trained.Model
	Dir, CellLine, Score string
}

// FromModelFile reads the model file path with load (trained.ReadFile) and returns
// FromModel's settings for dir, cellLine and score. A model file that does
// not record the screen it was trained on is trained.ErrNoMeta.
func FromModelFile(path string, load trained.Loader, dir, cellLine, score string) (*ModelStart, error) {
	tm, err := trained.ReadFile(path, load)
	if err != nil {
		return nil, err
	}
	if tm.Meta == nil {
		return nil, fmt.Errorf("%s: %w", path, trained.ErrNoMeta)
	}
	m := &ModelStart{Model: tm}
	m.Dir, m.CellLine, m.Score = FromModel(tm.Meta.Screen, dir, cellLine, score)
	return m, nil
}
