package cli

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/deup-screening/deup/bench"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/internal/rusage"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
)

func benchCommand(reg *methods.Registry) *cmdline.Command {
	return &cmdline.Command{Name: "bench", Short: "the 40/30/30 uncertainty benchmark: DEUP against the baselines", Run: withMethods(reg, runBench)}
}

//go:embed help/bench.txt
var benchDesc string

type benchFlags struct {
	screenDir, feat, splitBy, out, cellLine, cellLines, reference, score, cpuProfile string
	cellFeatures, oosBy                                                              string
	seeds, shots, batch, folds                                                       int
	noFigs, whole                                                                    bool
	cfg                                                                              bench.Config
}

func parseBenchFlags(env Env, reg *methods.Registry, args []string) (*benchFlags, error) {
	fs := newFlagSet(env, "deup bench", "deup bench [--screen DIR] [--features fp|fp+sig] [--methods "+strings.Join(reg.BenchDefaults(), ",")+"] [--seeds 3] [--split 40/30/30] [--split-by pairs|combinations|drugs|cell-lines] [--folds K] [--oos-by pairs|combinations|drugs] [--cell-lines all|A,B,…] [--reference per-line|none|onehot|neighbors] [--new-line-shots K] [--alpha 0.1] [--out DIR]", benchDesc)
	screenDir := screenFlag(fs)
	feat := fs.String("features", "fp", "drug features: fp or fp+sig (fp+sig keeps only pairs whose two drugs have a signature)")
	methodList := fs.String("methods", strings.Join(reg.BenchDefaults(), ","), "comma-separated methods: "+strings.Join(reg.Names(), ", "))
	seeds, seed := seedsFlags(fs)
	splitFlag := fs.String("split", "40/30/30", "train/validation/test percentages")
	splitBy := fs.String("split-by", bench.ByPairs, "what the test set holds out: pairs (at random), combinations (each unordered drug pair with every cell line it was measured on), drugs (every test pair has a drug never trained or validated on) or cell-lines (whole cell lines; needs a screen with several)")
	folds := fs.Int("folds", 0, "K-fold cross-validation over the --split-by unit (K ≥ 2; each seed its own permutation into K folds, every unit tested once); 0: one --split per seed")
	oosBy := oosByFlag(fs)
	out := fs.String("out", "bench-out", "output directory")
	cellLine := fs.String("cell-line", "", "one cell line (default: see --cell-lines)")
	cellLines := fs.String("cell-lines", "", cellLinesUsage)
	cellFeatures := fs.String("cell-features", "", "table (.csv, .parquet, .arrow) with a cell_line column and numeric columns: features of the panel's lines, mapped linearly into every method's line embedding (with --split-by cell-lines, what a held-out line is predicted from besides the pairs)")
	reference := fs.String("reference", "", "per-line: add the per-line reference row on a panel (default for a panel split by pairs); none: leave it out; onehot (alone or as per-line,onehot): add the one-hot MLP's row (method onehot: the drugs' and line's identities only, no fingerprints); neighbors: add the drug-neighbour row (method neighbors: the scores of the pair's drugs with similar partners on the line, no network)")
	shots := fs.Int("new-line-shots", 0, "with --split-by cell-lines: measured pairs of each held-out line moved into training (K = 0 is reported beside it)")
	batch := batchSizeFlag(fs)
	identity := identityFlag(fs)
	film := lineFiLMFlag(fs)
	score := scoreFlag(fs)
	mf := newMethodFlags(fs, reg, false)
	extra := fs.Int("extra-passes", 30, "passes of the extra MC-Dropout row (negative: no extra row)")
	alpha := fs.Float64("alpha", 0.1, "miscoverage of the conformal intervals, in (0, 1): 0.1 scores 90 % intervals")
	noFigs := noFiguresFlag(fs)
	whole := wholeMoleculeFlag(fs)
	workers := cmdline.WorkersFlag(fs, 2, "trainings")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof reads it)")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return nil, err
	}
	fracs, err := drugcomb.ParseSplit(*splitFlag, false)
	if err != nil {
		return nil, fmt.Errorf("%w: --split %q: %v", cmdline.ErrUsage, *splitFlag, err)
	}
	if err := cmdline.Check(
		cmdline.Want(*seeds >= 1, "--seeds %d, want ≥ 1", *seeds),
		cmdline.WorkersRule(*workers),
		cmdline.Want(*alpha > 0 && *alpha < 1, "--alpha %v: the conformal miscoverage must be in (0, 1) (0.1 for 90 %% intervals)", *alpha),
	); err != nil {
		return nil, err
	}
	mc, err := mf.config()
	if err != nil {
		return nil, err
	}
	if err := cmdline.Check(identityRule(*identity)); err != nil {
		return nil, err
	}
	setIdentity(&mc.Model, *identity)
	mc.Model.LineFiLM = *film
	methodNames, ref := withReferenceMethods(cmdline.SplitList(*methodList), *reference)
	cfg := bench.Config{
		Methods:     methodNames,
		Registry:    reg,
		Seeds:       bench.Seeds(*seed, *seeds),
		Fracs:       fracs,
		Model:       mc.Model,
		DEUP:        mc.DEUP,
		DUE:         mc.DUE,
		Members:     mc.Members,
		Passes:      mc.Passes,
		ExtraPasses: *extra,
		Workers:     cmdline.Workers(*workers),
		Alpha:       *alpha,
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	if err := cmdline.Check(
		cmdline.Want(!(*shots < 0 || *shots > 0 && *splitBy != bench.ByCellLines), "--new-line-shots %d: want K ≥ 0, with --split-by cell-lines", *shots),
		cmdline.Want(*folds == 0 || *folds >= 2, "--folds %d: K-fold cross-validation needs K ≥ 2 (0: no folds)", *folds),
		checkOOSFlag(*oosBy),
		batchSizeRule(*batch),
	); err != nil {
		return nil, err
	}
	return &benchFlags{screenDir: *screenDir, feat: *feat, splitBy: *splitBy, out: *out, cellLine: *cellLine, cellLines: *cellLines, reference: ref,
		cellFeatures: *cellFeatures, oosBy: *oosBy, score: *score, cpuProfile: *cpuProfile, seeds: *seeds, shots: *shots, batch: *batch, folds: *folds, noFigs: *noFigs, whole: *whole, cfg: cfg}, nil
}

