package cli

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/due"
	"github.com/deup-screening/deup/trained"
)

func trainCommand(reg *methods.Registry) *cmdline.Command {
	return &cmdline.Command{Name: "train", Short: "train DEUP (or a baseline) on a screen and save the model", Run: withMethods(reg, runTrain)}
}

//go:embed help/train.txt
var trainDesc string

// synthSeed is the seed of the embedded default screen used when --screen
// is not given.
const synthSeed = 1

type trainFlags struct {
	screenDir, split, feat, method, cellLine, cellLines, score, out string
	cellFeatures, oosBy                                             string
	fracs                                                           [3]float64
	seed                                                            uint64
	calFrac                                                         float64
	normalized, whole                                               bool
	mc                                                              methods.Config
}

func parseTrainFlags(env Env, reg *methods.Registry, args []string) (*trainFlags, error) {
	fs := newFlagSet(env, "deup train", "deup train [--screen DIR] [--split 70/30|40/30/30] [--features fp|fp+sig] [--method "+strings.Join(reg.Names(), "|")+"] [--cell-line NAME] [--seed N] --out MODEL", trainDesc)
	screenDir := screenFlag(fs)
	splitFlag := fs.String("split", "70/30", "IN/OUT: every measured pair, in-sample/out-of-sample; TRAIN/VAL/TEST (40/30/30): the benchmark split with a test score")
	oosBy := oosByFlag(fs)
	feat := fs.String("features", "fp", "drug features: fp (Morgan r=3, 1024 bits) or fp+sig (+ L1000 signature stored in the screen)")
	method := fs.String("method", methods.DEUP, "method: "+orList(reg.Names()))
	mf := newMethodFlags(fs, reg, true)
	cellLine := fs.String("cell-line", "", "one cell line to train on (default: see --cell-lines)")
	cellLines := fs.String("cell-lines", "", cellLinesUsage)
	cellFeatures := fs.String("cell-features", "", "table (.csv, .parquet, .arrow) with a cell_line column and numeric columns: features of the lines, mapped linearly into the line embedding; its lines without measurements join the model's lines, so predict scores them (every method, DUE included)")
	score := scoreFlag(fs)
	seed := cmdline.SeedFlag(fs, "seed of the split, the weights and the shuffling")
	out := fs.String("out", "", "where to write the trained model")
	calFrac := fs.Float64("calibration", 0.1, "fraction of all pairs held out (seeded) before the split, for the conformal calibration stored in the model (0: none)")
	conformal := fs.String("conformal", "normalized", "calibration scores: normalized (|y-mu|/sigma_total, adaptive width) or plain (|y-mu|, constant width)")
	whole := wholeMoleculeFlag(fs)
	batch := batchSizeFlag(fs)
	identity := identityFlag(fs)
	film := lineFiLMFlag(fs)
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return nil, err
	}
	if *out == "" {
		return nil, cmdline.UsageError(fs, "deup train: --out is required (the model file to write, e.g. --out pc3.model)")
	}
	fracs, err := drugcomb.ParseSplit(*splitFlag, true)
	if err != nil {
		return nil, fmt.Errorf("%w: --split %q: %v", cmdline.ErrUsage, *splitFlag, err)
	}
	if err := cmdline.NeedOutDir("--out", *out); err != nil {
		return nil, err
	}
	if err := cmdline.Check(
		cmdline.Want(*calFrac >= 0 && *calFrac < 1, "--calibration %v: want a fraction in [0, 1), e.g. 0.1 (0 stores no calibration)", *calFrac),
		cmdline.Want(*conformal == "normalized" || *conformal == "plain", "--conformal %q: want normalized or plain", *conformal),
		batchSizeRule(*batch),
		identityRule(*identity),
		checkOOSFlag(*oosBy),
	); err != nil {
		return nil, err
	}
	mc, err := mf.config()
	if err != nil {
		return nil, err
	}
	mc.Model.Seed = *seed
	mc.Model.BatchSize, mc.DUE.BatchSize = *batch, *batch // 0: the default, or the panel's (methods.Config.Panel)
	setIdentity(&mc.Model, *identity)
	mc.Model.LineFiLM = *film
	return &trainFlags{screenDir: *screenDir, split: *splitFlag, fracs: fracs, feat: *feat, method: *method, cellLine: *cellLine, cellLines: *cellLines, cellFeatures: *cellFeatures, oosBy: *oosBy, score: *score,
		seed: *seed, out: *out, calFrac: *calFrac, normalized: *conformal == "normalized", whole: *whole, mc: mc}, nil
}

