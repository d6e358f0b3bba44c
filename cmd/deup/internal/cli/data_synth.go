package cli

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/deup-screening/deup/data"
)

func dataSynthCommand() *Command {
	return &Command{
		Name:  "synth",
		Short: "generate the embedded default: a synthetic screen with its hidden ground truth",
		Run:   runDataSynth,
	}
}

//go:embed help/dataSynth.txt
var dataSynthDesc string

func runDataSynth(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup data synth", "deup data synth --seed N --out DIR [--drugs N --pairs N --cell-lines N]", dataSynthDesc)
	def := data.DefaultSynth(0)
	seed := seedFlag(fs, "random seed")
	out := fs.String("out", "", screenOutUsage)
	nDrugs := fs.Int("drugs", def.Drugs, "number of drugs")
	nPairs := fs.Int("pairs", def.Pairs, "number of measured (drug pair, cell line) combinations")
	nCells := fs.Int("cell-lines", def.CellLines, "number of cell lines")
	repFrac := fs.Float64("replicate-frac", def.ReplicateFrac, "fraction of pairs measured 2..max-replicates times")
	_, err := parseWant(fs, args, 0, 0)
	if err != nil {
		return err
	}
	if *out == "" {
		return usageError(fs, "deup data synth: --out DIR is required")
	}
	cfg := data.DefaultSynth(*seed)
	cfg.Drugs, cfg.Pairs, cfg.CellLines, cfg.ReplicateFrac = *nDrugs, *nPairs, *nCells, *repFrac
	s, err := data.Synth(cfg)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if err := saveScreen(env, *out, s, nil); err != nil { // no import report
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s: %s, %d drugs, %d pairs, %d measurements, %d cell line(s), with ground truth\n",
		*out, s.Name, len(s.Drugs), len(s.Pairs), s.Measurements(), len(s.CellLines))
	return nil
}
