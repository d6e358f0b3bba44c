package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/doseresp"
)

// plateResults scores a plate readout as deup data synergy does, prints
// the scoring report, and returns the results it gives the campaign with
// cfg (campaign.PlateResults) and the block of each line.
func plateResults(env Env, path, score string, unit string, cfg active.Config) ([]active.Result, func(line int) string, error) {
	if score == "" {
		score = cfg.Score
	}
	if !slices.Contains(doseresp.Scores(), score) {
		return nil, nil, fmt.Errorf("%w: the campaign's score is %q: say which block score it is with --plate-score %s",
			ErrUsage, cfg.Score, strings.Join(doseresp.Scores(), "|"))
	}
	ropt, sopt, err := doseresp.ParseOptions(unit, "non", doseresp.Columns{}, false)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	scored, rep, err := doseresp.ScoreFile(path, ropt, sopt)
	if err != nil {
		return nil, nil, err
	}
	if err := rep.WriteText(env.Stdout); err != nil {
		return nil, nil, err
	}
	return campaign.PlateResults(scored, path, score, cfg)
}
