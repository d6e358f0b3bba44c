package cli

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"

	"github.com/deup-screening/deup/bench"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/internal/rusage"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/ood/drugs"
)

func oodCommand(reg *methods.Registry) *cmdline.Command {
	return &cmdline.Command{Name: "ood", Short: "reject difficult pairs: DEUP on drugs the model never saw, against the baselines (paper §5.3.2)", Run: withMethods(reg, runOOD)}
}

//go:embed help/ood.txt
var oodDesc string

type oodFlags struct {
	screenDir, cellLine, score, out string
	noFigs                          bool
	set                             drugs.Settings
}

func parseOODFlags(env Env, args []string) (*oodFlags, error) {
	fs := newFlagSet(env, "deup ood", "deup ood [--screen DIR] [--holdout-drugs 0.2] [--folds 5] [--seeds 3] [--methods "+drugs.DefaultMethods+"] [--out DIR]", oodDesc)
	set := drugs.Defaults()
	screenDir := screenFlag(fs)
	fs.Float64Var(&set.HoldOut, "holdout-drugs", set.HoldOut, "fraction of the drugs held out, by whole clusters")
	fs.IntVar(&set.Folds, "folds", set.Folds, "group folds of DEUP's Algorithm 2")
	seeds, seed := seedsFlags(fs)
	methods := fs.String("methods", drugs.DefaultMethods, "comma-separated methods: deup-<subset of xdvb>, deup-twohead, ensemble, mcdropout, due, density")
	out := fs.String("out", "ood-out", "output directory")
	cellLine := fs.String("cell-line", "", "cell line (default: the screen's first)")
	score := scoreFlag(fs)
	fs.IntVar(&set.Model.MaxEpochs, "epochs", 0, "maximum epochs per training (0: the default, 300)")
	fs.IntVar(&set.Model.Patience, "patience", set.Model.Patience, "early-stopping patience of every network (10, not bench's 25, to keep 3 seeds on PC-3 within 5 minutes on 2 cores)")
	fs.IntVar(&set.Members, "members", set.Members, "ensemble members")
	fs.IntVar(&set.Passes, "passes", set.Passes, "MC-Dropout passes (the v feature and the mcdropout row)")
	workers := cmdline.WorkersFlag(fs, set.Workers, "trainings")
	noFigs := noFiguresFlag(fs)
	_, err := cmdline.ParseWant(fs, args, 0, 0)
	if err != nil {
		return nil, err
	}
	if err := cmdline.Check(
		cmdline.Want(set.HoldOut > 0 && set.HoldOut < 1, "--holdout-drugs %v, want in (0, 1)", set.HoldOut),
		cmdline.Want(set.Folds >= 2, "--folds %d, want ≥ 2", set.Folds),
		cmdline.Want(*seeds >= 1, "--seeds %d, want ≥ 1", *seeds),
		epochsRule(set.Model.MaxEpochs),
		patienceRule(set.Model.Patience),
		cmdline.Want(set.Members >= 1 && set.Passes >= 2, "--members %d, --passes %d: want ≥ 1, ≥ 2", set.Members, set.Passes),
		cmdline.WorkersRule(*workers),
	); err != nil {
		return nil, err
	}
	set.Workers = cmdline.Workers(*workers)
	set.DUE.MaxEpochs, set.DUE.Patience = set.Model.MaxEpochs, set.Model.Patience
	set.Methods = cmdline.SplitList(*methods)
	if err := drugs.CheckMethods(set.Methods); err != nil {
		return nil, fmt.Errorf("%w: --methods: %s", cmdline.ErrUsage, strings.TrimPrefix(err.Error(), drugs.ErrMethods.Error()+": "))
	}
	set.Seeds = bench.Seeds(*seed, *seeds)
	return &oodFlags{screenDir: *screenDir, cellLine: *cellLine, score: *score, out: *out, noFigs: *noFigs, set: set}, nil
}

func runOOD(ctx context.Context, env Env, reg *methods.Registry, args []string) error {
	o, err := parseOODFlags(env, args)
	if err != nil {
		return err
	}
	set := o.set
	set.Registry = reg
	start := env.Time()
	sc, name, err := loadScreen(o.screenDir)
	if err != nil {
		return err
	}
	if sc, err = oneCellLine(sc, orFirstLine(sc, o.cellLine)); err != nil {
		return err
	}
	si, err := scoreIndex(sc, o.score)
	if err != nil {
		return err
	}
	sc, f, _, err := buildFeatures(env, sc, o.screenDir, features.Config{Kind: features.Fingerprint})
	if err != nil {
		return err
	}
	d, err := model.NewDataset(sc, f, si)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	x, err := drugs.NewExperiment(sc, d, set)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "screen %s, cell line %s, score %s: %d drugs in %d clusters, %d pairs; %d seeds, %d folds, methods %s\n",
		name, sc.CellLines[0], sc.ScoreNames[si], len(sc.Drugs), x.Clusters(), len(d.Pairs), len(set.Seeds), set.Folds, strings.Join(set.Methods, ","))
	bar := progress.New(env.Stderr, "ood", len(set.Seeds)*set.Ticks())
	results, err := x.Run(ctx, func(done int, detail string) { bar.Set(done, detail+" done") })
	bar.Finish()
	if err != nil {
		return err
	}
	rep := drugs.Score(results, set.Methods, sc.Truth)
	rep.Screen = name
	rep.WallSeconds = env.Since(start).Seconds()
	if err := rep.WriteMarkdown(env.Stdout); err != nil {
		return err
	}
	written, err := rep.WriteFiles(o.out, !o.noFigs)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "time: %s\n", rep.Timing(results))
	fmt.Fprintf(env.Stdout, "wrote %s\n", strings.Join(written, ", "))
	fmt.Fprintf(env.Stdout, "total wall time %.1f s%s\n", rep.WallSeconds, rusage.Note())
	return nil
}
