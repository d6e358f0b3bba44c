package active

import (
	"math"

	"github.com/deup-screening/deup/internal/jsonfloat"
)

// RoundReport is one round of a campaign as deup campaign report shows it.
// Fields over the round's measured pairs are nil while none is measured.
type RoundReport struct {
	Round         int              `json:"round"`
	ModelVersion  string           `json:"model_version"`
	Suggested     int              `json:"suggested"`
	Measured      int              `json:"measured"`
	BestInRound   *jsonfloat.Float `json:"best_in_round"`
	BestSoFar     jsonfloat.Float  `json:"best_so_far"`
	MeanAbsError  *jsonfloat.Float `json:"mean_abs_error"`   // mean |y - mu| over the round's measured pairs
	MeanSigmaTot  *jsonfloat.Float `json:"mean_sigma_total"` // mean predicted sigma_total of the same pairs
	TopFoundSoFar *jsonfloat.Float `json:"top1_found,omitempty"`
}

// Report computes one RoundReport per round of c. BestSoFar starts from the
// initial measurements (-Inf without any). With top (for a retrospective
// campaign, TopFraction of its oracle) TopFoundSoFar is the fraction of top
// found so far, the initial pairs included; a nil top leaves it nil.
func Report(c *State, top map[PairOnLine]bool) []RoundReport {
	best := math.Inf(-1)
	found := 0
	for _, m := range c.Measured()[:c.Initial()] {
		best = math.Max(best, m.Y)
		if top[m.Pair] {
			found++
		}
	}
	fptr := func(v float64) *jsonfloat.Float { f := jsonfloat.Float(v); return &f }
	var rows []RoundReport
	for _, r := range c.Rounds() {
		row := RoundReport{Round: r.Index, ModelVersion: r.ModelVersion, Suggested: len(r.Suggestions), Measured: len(r.Measured)}
		bi := math.Inf(-1)
		var ae, st float64
		for _, s := range r.Suggestions {
			y, ok := r.Measured[s.Pair]
			if !ok {
				continue
			}
			bi = math.Max(bi, y)
			ae += math.Abs(y - s.Mu)
			st += s.SigmaTotal
			if top[s.Pair] {
				found++
			}
		}
		if len(r.Measured) > 0 {
			best = math.Max(best, bi)
			row.BestInRound = fptr(bi)
			row.MeanAbsError = fptr(ae / float64(len(r.Measured)))
			row.MeanSigmaTot = fptr(st / float64(len(r.Measured)))
		}
		row.BestSoFar = jsonfloat.Float(best)
		if top != nil {
			row.TopFoundSoFar = fptr(float64(found) / float64(len(top)))
		}
		rows = append(rows, row)
	}
	return rows
}
