package cli

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/deup-screening/deup/active"
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
	ropt, sopt, err := doseresp.ParseOptions(unit, "non", doseresp.Columns{}, false)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	scored, rep, err := doseresp.ScoreFile(path, ropt, sopt)
	if err != nil {
		return nil, nil, nil, err
	}
	var buf bytes.Buffer
	ids, err := doseresp.WriteResults(&buf, scored, score, len(cfg.CellLines) > 1)
	if err != nil {
		return nil, nil, nil, err
	}
	block := func(line int) string {
		if k := line - 2; k >= 0 && k < len(ids) {
			return "block " + ids[k]
		}
		return ""
	}
	return &buf, block, rep, nil
}
