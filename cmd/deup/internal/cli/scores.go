package cli

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/scores"
)

// scoresCommand groups the commands on a directory of sharded predictions
// (deup predict --out DIR [--shard i/N]).
func scoresCommand() *cmdline.Command {
	return &cmdline.Command{
		Name:  "scores",
		Short: "check and summarize a directory of sharded predictions (deup predict --out DIR --shard i/N)",
		Subs: []*cmdline.Command{
			{Name: "check", Short: "verify every cell line has every pair once from one model; print the run's checksum", Run: runScoresCheck},
			{Name: "summary", Short: "per-line summary and a suggested batch across lines from a checked directory", Run: runScoresSummary},
		},
	}
}

//go:embed help/scoresCheck.txt
var scoresCheckDesc string

func runScoresCheck(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup scores check", "deup scores check DIR", scoresCheckDesc)
	pos, err := cmdline.ParseWant(fs, args, 1, 1)
	if err != nil {
		return err
	}
	rep, err := scores.Check(pos[0])
	if err != nil {
		return err
	}
	shardHints(rep)
	if err := rep.WriteText(env.Stdout, env.Stderr, "deup scores check: "); err != nil {
		return err
	}
	if !rep.OK() {
		return cmdline.ExitError{Code: 1}
	}
	return nil
}

//go:embed help/scoresSummary.txt
var scoresSummaryDesc string

func runScoresSummary(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup scores summary", "deup scores summary DIR --out BATCH.csv [--lines LINES.csv] [--batch K] [--beta B]", scoresSummaryDesc)
	out := fs.String("out", "", "suggested batch, CSV")
	lines := fs.String("lines", "", "per-line summary, CSV (default: stdout only)")
	k := fs.Int("batch", 30, "pairs in the suggested batch")
	beta := fs.Float64("beta", 1, "UCB weight of sigma_epistemic")
	pos, err := cmdline.ParseWant(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return cmdline.UsageError(fs, "deup scores summary: --out is required")
	}
	if *k < 1 {
		return fmt.Errorf("%w: --batch %d: want ≥ 1", cmdline.ErrUsage, *k)
	}
	for _, p := range []struct{ flag, path string }{{"--out", *out}, {"--lines", *lines}} {
		if err := cmdline.NeedOutDir(p.flag, p.path); err != nil {
			return err
		}
	}
	rep, err := scores.Check(pos[0])
	if err != nil {
		return err
	}
	shardHints(rep)
	if !rep.OK() {
		if err := rep.WriteText(env.Stdout, env.Stderr, "deup scores check: "); err != nil {
			return err
		}
		return cmdline.ExitError{Code: 1}
	}
	sum, err := scores.Summarize(rep, *k, *beta)
	if err != nil {
		return err
	}
	if err := sum.WriteText(env.Stdout); err != nil {
		return err
	}
	lrec, brec := sum.LinesRecord(), sum.BatchRecord()
	defer lrec.Release()
	defer brec.Release()
	if *lines != "" {
		if err := scores.WriteCSV(*lines, lrec); err != nil {
			return err
		}
	}
	if err := scores.WriteCSV(*out, brec); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote a batch of %d pairs (UCB, beta %g) over %d cell lines, %d rows (checksum %s), to %s\n", len(sum.Batch), *beta, len(sum.Lines), rep.Sum.Rows, rep.Sum, *out)
	return nil
}
