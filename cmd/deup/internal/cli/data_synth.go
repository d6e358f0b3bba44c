package cli

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/data"
)

//go:embed help/dataSynth.txt
var dataSynthDesc string

func runDataSynth(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup data synth", "deup data synth --seed N --out DIR [--drugs N --pairs N --cell-lines N]", dataSynthDesc)
	cfg := data.DefaultSynth(0)
	seed := cmdline.SeedFlag(fs, "random seed")
	out := fs.String("out", "", screenOutUsage)
	fs.IntVar(&cfg.Drugs, "drugs", cfg.Drugs, "number of drugs")
	fs.IntVar(&cfg.Pairs, "pairs", cfg.Pairs, "number of measured (drug pair, cell line) combinations")
	fs.IntVar(&cfg.CellLines, "cell-lines", cfg.CellLines, "number of cell lines")
	fs.Float64Var(&cfg.ReplicateFrac, "replicate-frac", cfg.ReplicateFrac, "fraction of pairs measured 2..max-replicates times")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return err
	}
	if *out == "" {
		return cmdline.UsageError(fs, "deup data synth: --out DIR is required")
	}
	cfg.Seed = *seed
	s, err := data.Synth(cfg)
	if err != nil {
		return fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	if err := saveScreen(env, *out, s, nil); err != nil { // no import report
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s: %s, %d drugs, %d pairs, %d measurements, %d cell line(s), with ground truth\n",
		*out, s.Name, len(s.Drugs), len(s.Pairs), s.Measurements(), len(s.CellLines))
	return nil
}