func runTrain(ctx context.Context, env Env, reg *methods.Registry, args []string) error {
	t, err := parseTrainFlags(env, reg, args)
	if err != nil {
		return err
	}
	start := env.Time()
	sc, name, err := loadScreen(t.screenDir)
	if err != nil {
		return err
	}
	sc, err = selectCellLines(sc, t.screenDir == "", t.cellLine, t.cellLines)
	if err != nil {
		return err
	}
	cf, sc, err := readCellFeatures(t.cellFeatures, sc)
	if err != nil {
		return err
	}
	if len(sc.CellLines) > 1 {
		t.mc = t.mc.Panel() // one model over every line (a panel): the panel's training settings
	}
	m, err := newMethod(reg, t.method, t.mc)
	if err != nil {
		return err
	}
	si, err := scoreIndex(sc, t.score)
	if err != nil {
		return err
	}
	// scUsed holds the pairs trained on (under fp+sig, those whose drugs
	// both have a signature); the model file names the whole screen sc.
	scUsed, f, sig, err := buildFeatures(env, sc, t.screenDir, features.Config{Kind: t.feat, WholeMolecule: t.whole})
	if err != nil {
		return err
	}
	d, err := model.NewDataset(scUsed, f, si)
	if err != nil {
		return err
	}
	if d.LineFeatures, err = cf.Standardized(d.LineNames); err != nil {
		return fmt.Errorf("--cell-features: %w", err)
	}
	h, err := trainHoldout(t, scUsed)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "screen %s, %s, score %s: %d drugs, %d pairs\n", name, linesPhrase(sc.CellLines), sc.ScoreNames[si], len(sc.Drugs), len(d.Pairs))
	if err := h.WriteText(env.Stdout, t.split, t.calFrac, t.seed); err != nil {
		return err
	}
	bars := progress.NewNetworks(env.Stderr, progress.MemberLabel("train "+t.method))
	epoch := func(p model.Progress) {
		if !p.Done {
			bars.Epoch(p.Member, p.Members, p.Epoch, p.MaxEpochs, p.Detail())
		}
	}
	rep, err := methods.Fit(ctx, m, d, h, methods.FitOptions{Normalized: t.normalized, Progress: epoch, Now: env.Time})
	bars.Finish()
	if err != nil {
		return err
	}
	if err := rep.WriteText(env.Stdout, m, h); err != nil {
		return err
	}
	meta, err := trained.NewMeta(sc, t.screenDir, synthSeed, si, t.method, sig)
	if err != nil {
		return err
	}
	meta.Training, meta.Calibration = rep.Training(t.split, t.seed, h), rep.Calibration
	if err := trained.WriteFile(t.out, &trained.Bundle{Method: m, Meta: meta}); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s (%s total); it remembers its %d drugs and screen: next, deup predict --model %s --all-pairs --out pairs.csv\n",
		t.out, env.Since(start).Round(time.Millisecond), len(sc.Drugs), t.out)
	return nil
}

// trainHoldout is the holdout of t's training on the pairs of sc (the
// pairs trained on): the calibration pairs, the split, and its
// out-of-sample part drawn by --oos-by.
func trainHoldout(t *trainFlags, sc *drugcomb.Screen) (methods.Holdout, error) {
	h, err := methods.NewHoldout(len(sc.Pairs), t.calFrac, t.fracs, t.seed)
	if err != nil {
		return h, calibrationFlagError(err)
	}
	oos := t.oosBy
	if err := h.DrawOOS(sc, oos, t.seed); err != nil {
		return h, fmt.Errorf("--oos-by %s: %w", oos, err)
	}
	return h, nil
}

