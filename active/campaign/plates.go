package campaign

import (
	"bytes"
	"fmt"
	"os"

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
