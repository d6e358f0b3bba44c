package campaign

import (
	"encoding/json"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/internal/atomicfile"
)

// Report is the summary of a campaign that deup campaign report prints:
// its configuration (the explore weight among it), initial set and one
// active.RoundReport per round.
type Report struct {
	Config  active.Config        `json:"config"`
	Initial int                  `json:"initial"`
	Rounds  []active.RoundReport `json:"rounds"`
	// InitialBest is the best score of the initial set; Open counts the
	// candidates not yet suggested.
	InitialBest float64 `json:"-"`
	Open        int     `json:"-"`
	// Top is true when the rounds count the screen's top 1 % pairs found
	// (a retrospective campaign: active.TopFraction of its oracle).
	Top bool `json:"-"`
}

// Report summarises c, measuring a retrospective campaign's rounds against
// the top 1 % of its oracle.
func (s Screens) Report(c *active.State) (*Report, error) {
	var top map[active.PairOnLine]bool
	if c.Config.Mode == active.Retrospective {
		t, err := s.Oracle(c.Config)
		if err != nil {
			return nil, err
		}
		top = active.TopFraction(t, 0.01)
	}
	return &Report{Config: c.Config, Initial: c.Initial(), Rounds: active.Report(c, top), InitialBest: active.BestOf(c.Measured()[:c.Initial()]),
		Open: len(c.Pool()), Top: top != nil}, nil
}

// WriteJSON writes the report to path as indented JSON (config, initial,
// rounds), atomically.
func (r *Report) WriteJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'))
}