// readCellFeatures reads --cell-features path (nil for ""): the table, and
// sc with the table's lines that sc lacks added to its cell lines (the
// lines the model learns, and predict scores).
func readCellFeatures(path string, sc *drugcomb.Screen) (*drugcomb.CellFeatures, *drugcomb.Screen, error) {
	if path == "" {
		return nil, sc, nil
	}
	cf, err := drugcomb.ReadCellFeatures(path)
	if err != nil {
		return nil, nil, err
	}
	lines := cf.WithLines(sc.CellLines)
	if len(lines) < 2 {
		return nil, nil, fmt.Errorf("%w: --cell-features %s: the model would know one cell line (%s); the features are for a panel or for lines without measurements", cmdline.ErrUsage, path, lines[0])
	}
	c := *sc
	c.CellLines = lines
	return cf, &c, nil
}

// newMethod is reg.New with the flags' names in its errors.
func newMethod(reg *methods.Registry, name string, c methods.Config) (model.Method, error) {
	m, err := reg.New(name, c)
	if errors.Is(err, methods.ErrUnknownMethod) {
		return nil, fmt.Errorf("%w: deup train: unknown method %q (available: %s)", cmdline.ErrUsage, name, strings.Join(reg.Names(), ", "))
	}
	if s, _ := reg.Lookup(name); err != nil && s.FlagHint != nil {
		return nil, fmt.Errorf("%w: %s", cmdline.ErrUsage, s.FlagHint(c))
	}
	return m, err
}

// orList writes names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// calibrationFlagError says a methods.HoldoutError in --calibration's words.
func calibrationFlagError(err error) error {
	var he *methods.HoldoutError
	if !errors.As(err, &he) {
		return err
	}
	if he.Need > 0 {
		return fmt.Errorf("%w: --calibration %v holds out %d of %d pairs, fewer than the %d a 90%% conformal interval needs: raise the fraction, or give --calibration 0 for a model without intervals", cmdline.ErrUsage, he.Frac, he.K, he.N, he.Need)
	}
	return fmt.Errorf("%w: --calibration %v leaves %d of %d pairs to train on: lower the fraction", cmdline.ErrUsage, he.Frac, he.N-he.K, he.N)
}

// loadScreen opens dir, or generates the synthetic default when dir is "".
func loadScreen(dir string) (*drugcomb.Screen, string, error) {
	if dir == "" {
		sc, err := data.Synth(data.DefaultSynth(synthSeed))
		if err != nil {
			return nil, "", err
		}
		return sc, fmt.Sprintf("synthetic default (seed %d)", synthSeed), nil
	}
	sc, err := drugcomb.OpenDir(dir)
	if err != nil {
		return nil, "", err
	}
	return sc, dir, nil
}

// oneCellLine and scoreIndex are drugcomb's selection rule
// (Screen.OneCellLine, ScoreColumn) for --cell-line and
// --score: a name that selects nothing is a usage error (selectFlag).
func oneCellLine(sc *drugcomb.Screen, name string) (*drugcomb.Screen, error) {
	out, err := sc.OneCellLine(name)
	return out, selectFlag("--cell-line", err)
}

func scoreIndex(sc *drugcomb.Screen, name string) (int, error) {
	si, err := sc.ScoreColumn(name)
	return si, selectFlag("--score", err)
}

// selectFlag makes a selection that names nothing (drugcomb.ErrSelect) a
// usage error of flag; other errors pass unchanged.
func selectFlag(flag string, err error) error {
	if errors.Is(err, drugcomb.ErrSelect) {
		return fmt.Errorf("%w: %s: %v", cmdline.ErrUsage, flag, err)
	}
	return err
}

