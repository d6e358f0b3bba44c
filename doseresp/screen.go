package doseresp

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
)

// ErrScore is an unknown score name (a *ScoreError is one).
var ErrScore = errors.New("doseresp: unknown score")

// ScoreError is a score name that is not one of the block scores Want.
type ScoreError struct {
	Score string
	Want  []string
}

func (e *ScoreError) Error() string {
	return fmt.Sprintf("%v (want one of %s): %q", ErrScore, strings.Join(e.Want, ", "), e.Score)
}

// Is makes a *ScoreError ErrScore.
func (e *ScoreError) Is(target error) bool { return target == ErrScore }

// checkScore reports whether score is a target of the scored blocks'
// score table.
func checkScore(scored []Scored, score string) error {
	want := targets(synergiesOf(scored))
	if !slices.Contains(want, score) {
		return &ScoreError{Score: score, Want: want}
	}
	return nil
}

// Screen builds a screen whose target is one block score, through drugcomb's
// own table import (the one screen builder: catalogue matching, replicate
// aggregation of blocks of the same pair and cell line, the data report):
// the scored blocks are read as a table with drug_row and drug_col as the
// pair, cell_line (empty: "unknown") and the score. name names the screen
// and its input in the report; opt's Columns, Format and Name are set here.
func Screen(name string, scored []Scored, score string, opt drugcomb.Options) (*drugcomb.Screen, *drugcomb.Report, error) {
	if err := checkScore(scored, score); err != nil {
		return nil, nil, err
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
// drug_a,drug_b[,cell_line],score with the block score named score (a
// target of the blocks' score table), one row per scored block, and returns the block id of each row
// (row k of the table is ids[k-2] for a 1-based line k: line 1 is the
// header). Blocks whose score is not finite are written with an empty score,
// which the campaign refuses by line.
func WriteResults(w io.Writer, scored []Scored, score string, withCell bool) ([]string, error) {
	if err := checkScore(scored, score); err != nil {
		return nil, err
	}
	blocks, _ := Tables(scored)
	at := slices.IndexFunc(blocks, func(c *col) bool { return c.name == score })
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
		v := blocks[at].num[r]
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
