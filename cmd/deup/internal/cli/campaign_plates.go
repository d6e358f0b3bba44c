package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/doseresp"
)

// plateResults scores a plate readout as deup data synergy does and returns
// it as a results table for active.ParseResults (drug_a, drug_b, cell_line
// when the campaign has several, and the block score), a line → block id
// map for messages, and the scoring report.
func plateResults(path, score string, unit string, cfg active.Config) (io.Reader, func(line int) string, *doseresp.Report, error) {
	if score == "" {
		score = cfg.Score
	}
	if !slices.Contains(doseresp.Scores(), score) {
		return nil, nil, nil, fmt.Errorf("%w: the campaign's score is %q: say which block score it is with --plate-score %s",
			ErrUsage, cfg.Score, strings.Join(doseresp.Scores(), "|"))
	}
	ropt, sopt, err := synergyOptions(unit, "non", doseresp.Columns{})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	scored, rep, _, err := scoreFile(path, time.Now, ropt, sopt) // the time is not shown
	if err != nil {
		return nil, nil, nil, err
	}
	r, block, err := campaign.PlateResults(scored, score, len(cfg.CellLines) > 1)
	return r, block, rep, err
}
