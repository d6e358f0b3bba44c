package campaign

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/internal/jsonfloat"
)

// WriteText writes the report as deup campaign report prints it: a line on
// campaign dir's settings and initial set, the explore weight when one is
// set, and a table of its rounds ("-" where a round has no value; the
// top-1% column only for a retrospective campaign).
func (r *Report) WriteText(w io.Writer, dir string) error {
	cfg := r.Config
	fmt.Fprintf(w, "campaign %s: %s, %s with %s, batch %d; %d initial pairs (best %.4g), %d rounds, %d open candidates\n",
		dir, cfg.Mode, cfg.Model, cfg.Acquisition, cfg.Batch, r.Initial, r.InitialBest, len(r.Rounds), r.Open)
	if cfg.Explore > 0 {
		fmt.Fprintf(w, "explore %g (set at init): each round ranks by (1 - %g) r(%s) + %g r(sigma_epistemic)\n", cfg.Explore, cfg.Explore, cfg.Acquisition, cfg.Explore)
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	head := "round\tmeasured\tbest in round\tbest so far\tmean |y-mu|\tmean sigma_total"
	if r.Top {
		head += "\ttop-1% found"
	}
	fmt.Fprintln(tw, head+"\tmodel")
	num := func(p *jsonfloat.Float) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.4g", float64(*p))
	}
	for _, rr := range r.Rounds {
		line := fmt.Sprintf("%d\t%d/%d\t%s\t%.4g\t%s\t%s", rr.Round, rr.Measured, rr.Suggested, num(rr.BestInRound), float64(rr.BestSoFar), num(rr.MeanAbsError), num(rr.MeanSigmaTot))
		if r.Top {
			line += "\t" + num(rr.TopFoundSoFar)
		}
		fmt.Fprintln(tw, line+"\t"+rr.ModelVersion)
	}
	return tw.Flush()
}

// WriteRound writes the line deup campaign step prints for round r of c:
// its suggestions and model, the highest predicted mu among them, what was
// measured of them, and the best score of the campaign so far.
func WriteRound(w io.Writer, c *active.State, r *active.Round) error {
	bestMu, best := r.Summary()
	fmt.Fprintf(w, "round %d: %d suggestions by %s (highest predicted mu %.4g)", r.Index, len(r.Suggestions), r.ModelVersion, bestMu)
	if len(r.Measured) > 0 {
		fmt.Fprintf(w, "; measured %d/%d, best %.4g", len(r.Measured), len(r.Suggestions), best)
	}
	_, err := fmt.Fprintf(w, "; best so far %.4g\n", c.Best())
	return err
}
