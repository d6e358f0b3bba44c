package campaign

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/doseresp"
)

// ReadResults reads the results file path of a campaign with cfg
// (active.ParseResults); a refusal says that the ledger is unchanged.
func ReadResults(path string, cfg active.Config) ([]active.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rs, err := active.ParseResults(f, path, cfg)
	if err != nil {
		return nil, fmt.Errorf("results refused, ledger unchanged:\n%w", err)
	}
	return rs, nil
}

// PlateResults reads the scored blocks of the plate readout name as the
// results of a campaign with cfg: a table of drug_a, drug_b, cell_line
// when the campaign has several, and the block score named score
// (doseresp.WriteResults), parsed as a results file (active.ParseResults,
// whose line 2 is the first block). It returns the block each line comes
// from ("block ID", "" for a line that is no block), for Record's messages.
func PlateResults(scored []doseresp.Scored, name, score string, cfg active.Config) ([]active.Result, func(line int) string, error) {
	var buf bytes.Buffer
	ids, err := doseresp.WriteResults(&buf, scored, score, len(cfg.CellLines) > 1)
	if err != nil {
		return nil, nil, err
	}
	rs, err := active.ParseResults(&buf, name, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("results refused, ledger unchanged (lines of the scored blocks: line 2 is the first block):\n%w", err)
	}
	block := func(line int) string {
		if k := line - 2; k >= 0 && k < len(ids) {
			return "block " + ids[k]
		}
		return ""
	}
	return rs, block, nil
}

// PlateFile scores the plate readout path as deup data synergy does
// (doseresp.ScoreFile, the response unit given by unit or, "", by the
// column name), writes the scoring report to w and returns the results it
// gives a campaign with cfg (PlateResults of the block score named score,
// "" being the campaign's score name). A score or unit it cannot use is a
// *SettingError.
func PlateFile(w io.Writer, path, score, unit string, cfg active.Config) ([]active.Result, func(line int) string, error) {
	if score == "" {
		score = cfg.Score
	}
	if !slices.Contains(doseresp.Scores(), score) {
		return nil, nil, &SettingError{PlateScore, fmt.Errorf("the campaign's score is %q", cfg.Score)}
	}
	ropt, sopt, err := doseresp.ParseOptions(unit, "non", doseresp.Columns{}, false)
	if err != nil {
		return nil, nil, &SettingError{Err: err}
	}
	scored, rep, err := doseresp.ScoreFile(path, ropt, sopt)
	if err != nil {
		return nil, nil, err
	}
	if err := rep.WriteText(w); err != nil {
		return nil, nil, err
	}
	return PlateResults(scored, path, score, cfg)
}
