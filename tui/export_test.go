package tui

import (
	"errors"

	"github.com/deup-screening/deup/suggest"
)

// suggestFiles is an Exporter writing suggestion files, as the one deup tui
// passes (cmd/deup/internal/cli) does: the tests' exports read back with
// package suggest.
type suggestFiles struct{}

func (suggestFiles) Check(path string) error {
	if _, err := suggest.FormatOf(path); err != nil {
		return errors.New("use a name ending in .csv, .parquet or .json")
	}
	return nil
}

func (suggestFiles) Export(path string, batch []Pick) error {
	out := make([]suggest.Suggestion, len(batch))
	for i, p := range batch {
		out[i] = suggest.Suggestion{Rank: p.Rank, DrugA: p.DrugA, DrugB: p.DrugB, CellLine: p.CellLine,
			Mu: p.Mu, SigmaTotal: p.SigmaTotal, SigmaEpistemic: p.SigmaEpistemic, SigmaAleatoric: p.SigmaAleatoric,
			Acquisition: p.Acquisition, Reason: p.Reason}
		if p.Interval != nil {
			out[i].Interval = &suggest.Interval{Lower: p.Interval.Lower, Upper: p.Interval.Upper}
		}
	}
	return suggest.WriteFile(path, out)
}

// SuggestFiles is suggestFiles for the package's external tests.
var SuggestFiles Exporter = suggestFiles{}