func runBench(ctx context.Context, env Env, reg *methods.Registry, args []string) error {
	b, err := parseBenchFlags(env, reg, args)
	if err != nil {
		return err
	}
	if b.cpuProfile != "" {
		stop, err := cmdline.CPUProfile(b.cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	start := env.Time()
	sc, name, d, si, err := benchData(env, b)
	if err != nil {
		return err
	}
	if b.shots > 0 {
		if err := benchNoShots(ctx, env, d, sc, b.cfg, b.shots, filepath.Join(b.out, "k0")); err != nil {
			return err
		}
		b.cfg = withShots(sc, b.cfg, b.shots, false)
		fmt.Fprintf(env.Stdout, "with %d measured pairs of each held-out line in training:\n", b.shots)
	}
	if err := os.MkdirAll(b.out, 0o755); err != nil {
		return err
	}
	folds, oos := "", ""
	if b.folds > 0 {
		folds = fmt.Sprintf(" × %d folds", b.folds)
	}
	if b.cfg.Protocol.OOSBy != bench.ByPairs {
		oos = "; out-of-sample part by " + b.cfg.Protocol.OOSBy
	}
	fmt.Fprintf(env.Stdout, "screen %s, cell line %s, score %s, features %s: %d drugs, %d pairs; %d seeds%s × %d methods; split by %s%s (BLAS %s)\n",
		name, strings.Join(sc.CellLines, ", "), sc.ScoreNames[si], b.feat, len(sc.Drugs), len(d.Pairs), b.seeds, folds, len(b.cfg.Methods), b.splitBy, oos, model.BLAS())
	bar := progress.New(env.Stderr, "bench", b.cfg.Trainings(len(sc.CellLines)))
	res, err := bench.Run(ctx, d, sc.Truth, b.cfg, func(e bench.Event) { bar.Set(e.Done, e.Detail()) })
	bar.Finish()
	if err != nil {
		return err
	}
	res.Screen = name
	// The tables and notes, printed and written as results.md (the same
	// bytes).
	var table bytes.Buffer
	if err := res.WriteMarkdown(&table); err != nil {
		return err
	}
	if err := res.WriteNotes(&table); err != nil {
		return err
	}
	if _, err := env.Stdout.Write(table.Bytes()); err != nil {
		return err
	}
	written, err := res.Save(b.out, func(i int) (string, string) { return sc.Drugs[sc.Pairs[i].A].ID, sc.Drugs[sc.Pairs[i].B].ID }, !b.noFigs)
	if err != nil {
		return err
	}
	md := filepath.Join(b.out, "results.md")
	if err := atomicfile.WriteFile(md, table.Bytes()); err != nil {
		return err
	}
	written = append(written[:1], append([]string{md}, written[1:]...)...)
	fmt.Fprintf(env.Stdout, "wrote %s\n", strings.Join(written, ", "))
	fmt.Fprintf(env.Stdout, "total wall time %.1f s (training and scoring %.1f s)%s\n", env.Since(start).Seconds(), res.WallSeconds, rusage.Note())
	return nil
}

// withReferenceMethods returns the methods with the reference methods
// the --reference list ref names added (onehot, neighbors; once each: a
// --methods list that has one already keeps its order), and what is left
// of ref for the per-line choice: --reference onehot is the one-hot MLP's
// row beside the methods (issue 40: does the fingerprint earn its keep on
// this screen?), --reference neighbors the drug-neighbour row (how much
// the measured combinations of a pair's drugs already tell).
func withReferenceMethods(names []string, ref string) ([]string, string) {
	var rest []string
	for _, r := range cmdline.SplitList(ref) {
		if r != methods.OneHot && r != methods.Neighbors {
			rest = append(rest, r)
			continue
		}
		if !slices.Contains(names, r) {
			names = append(names, r)
		}
	}
	return names, strings.Join(rest, ",")
}

// benchData opens the screen of b, selects its cell lines, sets the
// configuration that depends on them (reference row, batch size, split)
// and builds the dataset.
func benchData(env Env, b *benchFlags) (sc *drugcomb.Screen, name string, d *model.Dataset, si int, err error) {
	if sc, name, err = loadScreen(b.screenDir); err != nil {
		return nil, "", nil, 0, err
	}
	if sc, err = benchCellLines(sc, b); err != nil {
		return nil, "", nil, 0, err
	}
	if b.cfg.PerLineReference, err = bench.PerLineChoice(b.reference, len(sc.CellLines), b.splitBy); errors.Is(err, bench.ErrPerLinePanel) {
		return nil, "", nil, 0, fmt.Errorf("%w: --reference %v (not --split-by cell-lines)", cmdline.ErrUsage, err)
	} else if err != nil {
		return nil, "", nil, 0, fmt.Errorf("%w: --reference %v", cmdline.ErrUsage, err)
	}
	b.cfg.Model.BatchSize = b.batch // 0: the default, or the panel's (bench.Run)
	if si, err = scoreIndex(sc, b.score); err != nil {
		return nil, "", nil, 0, err
	}
	sc, f, _, err := buildFeatures(env, sc, b.screenDir, features.Config{Kind: b.feat, WholeMolecule: b.whole})
	if err != nil {
		return nil, "", nil, 0, err
	}
	if d, err = model.NewDataset(sc, f, si); err != nil {
		return nil, "", nil, 0, err
	}
	if d.LineFeatures, err = benchCellFeatures(b.cellFeatures, d.LineNames); err != nil {
		return nil, "", nil, 0, err
	}
	if len(d.LineFeatures) > 0 {
		fmt.Fprintf(env.Stdout, "cell-line features: %s, %d columns, given to every method\n", b.cellFeatures, len(d.LineFeatures[0]))
	}
	oos := b.oosBy
	b.cfg.Protocol = bench.Protocol{SplitBy: b.splitBy, Folds: b.folds, OOSBy: oos}
	if b.folds > 0 {
		var fe *drugcomb.FoldsError
		if b.cfg.Folds, err = bench.FoldSplitter(sc, b.splitBy, b.folds, b.cfg.Fracs, oos); errors.As(err, &fe) {
			return nil, "", nil, 0, fmt.Errorf("%w: --folds %d: %v", cmdline.ErrUsage, b.folds, err)
		} else if err != nil {
			return nil, "", nil, 0, fmt.Errorf("%w: --split-by %s --folds %d: %v", cmdline.ErrUsage, b.splitBy, b.folds, err)
		}
		return sc, name, d, si, nil
	}
	if b.cfg.Split, err = bench.Splitter(sc, b.splitBy, b.cfg.Fracs, oos); err != nil {
		return nil, "", nil, 0, fmt.Errorf("%w: --split-by %s: %v", cmdline.ErrUsage, b.splitBy, err)
	}
	return sc, name, d, si, nil
}

// benchCellFeatures reads --cell-features path (drugcomb.ReadCellFeatures,
// as deup train) and returns the standardized features of the dataset's
// lines (nil for ""). Unlike deup train it adds no line of the table to
// the screen's: a line without measurements has no pair to score.
func benchCellFeatures(path string, lines []string) ([][]float64, error) {
	if path == "" {
		return nil, nil
	}
	if len(lines) < 2 {
		return nil, fmt.Errorf("%w: --cell-features %s: the benchmark has one cell line; the features are for a panel", cmdline.ErrUsage, path)
	}
	cf, err := drugcomb.ReadCellFeatures(path)
	if err != nil {
		return nil, err
	}
	x, err := cf.Standardized(lines)
	if err != nil {
		return nil, fmt.Errorf("--cell-features: %w", err)
	}
	return x, nil
}

// benchCellLines applies --cell-line and --cell-lines under --split-by.
func benchCellLines(sc *drugcomb.Screen, b *benchFlags) (*drugcomb.Screen, error) {
	switch b.splitBy {
	case bench.ByPairs, bench.ByCombinations, bench.ByDrugs:
		return selectCellLines(sc, b.screenDir == "", b.cellLine, b.cellLines)
	case bench.ByCellLines:
		if b.cellLine != "" {
			return nil, fmt.Errorf("%w: --split-by cell-lines uses every cell line; leave --cell-line out", cmdline.ErrUsage)
		}
		if b.cellLines != "" {
			return selectCellLines(sc, false, "", b.cellLines)
		}
		return sc, nil
	}
	return nil, fmt.Errorf("%w: --split-by %q: want pairs, combinations, drugs or cell-lines", cmdline.ErrUsage, b.splitBy)
}

// benchNoShots runs the benchmark of a split by cell lines without shots
// (K = 0) on the test pairs that the run with k shots scores (the shots
// are in neither), prints its tables and writes its results.json into dir.
func benchNoShots(ctx context.Context, env Env, d *model.Dataset, sc *drugcomb.Screen, cfg bench.Config, k int, dir string) error {
	cfg = withShots(sc, cfg, k, true)
	fmt.Fprintf(env.Stdout, "new cell lines with no measured pair in training (K = 0; the same test pairs as K = %d):\n", k)
	res, err := bench.Run(ctx, d, sc.Truth, cfg, nil)
	if err != nil {
		return err
	}
	if err := res.WriteMarkdown(env.Stdout); err != nil {
		return err
	}
	p, err := res.SaveJSON(dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s\n", p)
	return nil
}

// withShots returns cfg with k measured pairs of each held-out line moved
// into training (noShots: out of the test set only, the K = 0 twin), in
// its one split per seed or, under --folds, in each fold.
func withShots(sc *drugcomb.Screen, cfg bench.Config, k int, noShots bool) bench.Config {
	if cfg.Folds != nil {
		cfg.Folds = bench.WithFoldShots(sc, cfg.Folds, k, noShots)
	} else {
		cfg.Split = bench.WithLineShots(sc, cfg.Split, k, noShots)
	}
	return cfg
}
