package doseresp

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
)

// Scores are the block scores a screen can take as its target: the
// blocks-table columns css, zip, loewe, hsa, bliss and s.
func Scores() []string { return []string{"css", "zip", "loewe", "hsa", "bliss", "s"} }

// ErrScore is an unknown score name.
var ErrScore = fmt.Errorf("doseresp: unknown score (want one of %s)", strings.Join(Scores(), ", "))

// Screen builds a screen whose target is one block score, through drugcomb's
// own table import (the one screen builder: catalogue matching, replicate
// aggregation of blocks of the same pair and cell line, the data report):
// the scored blocks are read as a table with drug_row and drug_col as the
// pair, cell_line (empty: "unknown") and the score. name names the screen
// and its input in the report; opt's Columns, Format and Name are set here.
func Screen(name string, scored []Scored, score string, opt drugcomb.Options) (*drugcomb.Screen, *drugcomb.Report, error) {
	ok := false
	for _, s := range Scores() {
		ok = ok || s == score
	}
	if !ok {
		return nil, nil, fmt.Errorf("%w: %q", ErrScore, score)
	}
	blocks, _ := Tables(scored)
	var buf bytes.Buffer
	if err := blocks.WriteCSV(&buf); err != nil {
		return nil, nil, err
	}
	opt.Format = "doseresponse"
	opt.Name = name
	opt.Columns = drugcomb.Columns{DrugA: "drug_row", DrugB: "drug_col", Scores: []string{score}}
	for _, s := range scored {
		if s.Result != nil && s.Block.CellLine != "" {
			// A table with cell lines: a block without one is dropped
			// (and counted) by the import.
			opt.Columns.CellLine = "cell_line"
			break
		}
	}
	return drugcomb.ReadTable(name+" (scored blocks)", &buf, opt)
}
