package drugcomb

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// Reasons a row of an input table is not used. Every row read is either
// used (a measurement) or counted under exactly one of these.
const (
	ReasonMissingDrug     = "missing drug"           // drug A or B field empty or NA
	ReasonSingleDrug      = "single-drug row"        // DrugComb: drug_col empty (a monotherapy row)
	ReasonMissingCellLine = "missing cell line"      // cell line field empty or NA
	ReasonUnknownDrug     = "unknown drug"           // not in the drug catalogue (when one is required)
	ReasonMissingSMILES   = "missing SMILES"         // a drug has no SMILES (only with RequireSMILES)
	ReasonSelfPair        = "self-pair"              // drug A and drug B are the same drug
	ReasonMissingScore    = "missing score"          // every score field empty or NA
	ReasonBadScore        = "unparsable score"       // a score that is not a number (only with Lenient)
	ReasonFieldCount      = "wrong number of fields" // a row wider or narrower than the header (only with Lenient)
	ReasonMalformed       = "malformed record"       // CSV quoting error (only with Lenient)
	ReasonInfiniteScore   = "infinite score"         // a score of ±Inf (only with Lenient)
	ReasonBadText         = "invalid UTF-8"          // a drug, cell line or SMILES field that is not UTF-8 (only with Lenient)
	ReasonBadSMILES       = "unusable SMILES"        // a drug whose SMILES Options.CheckSMILES refuses (only with CheckSMILES)
)

// StructureError is a drug left out of a screen because its SMILES cannot
// be used (Options.CheckSMILES): which drug, its SMILES, and the parser's
// message with the position.
type StructureError struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	SMILES string `json:"smiles"`
	Error  string `json:"error"`
}

// MaxExamples is how many example locations a Tally keeps.
const MaxExamples = 5

// Example is one location (file:line, or file:row N for binary tables) and
// what was found there.
type Example struct {
	Where  string `json:"where"`
	Detail string `json:"detail,omitempty"`
}

// Tally counts the rows (or drugs) with one reason and keeps the first
// MaxExamples of them.
type Tally struct {
	Reason   string    `json:"reason"`
	Count    int       `json:"count"`
	Examples []Example `json:"examples"`
}

// Report is the data report of one import: what was read, what was kept,
// and every row not used, counted by reason. RowsRead = Measurements + the
// sum of Dropped counts.
type Report struct {
	Format          string   `json:"format"`
	Inputs          []string `json:"inputs"`
	ScoreColumns    []string `json:"score_columns"`
	RowsRead        int      `json:"rows_read"`
	Measurements    int      `json:"measurements"` // rows used
	Pairs           int      `json:"pairs"`
	ReplicatedPairs int      `json:"replicated_pairs"` // pairs with n > 1
	Drugs           int      `json:"drugs"`
	CellLines       int      `json:"cell_lines"`
	Dropped         []*Tally `json:"dropped"` // unused rows by reason, most frequent first
	Notes           []*Tally `json:"notes"`   // things worth knowing that dropped no row
	// UnusableStructures lists every drug left out because its SMILES
	// cannot be used, with its rows (counted under ReasonBadSMILES);
	// absent from the JSON when there is none.
	UnusableStructures []StructureError `json:"unusable_structures,omitempty"`
	// PerLine describes each cell line of a screen with several (a
	// panel), in the screen's cell-line order; nil for a one-line screen,
	// whose report is unchanged.
	PerLine []LineReport `json:"per_line,omitempty"`
}

// LineReport is the data report of one cell line of a panel: its pairs,
// how many of them were measured more than once, its measurements, the
// distinct drugs in its pairs, and the spread of its first score column
// over pairs, ScoreSD = √(Σ (ȳ_p − ȳ)² / (n − 1)) over its pair means ȳ_p
// (0 with fewer than two pairs with a score).
type LineReport struct {
	CellLine        string  `json:"cell_line"`
	Pairs           int     `json:"pairs"`
	ReplicatedPairs int     `json:"replicated_pairs"`
	Measurements    int     `json:"measurements"`
	Drugs           int     `json:"drugs"`
	ScoreSD         float64 `json:"score_sd"`
}

// LineReports computes the per-line report of s (one entry per cell line,
// in order).
func LineReports(s *Screen) []LineReport {
	out := make([]LineReport, len(s.CellLines))
	drugs := make([]map[int]bool, len(s.CellLines))
	sum := make([]float64, len(s.CellLines))
	sq := make([]float64, len(s.CellLines))
	cnt := make([]int, len(s.CellLines))
	for i, c := range s.CellLines {
		out[i].CellLine = c
		drugs[i] = map[int]bool{}
	}
	// Two passes (mean, then squared deviations) for a stable variance.
	for _, p := range s.Pairs {
		l := &out[p.CellLine]
		l.Pairs++
		l.Measurements += p.N
		if p.N > 1 {
			l.ReplicatedPairs++
		}
		drugs[p.CellLine][p.A] = true
		drugs[p.CellLine][p.B] = true
		if len(p.Mean) > 0 && !math.IsNaN(p.Mean[0]) {
			sum[p.CellLine] += p.Mean[0]
			cnt[p.CellLine]++
		}
	}
	for _, p := range s.Pairs {
		if len(p.Mean) > 0 && !math.IsNaN(p.Mean[0]) {
			d := p.Mean[0] - sum[p.CellLine]/float64(cnt[p.CellLine])
			sq[p.CellLine] += d * d
		}
	}
	for i := range out {
		out[i].Drugs = len(drugs[i])
		if cnt[i] > 1 {
			out[i].ScoreSD = math.Sqrt(sq[i] / float64(cnt[i]-1))
		}
	}
	return out
}

