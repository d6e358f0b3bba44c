package cli

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/rl"
)

func rlCommand() *Command {
	return &Command{Name: "rl", Short: "DEUP-DQN against DQN, MC-Dropout DQN and Bootstrapped DQN on bsuite's CartPole (paper §5.2)", Run: runRL}
}

//go:embed help/rl.txt
var rlDesc string

func runRL(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup rl", "deup rl [--env cartpole] [--agents a,b,...] [--seeds N] [--episodes E] [--workers W] --out DIR", rlDesc)
	envName := fs.String("env", "cartpole", "environment: cartpole (bsuite's)")
	agents := fs.String("agents", "dqn,deup-dqn,mcdropout-dqn,boot-dqn", "comma-separated agents: dqn, deup-dqn, mcdropout-dqn, boot-dqn, random")
	seeds := fs.Int("seeds", 5, "number of seeds (runs per agent)")
	firstSeed := seedFlag(fs, "seed of the first run: seeds seed..seed+seeds-1", "first-seed")
	episodes := fs.Int("episodes", 1000, "episodes per run (bsuite's cartpole: 1000)")
	workers := workersFlag(fs, 0, "runs")
	out := fs.String("out", "", "output directory (created)")
	_, err := parseWant(fs, args, 0, 0)
	if err != nil {
		return err
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: deup rl: %s", ErrUsage, fmt.Sprintf(format, a...))
	}
	if *out == "" {
		return bad("--out is required")
	}
	if *envName != "cartpole" {
		return bad("--env %q: want cartpole", *envName)
	}
	names, err := rl.ParseAgents(*agents)
	if err != nil {
		return bad("--agents: %v", err)
	}
	switch {
	case *seeds < 1:
		return bad("--seeds %d < 1", *seeds)
	case *episodes < 1:
		return bad("--episodes %d < 1", *episodes)
	case *workers < 0:
		return bad("--workers %d < 0", *workers)
	}
	if *workers == 0 {
		*workers = runtime.GOMAXPROCS(0)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("rl: %w", err)
	}

	start := env.now()
	cpu0, _, _ := usage()
	runs, err := rl.RunAll(ctx, *envName, names, *firstSeed, *seeds, *episodes, *workers, rl.Options{}, &rlBars{w: &lockedWriter{w: env.Stderr}, episodes: *episodes})
	if err != nil {
		return err
	}
	wall := env.since(start)
	sum := &rl.Summary{Env: *envName, Episodes: *episodes, Order: names, Runs: runs, Wall: wall.Seconds()}
	if err := writeFile(filepath.Join(*out, "results.json"), sum.WriteJSON); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(*out, "runs.csv"), sum.WriteCSV); err != nil {
		return err
	}
	if err := sum.Plot(filepath.Join(*out, "regret.png"), filepath.Join(*out, "regret.svg")); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s, %d episodes, seeds %d..%d\n\n", *envName, *episodes, *firstSeed, *firstSeed+uint64(*seeds)-1)
	if err := sum.WriteTable(env.Stdout); err != nil {
		return err
	}
	line := fmt.Sprintf("\nwall time %s", wall.Round(100*time.Millisecond))
	if cpu1, rss, ok := usage(); ok {
		line += fmt.Sprintf(", CPU %s, peak RSS %d MiB", (cpu1 - cpu0).Round(100*time.Millisecond), rss>>20)
	}
	fmt.Fprintf(env.Stdout, "%s; wrote %s/{results.json,runs.csv,regret.png,regret.svg}\n", line, *out)
	return nil
}

// rlBars draws one progress bar per run; lockedWriter is not a terminal,
// so each bar prints a line per 10 % and the bars of parallel runs do not
// overwrite each other.
type rlBars struct {
	w        *lockedWriter
	episodes int
	mu       sync.Mutex
	bars     map[rl.Job]*progress.Bar
}

func (b *rlBars) Start(j rl.Job) func(k int, ret float64) {
	bar := progress.New(b.w, fmt.Sprintf("rl %s seed %d", j.Agent, j.Seed), b.episodes)
	b.mu.Lock()
	if b.bars == nil {
		b.bars = map[rl.Job]*progress.Bar{}
	}
	b.bars[j] = bar
	b.mu.Unlock()
	sum := 0.0
	return func(k int, ret float64) {
		sum += ret
		bar.Set(k+1, fmt.Sprintf("average regret %.1f", rl.BaseRegret-sum/float64(k+1)))
	}
}

func (b *rlBars) Done(j rl.Job, err error) {
	b.mu.Lock()
	bar := b.bars[j]
	b.mu.Unlock()
	if err == nil {
		bar.Finish()
	} else { // Finish would draw a cut-short run as complete
		fmt.Fprintf(b.w, "rl %s seed %d: stopped: %v\n", j.Agent, j.Seed, err)
	}
}

// lockedWriter serializes the writes of concurrent progress bars.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
