package campaign

import (
	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/suggest"
)

// Suggestions converts a round's suggestions to the rows 'deup suggest
// --campaign' exports.
func Suggestions(c *active.State, rd *active.Round) []suggest.Suggestion {
	rows := make([]suggest.Suggestion, 0, len(rd.Suggestions))
	for _, s := range rd.Suggestions {
		rows = append(rows, suggest.Suggestion{Rank: s.Rank, DrugA: c.Config.Drugs[s.Pair.A], DrugB: c.Config.Drugs[s.Pair.B],
			CellLine: c.Config.CellLines[s.Pair.CellLine], Mu: s.Mu, SigmaTotal: s.SigmaTotal, SigmaEpistemic: s.SigmaEpistemic,
			SigmaAleatoric: s.SigmaAleatoric, Acquisition: s.Score, Reason: s.Reason})
	}
	return rows
}
