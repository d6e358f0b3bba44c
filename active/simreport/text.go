package simreport

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/deup-screening/deup/active/simulate"
)

// WriteText writes, as deup campaign simulate prints it, a table of each
// strategy's mean ± standard error after the last round (top-1% found,
// best score, test RMSE of the last model) and a line of the pairs each
// chose with a drug measured in at most simulate.RareDrugPairs pairs before
// the round (simulate.NewChemistryMeans of traces).
func (r *Report) WriteText(w io.Writer, traces []simulate.Trace) error {
	last := r.Rounds
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "strategy\ttop-1%% found (final)\tbest (final)\ttest RMSE (last model)\n")
	for _, name := range r.Order {
		s := r.Acquisitions[name]
		fmt.Fprintf(tw, "%s\t%.3f ± %.3f\t%.4g ± %.3g\t%.4g ± %.3g\n", name, s.Top1Found.Mean[last], s.Top1Found.SE[last],
			s.Best.Mean[last], s.Best.SE[last], s.TestRMSE.Mean[last], s.TestRMSE.SE[last])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	newChem := simulate.NewChemistryMeans(traces)
	fmt.Fprintf(w, "pairs chosen with a drug measured in at most %d pairs before the round (all rounds, mean over seeds):", simulate.RareDrugPairs)
	for _, name := range r.Order {
		fmt.Fprintf(w, " %s %.1f;", name, newChem[name])
	}
	_, err := fmt.Fprintln(w)
	return err
}
