package cli

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
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

//go:embed help/dataInspect.txt
var dataInspectDesc string

func inspectScreen(dir string) (*drugcomb.Inspection, error) {
	s, err := openScreen(dir)
	if err != nil {
		return nil, err
	}
	o := drugcomb.Inspect(s, checkSMILES)
	sig, err := lincs.LoadSignatures(dir)
	switch {
	case errors.Is(err, lincs.ErrNoSignatures):
	case err != nil:
		return nil, err
	default:
		o.Signatures, o.DrugsWithoutSignatures = true, sig.Lacking(s.Drugs)
	}
	return o, nil
}

func runDataInspect(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup data inspect", "deup data inspect DIR [--json]", dataInspectDesc)
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, err := parseWant(fs, args, 1, 1)
	if err != nil {
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
