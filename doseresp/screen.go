package doseresp

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
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

// WriteResults writes the scored blocks as a campaign results table:
// drug_a,drug_b[,cell_line],score with the block score named score (one of
// Scores), one row per scored block, and returns the block id of each row
// (row k of the table is ids[k-2] for a 1-based line k: line 1 is the
// header). Blocks whose score is not finite are written with an empty score,
// which the campaign refuses by line.
func WriteResults(w io.Writer, scored []Scored, score string, withCell bool) ([]string, error) {
	col := -1
	for i, c := range BlockColumns() {
		if c == score {
			col = i
		}
	}
	ok := false
	for _, s := range Scores() {
		ok = ok || s == score
	}
	if !ok || col < 0 {
		return nil, fmt.Errorf("%w: %q", ErrScore, score)
	}
	blocks, _ := Tables(scored)
	cw := csv.NewWriter(w)
	hdr := []string{"drug_a", "drug_b", "score"}
	if withCell {
		hdr = []string{"drug_a", "drug_b", "cell_line", "score"}
	}
	if err := cw.Write(hdr); err != nil {
		return nil, err
	}
	var ids []string
	for r := 0; r < blocks.rows(); r++ {
		rec := []string{blocks[1].str[r], blocks[2].str[r]}
		if withCell {
			rec = append(rec, blocks[3].str[r])
		}
		v := blocks[col].num[r]
		f := ""
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			f = strconv.FormatFloat(v, 'g', -1, 64)
		}
		if err := cw.Write(append(rec, f)); err != nil {
			return nil, err
		}
		ids = append(ids, blocks[0].str[r])
	}
	cw.Flush()
	return ids, cw.Error()
}
