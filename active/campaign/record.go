package campaign

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/deup-screening/deup/active"
)

// Record records the results rs, parsed from the file name
// (active.ParseResults), in the open round of c, all or none. A refusal
// says, for each problem, the file's line and, where block is not nil and
// says one, the plate block it came from ("block ID"); the ledger is then
// unchanged.
func Record(c *active.State, rs []active.Result, name string, block func(line int) string) error {
	ms := make([]active.Measurement, len(rs))
	for i, r := range rs {
		ms[i] = r.Measurement
	}
	err := c.Record(ms)
	var re *active.ResultsError
	if !errors.As(err, &re) {
		return err
	}
	var b strings.Builder
	for _, p := range re.Problems {
		fmt.Fprintf(&b, "\n%s:%d: %s", name, rs[p.Index].Line, p.Msg)
		if block == nil {
			continue
		}
		if blk := block(rs[p.Index].Line); blk != "" {
			fmt.Fprintf(&b, " (%s)", blk)
		}
	}
	return fmt.Errorf("results refused, ledger unchanged:%s", b.String())
}

// Plates says how a plate readout gives a campaign's results (PlateFile):
// the block score that is the campaign's score ("": the campaign's score
// name) and the response unit ("": from the column name).
type Plates struct {
	Score, Unit string
}

// ErrNoOpenRound is Import's error for a campaign without a round waiting
// for results: a round is proposed first (Opened.Step, Screens.Propose).
var ErrNoOpenRound = errors.New("no round is waiting for results")

// Import records the results in the file path in the open round of c, all
// or none (Record), and returns that round and the number of results: the
// file is a results file (ReadResults) or, with plates not nil, a plate
// readout whose blocks are scored (PlateFile, its scoring report written
// to w). A campaign without an open round is an error; a setting the plate
// scoring refuses is a *SettingError.
func Import(w io.Writer, c *active.State, path string, plates *Plates) (*active.Round, int, error) {
	rd := c.Open()
	if rd == nil {
		return nil, 0, ErrNoOpenRound
	}
	var rs []active.Result
	var where func(int) string
	var err error
	if plates != nil {
		rs, where, err = PlateFile(w, path, plates.Score, plates.Unit, c.Config)
	} else {
		rs, err = ReadResults(path, c.Config)
	}
	if err != nil {
		return nil, 0, err
	}
	if err := Record(c, rs, path, where); err != nil {
		return nil, 0, err
	}
	return rd, len(rs), nil
}
