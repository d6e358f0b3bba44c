package campaign

import (
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/active"
)

// Record records the results rs, parsed from the file name
// (active.ParseResults), in the open round of c, all or none. A refusal
// says, for each problem, the file's line and, where block is not nil and
// says one, the plate block it came from ("block ID"); the ledger is then
// unchanged.
func Record(c *active.Campaign, rs []active.Result, name string, block func(line int) string) error {
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
