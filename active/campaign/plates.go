package campaign

import (
	"bytes"
	"io"

	"github.com/deup-screening/deup/doseresp"
)

// PlateResults turns the scored blocks of a plate readout into a results
// table for active.ParseResults (doseresp.WriteResults: drug_a, drug_b,
// cell_line when withCell, and the block score named score) and returns it
// with the block each line of the table comes from ("block ID", "" for a
// line that is no block), for Record's messages.
func PlateResults(scored []doseresp.Scored, score string, withCell bool) (io.Reader, func(line int) string, error) {
	var buf bytes.Buffer
	ids, err := doseresp.WriteResults(&buf, scored, score, withCell)
	if err != nil {
		return nil, nil, err
	}
	block := func(line int) string {
		if k := line - 2; k >= 0 && k < len(ids) {
			return "block " + ids[k]
		}
		return ""
	}
	return &buf, block, nil
}
