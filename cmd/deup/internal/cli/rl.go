package cli

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/internal/rusage"
	"github.com/deup-screening/deup/rl"
)

func rlCommand() *cmdline.Command {
	return &cmdline.Command{Name: "rl", Short: "DEUP-DQN against DQN, MC-Dropout DQN and Bootstrapped DQN on bsuite's CartPole (paper §5.2)", Run: runRL}
}

//go:embed help/rl.txt
var rlDesc string

func runRL(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup rl", "deup rl [--env cartpole] [--agents a,b,...] [--seeds N] [--episodes E] [--workers W] --out DIR", rlDesc)
	envName := fs.String("env", "cartpole", "environment: cartpole (bsuite's)")
	agents := fs.String("agents", "dqn,deup-dqn,mcdropout-dqn,boot-dqn", "comma-separated agents: dqn, deup-dqn, mcdropout-dqn, boot-dqn, random")
	seeds := fs.Int("seeds", 5, "number of seeds (runs per agent)")
	firstSeed := cmdline.SeedFlag(fs, "seed of the first run: seeds seed..seed+seeds-1", "first-seed")
	episodes := fs.Int("episodes", 1000, "episodes per run (bsuite's cartpole: 1000)")
	workers := cmdline.WorkersFlag(fs, 0, "runs")
	out := fs.String("out", "", "output directory (created)")
	_, err := cmdline.ParseWant(fs, args, 0, 0)
	if err != nil {
		return err
	}
	const p = "deup rl: "
	names, agentsErr := rl.ParseAgents(*agents)
	if err := cmdline.Check(
		cmdline.Want(*out != "", p+"--out is required"),
		cmdline.Want(*envName == "cartpole", p+"--env %q: want cartpole", *envName),
		cmdline.Want(agentsErr == nil, p+"--agents: %v", agentsErr),
		cmdline.Want(*seeds >= 1, p+"--seeds %d < 1", *seeds),
		cmdline.Want(*episodes >= 1, p+"--episodes %d < 1", *episodes),
		cmdline.Want(*workers >= 0, p+"--workers %d < 0", *workers),
	); err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("rl: %w", err)
	}

	start := env.Time()
	cpu0, _, _ := rusage.Self()
	runs, err := rl.RunAll(ctx, *envName, names, *firstSeed, *seeds, *episodes, cmdline.Workers(*workers), rl.Options{}, rlBars(env.Stderr, *episodes))
	if err != nil {
		return err
	}
	wall := env.Since(start)
	sum := &rl.Summary{Env: *envName, Episodes: *episodes, Order: names, Runs: runs, Wall: wall.Seconds()}
	if err := sum.WriteFiles(*out); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s, %d episodes, seeds %d..%d\n\n", *envName, *episodes, *firstSeed, *firstSeed+uint64(*seeds)-1)
	if err := sum.WriteTable(env.Stdout); err != nil {
		return err
	}
	line := fmt.Sprintf("\nwall time %s", wall.Round(100*time.Millisecond))
	if cpu1, rss, ok := rusage.Self(); ok {
		line += fmt.Sprintf(", CPU %s, peak RSS %d MiB", (cpu1 - cpu0).Round(100*time.Millisecond), rss>>20)
	}
	fmt.Fprintf(env.Stdout, "%s; wrote %s/{results.json,runs.csv,regret.png,regret.svg}\n", line, *out)
	return nil
}

// rlBars draws one progress bar per run on w. The bars' writer is not a
// terminal, so that each prints a line per 10 % and the bars of parallel
// runs do not overwrite each other.
func rlBars(w io.Writer, episodes int) func(rl.Progress) {
	w = struct{ io.Writer }{w}
	bars := map[rl.Job]*progress.Bar{}
	return func(p rl.Progress) {
		label := fmt.Sprintf("rl %s seed %d", p.Agent, p.Seed)
		switch {
		case p.Err != nil: // Finish would draw a cut-short run as complete
			fmt.Fprintf(w, "%s: stopped: %v\n", label, p.Err)
		case p.Done:
			bars[p.Job].Finish()
		case p.Episode == 0:
			bars[p.Job] = progress.New(w, label, episodes)
		default:
			bars[p.Job].Set(p.Episode, fmt.Sprintf("average regret %.1f", p.AverageRegret))
		}
	}
}
