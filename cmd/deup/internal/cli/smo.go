package cli

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"time"

	"github.com/deup-screening/deup/bench"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/smo"
)

func smoCommand() *cmdline.Command {
	return &cmdline.Command{Name: "smo", Short: "sequential model optimization: DEUP-EI vs GP-EI, TuRBO, MC-Dropout, ensembles (paper §5.1)", Run: runSMO}
}

//go:embed help/smo.txt
var smoDesc string

type smoArgs struct {
	f       smo.Function
	methods []string
	seeds   []uint64
	opt     smo.Options
	jobs    int
	out     string
}

func parseSMO(env Env, args []string) (*smoArgs, error) {
	fs := newFlagSet(env, "deup smo", "deup smo --function F [--dim D] [--method a,b,...] [--seeds N] [--steps S] [--init N0] [--out DIR]", smoDesc)
	var opt smo.Options
	fn := fs.String("function", "multi-optima", "test function: multi-optima, levy13 or ackley")
	dim := fs.Int("dim", 0, "dimension (ackley only; 0 means the function's own: 1, 2, or 10 for ackley)")
	methods := fs.String("method", "random,gp-ei,deup-ei", "comma-separated methods")
	seeds := fs.Int("seeds", 5, "number of seeds (runs 1..N per method)")
	firstSeed := cmdline.SeedFlag(fs, "seed of the first run: seeds seed..seed+seeds-1", "first-seed")
	fs.IntVar(&opt.Steps, "steps", 50, "acquisitions after the initial design")
	fs.IntVar(&opt.Init, "init", 6, "initial points (uniform in the box)")
	out := fs.String("out", "smo-out", "output directory (created)")
	features := fs.String("features", "", "DEUP error-predictor features, a subset of xdvb (default: xv with an MLP main predictor, v with a GP)")
	fs.StringVar(&opt.ErrorPrior, "error-prior", "uninformed", "what DEUP's GP error predictor predicts far from its data: uninformed (the initial targets' variance) or mean (the average observed error)")
	fs.StringVar(&opt.DEUPMain, "deup-main", "", "DEUP-EI main predictor: mlp or gp (default: mlp for d <= 2, gp above, as in the paper)")
	fs.IntVar(&opt.MLP.Epochs, "mlp-epochs", 500, "full-batch Adam epochs of every MLP fit")
	fs.IntVar(&opt.GPRestarts, "gp-restarts", 2, "random restarts of every GP hyperparameter fit (0: none)")
	fs.IntVar(&opt.Maximizer.Raw, "raw", 512, "random candidates when maximizing EI")
	fs.IntVar(&opt.Maximizer.Starts, "starts", 10, "Nelder-Mead local searches from the best candidates")
	jobs := cmdline.WorkersFlag(fs, 1, "runs", "jobs")
	_, err := cmdline.ParseWant(fs, args, 0, 0)
	if err != nil {
		return nil, err
	}
	const p = "deup smo: "
	f, fnErr := smo.Lookup(*fn, *dim)
	ms, methodsErr := smo.ParseMethods(*methods)
	var featuresErr error
	if *features != "" {
		opt.Features, featuresErr = deup.ParseFeatures(*features)
	}
	if err := cmdline.Check(
		cmdline.Want(*out != "", p+"--out is empty: name an output directory"),
		cmdline.Want(fnErr == nil, p+"%v", fnErr),
		cmdline.Want(methodsErr == nil, p+"%v", methodsErr),
		cmdline.Want(*seeds >= 1, p+"--seeds %d < 1", *seeds),
		cmdline.Want(opt.Steps >= 1, p+"--steps %d < 1", opt.Steps),
		cmdline.Want(opt.Init >= 4, p+"--init %d < 4 (DEUP's 2-fold pre-fill needs at least 2 points per half)", opt.Init),
		cmdline.Want(*jobs >= 0, p+"--workers %d < 0", *jobs),
		cmdline.Want(opt.MLP.Epochs >= 1, p+"--mlp-epochs %d < 1", opt.MLP.Epochs),
		cmdline.Want(opt.GPRestarts >= 0, p+"--gp-restarts %d < 0", opt.GPRestarts),
		cmdline.Want(opt.Maximizer.Raw >= 1 && opt.Maximizer.Starts >= 0, p+"--raw must be >= 1 and --starts >= 0"),
		cmdline.Want(opt.ErrorPrior == "uninformed" || opt.ErrorPrior == "mean", p+"--error-prior %q: want uninformed or mean", opt.ErrorPrior),
		cmdline.Want(featuresErr == nil, p+"%v", featuresErr),
		cmdline.Want(opt.DEUPMain == "" || opt.DEUPMain == "mlp" || opt.DEUPMain == "gp", p+"--deup-main %q: want mlp or gp", opt.DEUPMain),
	); err != nil {
		return nil, err
	}
	if opt.GPRestarts == 0 { // none, which smo.Options spells -1
		opt.GPRestarts = -1
	}
	if opt.Maximizer.Starts == 0 {
		opt.Maximizer.Starts = -1
	}
	return &smoArgs{f: f, methods: ms, opt: opt, jobs: *jobs, out: *out, seeds: bench.Seeds(*firstSeed, *seeds)}, nil
}

func runSMO(ctx context.Context, env Env, args []string) error {
	a, err := parseSMO(env, args)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(a.out, 0o755); err != nil {
		return fmt.Errorf("smo: %w", err)
	}
	bar := progress.New(env.Stderr, fmt.Sprintf("smo %s d=%d", a.f.Name, a.f.Dim), len(a.methods)*len(a.seeds)*a.opt.Steps)
	runs, err := smo.RunAll(ctx, a.f, a.methods, a.seeds, a.opt, cmdline.Workers(a.jobs), func() { bar.Add(1) }, func(m string, seed uint64, best float64) {
		bar.Detail(fmt.Sprintf("%s seed %d: %.4g", m, seed, best))
	})
	wall := bar.Finish()
	if err != nil {
		return err
	}
	sum := smo.Summarize(a.f, a.opt, a.seeds, a.methods, runs)
	if err := sum.WriteFiles(a.out); err != nil {
		return err
	}
	if err := sum.WriteTable(env.Stdout); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wall time %s; wrote %s/{results.csv,results.json,best_so_far.png,best_so_far.svg}\n", wall.Round(100*time.Millisecond), a.out)
	return nil
}
