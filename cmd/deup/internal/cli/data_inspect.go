package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/lincs"
)

func dataInspectCommand() *Command {
	return &Command{
		Name:  "inspect",
		Short: "summarize a screen directory: counts, scores, drugs without SMILES or signatures",
		Run:   runDataInspect,
	}
}

const dataInspectDesc = `
Prints the counts of a screen directory (drugs, pairs, measurements, cell
lines, replicated pairs), a summary of each score column over the pairs'
means, and the drugs that have no SMILES, or one that cannot be
fingerprinted (a screen imported before data import checked them), and,
when signatures are stored beside the screen (deup data signatures), the
drugs that have none. --json prints one JSON object (keys: name, drugs,
pairs, measurements, cell_lines, cell_line_names, replicated_pairs, truth,
scores, drugs_without_smiles, drugs_with_unusable_smiles, signatures,
drugs_without_signatures).

Next: deup data signatures --gct FILE --screen DIR to add L1000 signatures,
or deup train --screen DIR --out MODEL.`

// scoreSummary summarizes one score column over the pairs' means.
type scoreSummary struct {
	Name    string `json:"name"`
	Pairs   int    `json:"pairs"`   // pairs with a value
	Missing int    `json:"missing"` // pairs without
	// Floats are written as floats (-225.0, not -225): internal/jsonfloat.
	Mean   *jsonfloat.Float `json:"mean"`
	SD     *jsonfloat.Float `json:"sd"` // sample standard deviation (n-1)
	Min    *jsonfloat.Float `json:"min"`
	Median *jsonfloat.Float `json:"median"`
	Max    *jsonfloat.Float `json:"max"`
}

type inspectOut struct {
	Name                   string         `json:"name"`
	Drugs                  int            `json:"drugs"`
	Pairs                  int            `json:"pairs"`
	Measurements           int            `json:"measurements"`
	CellLines              int            `json:"cell_lines"`
	CellLineNames          []string       `json:"cell_line_names"`
	ReplicatedPairs        int            `json:"replicated_pairs"`
	Truth                  bool           `json:"truth"`
	Scores                 []scoreSummary `json:"scores"`
	DrugsWithoutSMILES     []string       `json:"drugs_without_smiles"`
	UnusableSMILES         []string       `json:"drugs_with_unusable_smiles"`
	Signatures             bool           `json:"signatures"`               // signatures stored beside the screen
	DrugsWithoutSignatures []string       `json:"drugs_without_signatures"` // null when no signatures are stored
}

func fp(x float64) *jsonfloat.Float { f := jsonfloat.Float(x); return &f }

func summarize(name string, x []float64, missing int) scoreSummary {
	s := scoreSummary{Name: name, Pairs: len(x), Missing: missing}
	if len(x) == 0 {
		return s
	}
	sort.Float64s(x)
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	m := sum / float64(len(x))
	s.Mean, s.Min, s.Max = fp(m), fp(x[0]), fp(x[len(x)-1])
	if len(x)%2 == 1 {
		s.Median = fp(x[len(x)/2])
	} else {
		s.Median = fp((x[len(x)/2-1] + x[len(x)/2]) / 2)
	}
	if len(x) > 1 {
		ss := 0.0
		for _, v := range x {
			ss += (v - m) * (v - m)
		}
		s.SD = fp(math.Sqrt(ss / float64(len(x)-1)))
	}
	return s
}

func inspectScreen(dir string) (*inspectOut, error) {
	s, err := openScreen(dir)
	if err != nil {
		return nil, err
	}
	o := &inspectOut{
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
		o.Scores = append(o.Scores, summarize(n, x, miss))
	}
	for _, d := range s.Drugs {
		if d.SMILES == "" {
			o.DrugsWithoutSMILES = append(o.DrugsWithoutSMILES, d.ID)
		} else if checkSMILES(d.SMILES) != nil { // a screen imported before import checked them
			o.UnusableSMILES = append(o.UnusableSMILES, d.ID)
		}
	}
	sig, err := lincs.LoadSignatures(dir)
	switch {
	case errors.Is(err, lincs.ErrNoSignatures):
	case err != nil:
		return nil, err
	default:
		o.Signatures = true
		o.DrugsWithoutSignatures = []string{}
		has := map[string]bool{}
		for i, id := range sig.DrugIDs {
			if sig.Vectors[i] != nil {
				has[id] = true
			}
		}
		for _, d := range s.Drugs {
			if !has[d.ID] {
				o.DrugsWithoutSignatures = append(o.DrugsWithoutSignatures, d.ID)
			}
		}
	}
	return o, nil
}

func runDataInspect(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup data inspect", "deup data inspect DIR [--json]", dataInspectDesc)
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 1, 1); err != nil {
		return err
	}
	o, err := inspectScreen(pos[0])
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(o, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(env.Stdout, "%s\n", b)
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "screen %s (%s)\n", o.Name, pos[0])
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
	fmt.Fprintf(&b, "  drugs without SMILES      %d%s\n", len(o.DrugsWithoutSMILES), listTail(o.DrugsWithoutSMILES))
	if len(o.UnusableSMILES) > 0 {
		fmt.Fprintf(&b, "  drugs with unusable SMILES %d%s (train and predict leave them out)\n", len(o.UnusableSMILES), listTail(o.UnusableSMILES))
	}
	if o.Signatures {
		fmt.Fprintf(&b, "  drugs without signatures  %d%s\n", len(o.DrugsWithoutSignatures), listTail(o.DrugsWithoutSignatures))
	} else {
		fmt.Fprintf(&b, "  signatures                none stored (deup data signatures adds them)\n")
	}
	_, err = fmt.Fprint(env.Stdout, b.String())
	return err
}

// listTail formats up to 10 ids after a count.
func listTail(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	shown := ids
	more := ""
	if len(shown) > 10 {
		shown, more = shown[:10], fmt.Sprintf(", ... (%d more)", len(ids)-10)
	}
	return ": " + strings.Join(shown, ", ") + more
}
