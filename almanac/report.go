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

// ScreenReport is the report in the shape every import writes to
// report.json (drugcomb.Report, docs/vocabulary.md "import-report"), with
// wells as its rows: rows_read the wells read, measurements the wells used
// (scored, or a reference a scored well used), dropped the wells not used
// by reason, and as notes the disagreements with the file's
// EXPECTEDGROWTH and SCORE, reopened plates and the notes on the drugs;
// pairs, drugs and cell lines are the screen's.
func (r *Report) ScreenReport(s *drugcomb.Screen) *drugcomb.Report {
	out := &drugcomb.Report{
		Format: r.Format, Inputs: r.Inputs, ScoreColumns: []string{ScoreName},
		RowsRead: r.WellsRead, Measurements: r.ScoredWells + r.ReferenceWells,
		Dropped: r.Unused, Notes: []*drugcomb.Tally{},
	}
	if s != nil {
		out.Pairs, out.Drugs, out.CellLines = len(s.Pairs), len(s.Drugs), len(s.CellLines)
		for _, p := range s.Pairs {
			if p.N > 1 {
				out.ReplicatedPairs++
			}
		}
	}
	for _, d := range []struct {
		reason string
		d      Disagreement
	}{
		{fmt.Sprintf("expected growth differs from EXPECTEDGROWTH by more than the tolerance (%d checked)", r.Expected.Checked), r.Expected},
		{fmt.Sprintf("score differs from SCORE (%d checked)", r.Score.Checked), r.Score},
	} {
		if d.d.Count > 0 {
			out.Notes = append(out.Notes, &drugcomb.Tally{Reason: d.reason, Count: d.d.Count, Examples: d.d.Examples})
		}
	}
	if r.PlatesReopened > 0 {
		out.Notes = append(out.Notes, &drugcomb.Tally{Reason: "plates whose rows came back after the plate window closed them", Count: r.PlatesReopened, Examples: []drugcomb.Example{}})
	}
	out.Notes = append(out.Notes, r.Drugs...)
	return out
}
