package almanac

import (
	"fmt"
	"io"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
)

// WriteText writes the report for a person to read.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "data report (%s: %s)\n", r.Format, strings.Join(r.Inputs, ", "))
	fmt.Fprintf(&b, "  wells read           %d (%d combination, %d single-agent)\n", r.WellsRead, r.CombinationWells, r.SingleAgentWells)
	fmt.Fprintf(&b, "  wells scored         %d (combination wells with their same-plate single agents)\n", r.ScoredWells)
	fmt.Fprintf(&b, "  reference wells      %d (single-agent wells the scored wells used)\n", r.ReferenceWells)
	fmt.Fprintf(&b, "  expected growth      %d checked against EXPECTEDGROWTH, %d differ by more than the tolerance (largest %.4g)\n", r.Expected.Checked, r.Expected.Count, r.Expected.MaxDiff)
	writeExamples(&b, r.Expected)
	fmt.Fprintf(&b, "  score                %d checked against SCORE, %d differ (largest %.4g)\n", r.Score.Checked, r.Score.Count, r.Score.MaxDiff)
	writeExamples(&b, r.Score)
	fmt.Fprintf(&b, "  plates               %d (%d reopened after being resolved)\n", r.Plates, r.PlatesReopened)
	fmt.Fprintf(&b, "  blocks               %d plate-blocks, %d ordered pair-lines (comboscore.csv rows)\n", r.PlateBlocks, r.Blocks)
	fmt.Fprintf(&b, "  cell lines           %d\n", r.CellLines)
	fmt.Fprintf(&b, "  wells not used       %d\n", r.UnusedWells())
	drugcomb.WriteTallies(&b, r.Unused)
	if len(r.Drugs) > 0 {
		fmt.Fprintf(&b, "  drugs\n")
		drugcomb.WriteTallies(&b, r.Drugs)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeExamples(b *strings.Builder, d Disagreement) {
	for _, e := range d.Examples {
		fmt.Fprintf(b, "      %s: %s\n", e.Where, e.Detail)
	}
	if d.Count > len(d.Examples) {
		fmt.Fprintf(b, "      ... and %d more\n", d.Count-len(d.Examples))
	}
}