// AddTally counts one more occurrence of reason in *list (adding its Tally
// if it is new) and keeps where and detail as an example while the tally
// has fewer than MaxExamples: the one way every data report counts what it
// did not use.
func AddTally(list *[]*Tally, reason, where, detail string) {
	var t *Tally
	for _, x := range *list {
		if x.Reason == reason {
			t = x
			break
		}
	}
	if t == nil {
		t = &Tally{Reason: reason, Examples: []Example{}}
		*list = append(*list, t)
	}
	t.Count++
	if len(t.Examples) < MaxExamples {
		t.Examples = append(t.Examples, Example{Where: where, Detail: detail})
	}
}

// drop records an unused row.
func (r *Report) drop(reason, where, detail string) { AddTally(&r.Dropped, reason, where, detail) }

// note records something that did not drop a row.
func (r *Report) note(reason, where, detail string) { AddTally(&r.Notes, reason, where, detail) }

// DroppedRows is the number of rows not used.
func (r *Report) DroppedRows() int { return TallyCount(r.Dropped) }

// TallyCount is the sum of the tallies' counts.
func TallyCount(ts []*Tally) int {
	n := 0
	for _, t := range ts {
		n += t.Count
	}
	return n
}

// finish fills the counts from the screen and orders the tallies.
func (r *Report) finish(s *Screen) {
	r.Pairs = len(s.Pairs)
	r.Measurements = s.Measurements()
	r.Drugs = len(s.Drugs)
	r.CellLines = len(s.CellLines)
	r.ReplicatedPairs = 0
	r.PerLine = nil
	if len(s.CellLines) > 1 {
		r.PerLine = LineReports(s)
	}
	for _, p := range s.Pairs {
		if p.N > 1 {
			r.ReplicatedPairs++
		}
	}
	for _, l := range [][]*Tally{r.Dropped, r.Notes} {
		sort.SliceStable(l, func(i, j int) bool { return l[i].Count > l[j].Count })
	}
	if r.Dropped == nil {
		r.Dropped = []*Tally{}
	}
	if r.Notes == nil {
		r.Notes = []*Tally{}
	}
}

// WriteText writes the report for a person to read.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "data report (%s: %s)\n", r.Format, strings.Join(r.Inputs, ", "))
	fmt.Fprintf(&b, "  rows read        %d\n", r.RowsRead)
	fmt.Fprintf(&b, "  measurements     %d (rows used)\n", r.Measurements)
	fmt.Fprintf(&b, "  pairs kept       %d (%d with replicates)\n", r.Pairs, r.ReplicatedPairs)
	fmt.Fprintf(&b, "  drugs            %d\n", r.Drugs)
	fmt.Fprintf(&b, "  cell lines       %d\n", r.CellLines)
	fmt.Fprintf(&b, "  score columns    %s\n", strings.Join(r.ScoreColumns, ", "))
	if len(r.PerLine) > 0 {
		fmt.Fprintf(&b, "  per cell line    %-12s %7s %10s %12s %6s %9s\n", "line", "pairs", "replicated", "measurements", "drugs", "score sd")
		for _, l := range r.PerLine {
			fmt.Fprintf(&b, "                   %-12s %7d %10d %12d %6d %9.1f\n", l.CellLine, l.Pairs, l.ReplicatedPairs, l.Measurements, l.Drugs, l.ScoreSD)
		}
	}
	if len(r.Dropped) == 0 {
		fmt.Fprintf(&b, "  rows not used    0\n")
	} else {
		fmt.Fprintf(&b, "  rows not used    %d\n", r.DroppedRows())
		WriteTallies(&b, r.Dropped)
	}
	if len(r.Notes) > 0 {
		fmt.Fprintf(&b, "  notes\n")
		WriteTallies(&b, r.Notes)
	}
	if len(r.UnusableStructures) > 0 {
		fmt.Fprintf(&b, "  drugs left out, SMILES unusable: %d (with their rows)\n", len(r.UnusableStructures))
		for _, e := range r.UnusableStructures {
			fmt.Fprintf(&b, "    %s: %s\n", Drug{ID: e.ID, Name: e.Name}.Label(), e.Error)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTallies writes tallies as WriteText does (reason, count, examples),
// for every report that counts by reason.
func WriteTallies(b *strings.Builder, ts []*Tally) {
	for _, t := range ts {
		fmt.Fprintf(b, "    %-36s %d\n", t.Reason, t.Count)
		for _, e := range t.Examples {
			if e.Detail != "" {
				fmt.Fprintf(b, "      %s: %s\n", e.Where, e.Detail)
			} else {
				fmt.Fprintf(b, "      %s\n", e.Where)
			}
		}
		if t.Count > len(t.Examples) {
			fmt.Fprintf(b, "      ... and %d more\n", t.Count-len(t.Examples))
		}
	}
}

// WriteJSON writes r as report.json holds it: indented JSON and a newline.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Write writes r as JSON (WriteJSON) when asJSON is set, else as text
// (WriteText).
func (r *Report) Write(w io.Writer, asJSON bool) error {
	if asJSON {
		return r.WriteJSON(w)
	}
	return r.WriteText(w)
}
