package pairs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/trained"
)

// What deup tui shows, decided from its flags: the screen (WhichScreen)
// and the cell lines its predictions go on (ChooseLines). The command
// opens the files, reads them and prints; these return its choices.

// ScreenFrom is where the screen of deup tui comes from.
type ScreenFrom int

const (
	ScreenGiven    ScreenFrom = iota // the directory given (--screen DIR)
	CampaignScreen                   // the campaign's (its configuration's directory; "" is the synthetic default)
	ModelScreen                      // the screen the model was trained on (trained.Bundle.OpenScreen(""))
	DefaultScreen                    // the synthetic default
)

// WhichScreen returns where the screen of deup tui comes from: the
// directory given (dir, when not ""), else the campaign's (campaign: a
// campaign is given), else the screen the model was trained on (model: a
// model is given), else the synthetic default.
func WhichScreen(dir string, campaign, model bool) ScreenFrom {
	switch {
	case dir != "":
		return ScreenGiven
	case campaign:
		return CampaignScreen
	case model:
		return ModelScreen
	}
	return DefaultScreen
}

// Predicted is where the predictions of a table come from.
type Predicted int

const (
	NotPredicted Predicted = iota // nowhere: the screen's measured pairs alone
	ByModel                       // a model scores every pair (Builder.AddModel)
	ByFile                        // a predictions file (Builder.ReadPredictions)
)

// Lines is where the predictions of a table of a screen's pairs go
// (ChooseLines).
type Lines struct {
	// Cell is the screen line named, else the screen's first (-1 for a
	// screen without cell lines). For a predictions file it is the line of
	// its rows without a cell line (ReadPredictions' cell): -1, which makes
	// such rows an error, when the screen has several lines and none is
	// named.
	Cell int
	// Model pairs the screen lines a model scores with its own lines
	// (AddModel's lines); nil unless the predictions are ByModel.
	Model []drugcomb.LinePair
}

// ErrNoCellLines is ChooseLines' error for a model on a screen without
// cell lines.
var ErrNoCellLines = errors.New("the screen has no cell lines")

// UnknownLinesError is ChooseLines' error for a model trained on a panel
// that knows none of the screen's cell lines.
type UnknownLinesError struct {
	Screen, Model []string // the cell lines of the screen and of the model
}

func (e *UnknownLinesError) Error() string {
	return fmt.Sprintf("the model knows none of the screen's cell lines %s (it has %s)", strings.Join(e.Screen, ", "), strings.Join(e.Model, ", "))
}

// ChooseLines returns where the predictions of a table of screen sc's
// pairs go, given where they come from (from) and the cell line named
// (cellLine, deup tui's --cell-line; "" for the default, matched by
// drugcomb.IndexName's rule). A model trained on ms (nil when its file does
// not record its screen) scores on the line named; by default a one-line
// model scores on its own line when sc is the screen it was trained on
// (own) and has that line, else on sc's first line, and a panel model on
// every line of sc it knows (drugcomb.ModelLines). Errors, whatever from
// is: a name that selects no line of sc wraps drugcomb.ErrSelect. With a
// model: ErrNoCellLines for a screen without cell lines, an
// *UnknownLinesError for a panel model that knows none of sc's lines.
func ChooseLines(sc *drugcomb.Screen, from Predicted, cellLine string, ms *trained.Screen, own bool) (Lines, error) {
	var modelLines []string
	if ms != nil {
		modelLines = ms.CellLines
		if i := drugcomb.IndexName(sc.CellLines, ms.CellLine); from == ByModel && own && cellLine == "" && len(modelLines) < 2 && i >= 0 {
			cellLine = sc.CellLines[i]
		}
	}
	l := Lines{Cell: -1}
	switch {
	case cellLine != "":
		var err error
		if l.Cell, err = sc.CellLineIndex(cellLine); err != nil {
			return Lines{}, err
		}
	case len(sc.CellLines) > 0:
		l.Cell = 0
	}
	switch from {
	case ByModel:
		if l.Cell < 0 {
			return Lines{}, ErrNoCellLines
		}
		if l.Model = drugcomb.ModelLines(sc.CellLines, modelLines, l.Cell, cellLine != ""); len(l.Model) == 0 {
			return Lines{}, &UnknownLinesError{Screen: sc.CellLines, Model: modelLines}
		}
	case ByFile:
		if len(sc.CellLines) > 1 && cellLine == "" {
			l.Cell = -1 // rows without a cell line are an error unless the line is named
		}
	}
	return l, nil
}

// ModelRows is the number of predictions AddModel adds for kept feature
// rows on lines: every unordered pair of the rows on each line.
func ModelRows(kept int, lines []drugcomb.LinePair) int {
	return kept * (kept - 1) / 2 * len(lines)
}
