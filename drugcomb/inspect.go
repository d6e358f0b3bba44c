package drugcomb

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/moments"
)

// ScoreSummary summarizes one score column over the pairs' means.
type ScoreSummary struct {
	Name    string `json:"name"`
	Pairs   int    `json:"pairs"`   // pairs with a value
	Missing int    `json:"missing"` // pairs without
	// Floats are written as floats (-225.0, not -225): internal/jsonfloat;
	// nil (null) where there is no value: every one without pairs, the sd
	// with fewer than two.
	Mean   *jsonfloat.Float `json:"mean"`
	SD     *jsonfloat.Float `json:"sd"` // sample standard deviation (moments.MeanSD)
	Min    *jsonfloat.Float `json:"min"`
	Median *jsonfloat.Float `json:"median"`
	Max    *jsonfloat.Float `json:"max"`
}

// Inspection is what deup data inspect reports of a screen (its JSON keys
// are the command's).
type Inspection struct {
	Name                   string         `json:"name"`
	Drugs                  int            `json:"drugs"`
	Pairs                  int            `json:"pairs"`
	Measurements           int            `json:"measurements"`
	CellLines              int            `json:"cell_lines"`
	CellLineNames          []string       `json:"cell_line_names"`
	ReplicatedPairs        int            `json:"replicated_pairs"`
	Truth                  bool           `json:"truth"`
	Scores                 []ScoreSummary `json:"scores"`
	DrugsWithoutSMILES     []string       `json:"drugs_without_smiles"`
	UnusableSMILES         []string       `json:"drugs_with_unusable_smiles"`
	Signatures             bool           `json:"signatures"`               // signatures stored beside the screen (set by the caller)
	DrugsWithoutSignatures []string       `json:"drugs_without_signatures"` // null when no signatures are stored
}

func jf(x float64) *jsonfloat.Float { f := jsonfloat.Float(x); return &f }

// SummarizeScore summarizes the values x of one score (sorted in place)
// and the count of pairs without one.
func SummarizeScore(name string, x []float64, missing int) ScoreSummary {
	s := ScoreSummary{Name: name, Pairs: len(x), Missing: missing}
	if len(x) == 0 {
		return s
	}
	sort.Float64s(x)
	m, sd := moments.MeanSD(x)
	s.Mean, s.Min, s.Max = jf(m), jf(x[0]), jf(x[len(x)-1])
	if len(x)%2 == 1 {
		s.Median = jf(x[len(x)/2])
	} else {
		s.Median = jf((x[len(x)/2-1] + x[len(x)/2]) / 2)
	}
	if len(x) > 1 {
		s.SD = jf(sd)
	}
	return s
}

// Inspect counts s's drugs, pairs, measurements, lines and replicated
// pairs, summarizes each score over the pairs' means, and lists the drugs
// without a SMILES and those whose SMILES check refuses.
func Inspect(s *Screen, check func(smiles string) error) *Inspection {
	o := &Inspection{
		Name: s.Name, Drugs: len(s.Drugs), Pairs: len(s.Pairs), Measurements: s.Measurements(),
		CellLines: len(s.CellLines), CellLineNames: s.CellLines, Truth: s.Truth != nil,
		DrugsWithoutSMILES: []string{}, UnusableSMILES: []string{},
	}
	for _, p := range s.Pairs {
		if p.N > 1 {
			o.ReplicatedPairs++
		}
	}
	for j, n := range s.ScoreNames {
		var x []float64
		miss := 0
		for _, p := range s.Pairs {
			if math.IsNaN(p.Mean[j]) {
				miss++
			} else {
				x = append(x, p.Mean[j])
			}
		}
		o.Scores = append(o.Scores, SummarizeScore(n, x, miss))
	}
	for _, d := range s.Drugs {
		if d.SMILES == "" {
			o.DrugsWithoutSMILES = append(o.DrugsWithoutSMILES, d.ID)
		} else if check(d.SMILES) != nil { // a screen imported before import checked them
			o.UnusableSMILES = append(o.UnusableSMILES, d.ID)
		}
	}
	return o
}

// WriteText writes the inspection as deup data inspect prints it; dir is
// the screen directory it names.
func (o *Inspection) WriteText(w io.Writer, dir string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "screen %s (%s)\n", o.Name, dir)
	fmt.Fprintf(&b, "  drugs             %d\n", o.Drugs)
	fmt.Fprintf(&b, "  pairs             %d (%d with replicates)\n", o.Pairs, o.ReplicatedPairs)
	fmt.Fprintf(&b, "  measurements      %d\n", o.Measurements)
	fmt.Fprintf(&b, "  cell lines        %d (%s)\n", o.CellLines, strings.Join(o.CellLineNames, ", "))
	if o.Truth {
		fmt.Fprintf(&b, "  ground truth      yes (true_mean, true_noise_var)\n")
	}
	fmt.Fprintf(&b, "  scores (over pair means)\n")
	fmt.Fprintf(&b, "    %-16s %7s %7s %10s %10s %10s %10s %10s\n", "name", "pairs", "missing", "mean", "sd", "min", "median", "max")
	f := func(x *jsonfloat.Float) string {
		if x == nil {
			return "-"
		}
		return fmt.Sprintf("%.4g", float64(*x))
	}
	for _, s := range o.Scores {
		fmt.Fprintf(&b, "    %-16s %7d %7d %10s %10s %10s %10s %10s\n", s.Name, s.Pairs, s.Missing, f(s.Mean), f(s.SD), f(s.Min), f(s.Median), f(s.Max))
	}
	fmt.Fprintf(&b, "  drugs without SMILES      %d%s\n", len(o.DrugsWithoutSMILES), ListTail(o.DrugsWithoutSMILES, 10))
	if len(o.UnusableSMILES) > 0 {
		fmt.Fprintf(&b, "  drugs with unusable SMILES %d%s (train and predict leave them out)\n", len(o.UnusableSMILES), ListTail(o.UnusableSMILES, 10))
	}
	if o.Signatures {
		fmt.Fprintf(&b, "  drugs without signatures  %d%s\n", len(o.DrugsWithoutSignatures), ListTail(o.DrugsWithoutSignatures, 10))
	} else {
		fmt.Fprintf(&b, "  signatures                none stored (deup data signatures adds them)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ListTail is ": " and the first n ids, comma-separated, with how many
// more there are ("" when ids is empty): the list after a count.
func ListTail(ids []string, n int) string {
	if len(ids) == 0 {
		return ""
	}
	shown, more := ids, ""
	if len(shown) > n {
		shown, more = shown[:n], fmt.Sprintf(", ... (%d more)", len(ids)-n)
	}
	return ": " + strings.Join(shown, ", ") + more
}
