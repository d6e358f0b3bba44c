package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/smo"
)

func smoCommand() *Command {
	return &Command{Name: "smo", Short: "sequential model optimization: DEUP-EI vs GP-EI, TuRBO, MC-Dropout, ensembles (paper §5.1)", Run: runSMO}
}

const smoDesc = `Maximizes a test function from a few random points, one acquisition per step,
with each method, and records the best value found so far (paper §5.1, App. SMO).

Functions: multi-optima (sin(x)cos(5x)cos(22x) on [-1,2], max 0.9498949195 at
x=1.857228463), levy13 (negative Levy N.13 on [-10,10]^2, max 0 at (1,1)),
ackley (Ackley-d on [-10,15]^d, A=20, B=0.2, c=2pi, max 0 at the origin).

Methods: random, gp-ei, deup-ei, mcdropout-ei, ensemble-ei, turbo-ei,
turbo-deup-ei. Seeds 1..N; every method of a seed starts from the same
initial points. A run reaches the optimum when its best value is within 1e-3
of the global maximum.

Writes DIR/results.csv (method, seed, step, value, best_so_far; step 0 is the
initial design), DIR/results.json and DIR/best_so_far.png and .svg (mean ± one
standard error per method), and prints a summary table.

Next: open DIR/best_so_far.png, or read DIR/results.csv with pandas or
DuckDB; deup rl runs the paper's exploration use.`

func runSMO(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup smo", "deup smo --function F [--dim D] [--method a,b,...] [--seeds N] [--steps S] [--init N0] [--out DIR]", smoDesc)
	fn := fs.String("function", "multi-optima", "test function: multi-optima, levy13 or ackley")
	dim := fs.Int("dim", 0, "dimension (ackley only; 0 means the function's own: 1, 2, or 10 for ackley)")
	methods := fs.String("method", "random,gp-ei,deup-ei", "comma-separated methods")
	seeds := fs.Int("seeds", 5, "number of seeds (runs 1..N per method)")
	firstSeed := seedFlag(fs, "seed of the first run: seeds seed..seed+seeds-1", "first-seed")
	steps := fs.Int("steps", 50, "acquisitions after the initial design")
	initN := fs.Int("init", 6, "initial points (uniform in the box)")
	out := fs.String("out", "smo-out", "output directory (created)")
	features := fs.String("features", "", "DEUP error-predictor features, a subset of xdvb (default: xv with an MLP main predictor, v with a GP)")
	errorPrior := fs.String("error-prior", "uninformed", "what DEUP's GP error predictor predicts far from its data: uninformed (the initial targets' variance) or mean (the average observed error)")
	deupMain := fs.String("deup-main", "", "DEUP-EI main predictor: mlp or gp (default: mlp for d <= 2, gp above, as in the paper)")
	epochs := fs.Int("mlp-epochs", 500, "full-batch Adam epochs of every MLP fit")
	restarts := fs.Int("gp-restarts", 2, "random restarts of every GP hyperparameter fit (0: none)")
	raw := fs.Int("raw", 512, "random candidates when maximizing EI")
	starts := fs.Int("starts", 10, "Nelder-Mead local searches from the best candidates")
	jobs := workersFlag(fs, 1, "runs", "jobs")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 0, 0); err != nil {
		return err
	}
	usage := func(format string, a ...any) error {
		return fmt.Errorf("%w: deup smo: %s", ErrUsage, fmt.Sprintf(format, a...))
	}
	if *out == "" {
		return usage("--out is empty: name an output directory")
	}
	f, err := smo.Lookup(*fn, *dim)
	if err != nil {
		return usage("%v", err)
	}
	ms, err := smo.ParseMethods(*methods)
	if err != nil {
		return usage("%v", err)
	}
	switch {
	case *seeds < 1:
		return usage("--seeds %d < 1", *seeds)
	case *steps < 1:
		return usage("--steps %d < 1", *steps)
	case *initN < 4:
		return usage("--init %d < 4 (DEUP's 2-fold pre-fill needs at least 2 points per half)", *initN)
	case *jobs < 0:
		return usage("--workers %d < 0", *jobs)
	case *epochs < 1:
		return usage("--mlp-epochs %d < 1", *epochs)
	case *restarts < 0:
		return usage("--gp-restarts %d < 0", *restarts)
	case *raw < 1 || *starts < 0:
		return usage("--raw must be >= 1 and --starts >= 0")
	}
	if *errorPrior != "uninformed" && *errorPrior != "mean" {
		return usage("--error-prior %q: want uninformed or mean", *errorPrior)
	}
	opt := smo.Options{Steps: *steps, Init: *initN, DEUPMain: *deupMain, ErrorPrior: *errorPrior,
		GPRestarts: *restarts, Maximizer: smo.Maximizer{Raw: *raw, Starts: *starts}}
	opt.MLP.Epochs = *epochs
	if *restarts == 0 {
		opt.GPRestarts = -1
	}
	if *starts == 0 {
		opt.Maximizer.Starts = -1
	}
	if *features != "" {
		set, err := deup.ParseFeatures(*features)
		if err != nil {
			return usage("%v", err)
		}
		opt.Features = set
	}
	if *deupMain != "" && *deupMain != "mlp" && *deupMain != "gp" {
		return usage("--deup-main %q: want mlp or gp", *deupMain)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("smo: %w", err)
	}

	seedList := make([]uint64, *seeds)
	for i := range seedList {
		seedList[i] = *firstSeed + uint64(i)
	}
	type job struct {
		m    string
		i    int
		seed uint64
	}
	var jl []job
	for _, m := range ms {
		for i, s := range seedList {
			jl = append(jl, job{m, i, s})
		}
	}
	runs := map[string][]*smo.Result{}
	for _, m := range ms {
		runs[m] = make([]*smo.Result, len(seedList))
	}
	bar := progress.New(env.Stderr, fmt.Sprintf("smo %s d=%d", f.Name, f.Dim), len(jl)**steps)
	// The runs share the process's worker budget with their kernels
	// (kernels.Jobs); the first error cancels the others.
	var mu sync.Mutex
	err = kernels.Jobs(ctx, len(jl), workerCount(*jobs), func(ctx context.Context, k int) error {
		j := jl[k]
		r, err := smo.Run(ctx, f, j.m, j.seed, opt, func(int) {
			mu.Lock()
			bar.Add(1)
			mu.Unlock()
		})
		if err != nil {
			return err
		}
		mu.Lock()
		runs[j.m][j.i] = r
		bar.Detail(fmt.Sprintf("%s seed %d: %.4g", j.m, j.seed, r.BestSoFar[len(r.BestSoFar)-1]))
		mu.Unlock()
		return nil
	})
	wall := bar.Finish()
	if err != nil {
		return err
	}
	sum := smo.Summarize(f, opt, seedList, ms, runs)
	if err := writeFile(filepath.Join(*out, "results.json"), sum.WriteJSON); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(*out, "results.csv"), func(w io.Writer) error { return smo.WriteCSV(w, ms, runs, *initN) }); err != nil {
		return err
	}
	if err := sum.Plot(filepath.Join(*out, "best_so_far.png"), filepath.Join(*out, "best_so_far.svg")); err != nil {
		return err
	}
	printSMOSummary(env.Stdout, sum)
	fmt.Fprintf(env.Stdout, "wall time %s; wrote %s/{results.csv,results.json,best_so_far.png,best_so_far.svg}\n", wall.Round(100*time.Millisecond), *out)
	return nil
}

