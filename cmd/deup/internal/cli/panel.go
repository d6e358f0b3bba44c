package cli

import (
	"fmt"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
)

// orFirstLine is name, or "" the screen's first cell line: the documented
// default of the commands that use one line of any screen (ood, tui, the
// synthetic default everywhere).
func orFirstLine(sc *drugcomb.Screen, name string) string {
	if name == "" && len(sc.CellLines) > 0 {
		return sc.CellLines[0]
	}
	return name
}

const cellLinesUsage = "cell lines of a panel: all, or A,B,… (default: all of a screen from --screen; the synthetic default keeps its first)"

// selectCellLines applies --cell-line NAME and --cell-lines all|A,B,…:
// one named line; the listed lines; or, with neither, every line of an
// imported screen (a one-line screen is unchanged) and the first line of
// the synthetic default (synthetic true), which every command has always
// used alone.
func selectCellLines(sc *drugcomb.Screen, synthetic bool, one, many string) (*drugcomb.Screen, error) {
	switch {
	case one != "" && many != "":
		return nil, fmt.Errorf("%w: --cell-line and --cell-lines: give one of them", cmdline.ErrUsage)
	case one != "":
		return oneCellLine(sc, one)
	case many == "all":
		return sc, nil
	case many != "":
		out, err := sc.KeepCellLines(cmdline.SplitList(many))
		if err != nil {
			return nil, fmt.Errorf("%w: --cell-lines: %v", cmdline.ErrUsage, err)
		}
		return out, nil
	case synthetic || len(sc.CellLines) == 1:
		return oneCellLine(sc, orFirstLine(sc, ""))
	}
	return sc, nil
}
