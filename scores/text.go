package scores

import (
	"fmt"
	"io"
	"strconv"
)

// WriteText writes the report as deup scores check prints it: a line per
// cell line and a status line on w, and each problem, after prefix, on
// problems. Digests are cut to 12 characters.
func (r *Report) WriteText(w, problems io.Writer, prefix string) error {
	for _, ln := range r.Lines {
		if _, err := fmt.Fprintf(w, "%s=%s: %d of %d parts, %d rows of %d (%d drugs, pairs %s), model %.12s, checksum %s\n",
			PartitionKey, ln.CellLine, ln.Found, ln.Parts, ln.Sum.Rows, ln.Total, ln.NDrugs, short(ln.Pairs), ln.Model, ln.Sum); err != nil {
			return err
		}
	}
	for _, p := range r.Problems {
		if _, err := fmt.Fprintf(problems, "%s%s\n", prefix, p); err != nil {
			return err
		}
	}
	status := "complete"
	if !r.OK() {
		status = fmt.Sprintf("INCOMPLETE (%d problems)", len(r.Problems))
	}
	_, err := fmt.Fprintf(w, "%s: %s: %d cell lines, %d rows, checksum %s\n", r.Dir, status, len(r.Lines), r.Sum.Rows, r.Sum)
	return err
}

// WriteText writes a line per cell line, its values to 7 significant
// digits.
func (s *Summary) WriteText(w io.Writer) error {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 7, 64) }
	for _, l := range s.Lines {
		if _, err := fmt.Fprintf(w, "%s: %d pairs, mean mu %s, max mu %s, mean sigma_epistemic %s, %d measured\n",
			l.CellLine, l.Rows, g(l.MeanMu), g(l.MaxMu), g(l.MeanSigmaEpistemic), l.MeasuredRows); err != nil {
			return err
		}
	}
	return nil
}