// writeFile writes path atomically with write (every command's outputs
// that are not tables: JSON reports, figures); a killed run leaves the
// previous file or none. Errors name the file, without a package prefix.
func writeFile(path string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		if strings.Contains(err.Error(), path) {
			return err
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// printSMOSummary prints one line per method: seeds that reached the
// optimum, their steps, the final best value mean ± sample sd, and the mean
// wall time per run.
func printSMOSummary(w io.Writer, s *smo.Summary) {
	fmt.Fprintf(w, "%s d=%d, global max %.10g, %d initial points, %d steps, seeds %v\n", s.Function, s.Dim, s.GlobalMax, s.Init, s.Steps, s.Seeds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "method\treached\tsteps to optimum\tfinal best (mean ± sd)\twall/run")
	for _, m := range s.Order {
		ms := s.Methods[m]
		var st []int
		steps := ""
		for i, p := range ms.StepsToOptimum {
			if i > 0 {
				steps += ","
			}
			if p == nil {
				steps += "-"
			} else {
				steps += fmt.Sprint(*p)
				st = append(st, *p)
			}
		}
		sort.Ints(st)
		var wall float64
		for _, v := range ms.WallSeconds {
			wall += v / float64(len(ms.WallSeconds))
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%.4f ± %.4f\t%.1fs\n", m, ms.Reached, len(ms.BestSoFar), steps, ms.FinalMean, ms.FinalSD, wall)
	}
	tw.Flush()
}
