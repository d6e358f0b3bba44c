package drugcomb

import (
	"errors"
	"fmt"
	"strings"
)

// ErrSelect is the error of every score or cell-line selection that names
// nothing in the screen (errors.Is).
var ErrSelect = errors.New("drugcomb: selection names nothing in the screen")

// selectError is an ErrSelect with its own message.
type selectError struct{ msg string }

func (e *selectError) Error() string        { return e.msg }
func (e *selectError) Is(target error) bool { return target == ErrSelect }

func selectErr(format string, a ...any) error { return &selectError{fmt.Sprintf(format, a...)} }

// The one selection rule of every command that picks a score column or a
// cell line of a screen by name:
//
//   - a name selects the entry that equals it; failing that, the first
//     entry equal to it ignoring case ("pc-3" selects PC-3);
//   - "" selects the first score column, and the only cell line of a
//     screen with one; a screen with several needs a name (a command whose
//     documented default is the first line passes that name itself);
//   - a name that selects nothing is an error that lists the choices.

// IndexName returns the index of name in names under the selection rule
// (exact, else the first match ignoring case), or -1.
func IndexName(names []string, name string) int {
	fold := -1
	for i, n := range names {
		if n == name {
			return i
		}
		if fold < 0 && strings.EqualFold(n, name) {
			fold = i
		}
	}
	return fold
}

// ScoreColumn returns the index of the score column name selects ("" is
// the first).
func (s *Screen) ScoreColumn(name string) (int, error) {
	if len(s.ScoreNames) == 0 {
		return 0, selectErr("screen %s has no score column", s.Name)
	}
	if name == "" {
		return 0, nil
	}
	if i := IndexName(s.ScoreNames, name); i >= 0 {
		return i, nil
	}
	return 0, selectErr("no score column %q in the screen (have %s)", name, strings.Join(s.ScoreNames, ", "))
}

// CellLineIndex returns the index of the cell line name selects ("" is the
// only line; an error on a screen with several).
func (s *Screen) CellLineIndex(name string) (int, error) {
	switch {
	case len(s.CellLines) == 0:
		return 0, selectErr("screen %s has no cell lines", s.Name)
	case name == "" && len(s.CellLines) == 1:
		return 0, nil
	case name == "":
		return 0, selectErr("the screen has %d cell lines (%s): name one", len(s.CellLines), strings.Join(s.CellLines, ", "))
	}
	if i := IndexName(s.CellLines, name); i >= 0 {
		return i, nil
	}
	return 0, selectErr("no cell line %q in the screen (have %s)", name, strings.Join(s.CellLines, ", "))
}

// OneCellLine returns the screen restricted to the cell line name selects,
// with CellLines = [that line] and every pair on line 0. A line without
// pairs is an error.
func (s *Screen) OneCellLine(name string) (*Screen, error) {
	ci, err := s.CellLineIndex(name)
	if err != nil {
		return nil, err
	}
	out := s.KeepPairs(func(_ int, p *Pair) bool {
		if p.CellLine != ci {
			return false
		}
		p.CellLine = 0
		return true
	})
	out.CellLines = []string{s.CellLines[ci]}
	if len(out.Pairs) == 0 {
		return nil, fmt.Errorf("cell line %s has no pairs", s.CellLines[ci])
	}
	return out, nil
}

// WithDrugs returns a shallow copy of s whose drug list also holds the
// drugs of extra whose ID is not already in it (appended, so pair indices
// stay valid).
func (s *Screen) WithDrugs(extra []Drug) *Screen {
	out := *s
	out.Drugs = append([]Drug(nil), s.Drugs...)
	have := make(map[string]bool, len(s.Drugs))
	for _, d := range s.Drugs {
		have[d.ID] = true
	}
	for _, d := range extra {
		if !have[d.ID] {
			have[d.ID] = true
			out.Drugs = append(out.Drugs, d)
		}
	}
	return &out
}