// buildFeatures computes the drug feature matrix of a screen for train and
// bench, and says on stdout which fragment of each SMILES was fingerprinted.
// Under fp+sig it applies the one rule of every fp+sig command: a pair is
// kept only when both its drugs have a signature (the paper's choice; a
// missing signature is never replaced by zeros, which would read as "no
// change in expression"); the returned screen holds those pairs, and the
// signatures used are returned too (nil for fp).
func buildFeatures(env Env, sc *drugcomb.Screen, dir string, cfg features.Config) (*drugcomb.Screen, *model.Features, *lincs.Signatures, error) {
	var sig *lincs.Signatures
	switch cfg.Kind {
	case features.Fingerprint:
	case features.FingerprintSignature:
		if dir == "" {
			return nil, nil, nil, fmt.Errorf("%w: --features fp+sig needs --screen DIR with signatures stored by deup data signatures", cmdline.ErrUsage)
		}
		var err error
		if sig, err = lincs.LoadSignatures(dir); err != nil {
			if errors.Is(err, lincs.ErrNoSignatures) {
				return nil, nil, nil, fmt.Errorf("%w: --features fp+sig: %v (run deup data signatures first)", cmdline.ErrUsage, err)
			}
			return nil, nil, nil, err
		}
	default:
		return nil, nil, nil, fmt.Errorf("%w: unknown --features %q (want fp or fp+sig)", cmdline.ErrUsage, cfg.Kind)
	}
	x, err := features.ForScreen(sc, cfg, sig)
	if err != nil {
		return nil, nil, nil, err
	}
	if sig != nil {
		fmt.Fprintf(env.Stdout, "fp+sig: %d of %d drugs have a signature; %d of %d pairs have one for both drugs and are used, the other %d are left out\n",
			x.WithSignature, len(sc.Drugs), len(x.Signed.Pairs), len(sc.Pairs), len(sc.Pairs)-len(x.Signed.Pairs))
		if len(x.Signed.Pairs) == 0 {
			return nil, nil, nil, fmt.Errorf("no pair has a signature for both drugs (run deup data signatures first)")
		}
	}
	rep := x.Report
	if len(rep.Errors) > 0 { // the one structure rule: left out and named, not refused
		if err := rep.WriteLeftOut(env.Stderr, "deup", "and are left out with their pairs", len(x.Signed.Drugs)); err != nil {
			return nil, nil, nil, err
		}
		fmt.Fprintf(env.Stderr, "deup: %d of %d pairs kept (both drugs usable)\n", len(x.Screen.Pairs), len(x.Signed.Pairs))
		if len(x.Screen.Pairs) == 0 {
			return nil, nil, nil, fmt.Errorf("no pair of the screen has two drugs with a usable structure (see the drugs named above)")
		}
	}
	if err := rep.WriteFingerprintNote(env.Stdout, cfg.WholeMolecule, len(x.Screen.Drugs)); err != nil {
		return nil, nil, nil, err
	}
	return x.Screen, x.Features, sig, nil
}

// structureRule is the one rule of every command for a drug whose
// structure cannot be used; the help texts quote it.
//
//go:embed help/structures.txt
var structureRule string

// methodFlags are the training flags of train and bench: the networks'
// epochs and patience, and the flags of every registered method (the
// ensemble's members, MC-Dropout's passes, DEUP's sigma path; with train,
// MC-Dropout's rate).
type methodFlags struct {
	epochs, patience *int
	apply            func(*methods.Config) error
}

func newMethodFlags(fs *flag.FlagSet, reg *methods.Registry, train bool) methodFlags {
	return methodFlags{epochs: epochsFlag(fs), patience: patienceFlag(fs), apply: reg.DefineFlags(fs, train)}
}

// config checks the methods' flags and returns the configuration the
// flags set; Model.Seed is the caller's. A value out of range is a usage
// error in the flag's words, before any data is read.
func (f methodFlags) config() (methods.Config, error) {
	if err := cmdline.Check(
		epochsRule(*f.epochs),
		patienceRule(*f.patience),
	); err != nil {
		return methods.Config{}, err
	}
	c := methods.Config{Model: model.Config{MaxEpochs: *f.epochs, Patience: *f.patience}, DUE: due.Config{MaxEpochs: *f.epochs, Patience: *f.patience}}
	if err := f.apply(&c); err != nil {
		return methods.Config{}, fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	return c, nil
}
