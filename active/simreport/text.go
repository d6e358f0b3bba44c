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
// the round (simulate.NewChemistryMeans of traces). Between them, the
// top-1% found of every strategy at every round, and each DEUP strategy's
// paired difference from the greedy reference (Report.Differences).
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
	// Per round: each strategy's top-1% found, and each DEUP strategy's
	// paired difference from the reference.
	fmt.Fprintf(w, "\ntop-1%% found per round (mean ± se over %d seeds):\n", r.Seeds)
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "round\tmeasured")
	for _, name := range r.Order {
		fmt.Fprintf(tw, "\t%s", name)
	}
	fmt.Fprintln(tw)
	for i := 0; i <= last; i++ {
		m := 0
		if i < len(r.Measured) {
			m = r.Measured[i]
		}
		fmt.Fprintf(tw, "%d\t%d", i, m)
		for _, name := range r.Order {
			s := r.Acquisitions[name]
			fmt.Fprintf(tw, "\t%.3f ± %.3f", s.Top1Found.Mean[i], s.Top1Found.SE[i])
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Differences) > 0 {
		fmt.Fprintf(w, "\ntop-1%% found minus %s, paired by seed (mean ± se of the difference):\n", r.Differences[0].Reference)
		tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "round")
		for _, d := range r.Differences {
			fmt.Fprintf(tw, "\t%s", d.Strategy)
		}
		fmt.Fprintln(tw)
		for i := 1; i <= last; i++ {
			fmt.Fprintf(tw, "%d", i)
			for _, d := range r.Differences {
				fmt.Fprintf(tw, "\t%+.3f ± %.3f", d.Top1Found.Mean[i], d.Top1Found.SE[i])
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	newChem := simulate.NewChemistryMeans(traces)
	fmt.Fprintf(w, "pairs chosen with a drug measured in at most %d pairs before the round (all rounds, mean over seeds):", simulate.RareDrugPairs)
	for _, name := range r.Order {
		fmt.Fprintf(w, " %s %.1f;", name, newChem[name])
	}
	_, err := fmt.Fprintln(w)
	return err
}
