package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/due"
	"github.com/deup-screening/deup/uq"
)

func trainCommand() *Command {
	return &Command{Name: "train", Short: "train DEUP (or a baseline) on a screen and save the model", Run: runTrain}
}

const trainDesc = `Trains the permutation-invariant two-tower network on one cell line of a
screen, split 40/30/30 (train/validation/test) from --seed, and saves it.

DEUP: in-sample steps on the training split train everything with the
Gaussian NLL (in/out bit 0); out-of-sample steps on the validation split train
only the sigma path (bit 1). Early stopping on the validation RMSE of mu.
Prints the test RMSE and corr(sigma_total, |residual|) at the end.

Baselines on the same network: ensemble (--members M networks, MSE; sigma =
spread of member means), ensemble-nll (members with a sigma head, Gaussian
NLL), mcdropout (--dropout p after both combined layers, MSE; sigma = spread
of --passes stochastic passes), due (spectral-normalized extractor + sparse
variational GP, package model/due).

Without --screen, trains on the embedded synthetic default screen (data synth,
seed 1).`

// synthSeed is the seed of the embedded default screen used when --screen
// is not given.
const synthSeed = 1

func runTrain(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup train", "deup train [--screen DIR] [--features fp|fp+sig] [--method deup|ensemble|ensemble-nll|mcdropout|due] [--cell-line NAME] [--seed N] --out MODEL", trainDesc)
	screenDir := fs.String("screen", "", "screen directory (default: the synthetic default screen)")
	feat := fs.String("features", "fp", "drug features: fp (Morgan r=3, 1024 bits) or fp+sig (+ L1000 signature stored in the screen)")
	method := fs.String("method", "deup", "method: deup, ensemble, ensemble-nll, mcdropout or due")
	members := fs.Int("members", 3, "ensemble members (ensemble, ensemble-nll)")
	passes := fs.Int("passes", 3, "stochastic prediction passes (mcdropout)")
	dropRate := fs.Float64("dropout", 0.1, "dropout rate on the combined layers (mcdropout)")
	cellLine := fs.String("cell-line", "", "cell line to train on (default: the screen's first)")
	score := fs.String("score", "", "score column (default: the first)")
	seed := fs.Uint64("seed", 1, "seed of the split, the weights and the shuffling")
	epochs := fs.Int("epochs", 0, "maximum epochs (0: the default, 300)")
	patience := fs.Int("patience", 0, "early-stopping patience in epochs (0: the default, 25)")
	out := fs.String("out", "", "where to write the trained model")
	whole := fs.Bool("whole-molecule", false, "fingerprint every fragment of a SMILES (salts, counter-ions) instead of the largest organic one")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 0, 0); err != nil {
		return err
	}
	if *out == "" {
		fs.Usage()
		return fmt.Errorf("%w: deup train: --out is required", ErrUsage)
	}
	cfg := model.Config{Seed: *seed, MaxEpochs: *epochs, Patience: *patience}
	m, err := newMethod(*method, cfg, *members, *passes, *dropRate)
	if err != nil {
		return err
	}
	start := time.Now()
	sc, name, err := loadScreen(*screenDir)
	if err != nil {
		return err
	}
	sc, err = oneCellLine(sc, *cellLine)
	if err != nil {
		return err
	}
	si, err := scoreIndex(sc, *score)
	if err != nil {
		return err
	}
	sc, f, err := buildFeatures(env, sc, *screenDir, features.Config{Kind: *feat, WholeMolecule: *whole})
	if err != nil {
		return err
	}
	d, err := model.NewDataset(sc, f, si)
	if err != nil {
		return err
	}
	split := drugcomb.SplitRandom(len(d.Pairs), [3]float64{0.4, 0.3, 0.3}, *seed)
	fmt.Fprintf(env.Stdout, "screen %s, cell line %s, score %s: %d drugs, %d pairs (train %d, val %d, test %d)\n",
		name, sc.CellLines[0], sc.ScoreNames[si], len(sc.Drugs), len(d.Pairs), len(split.Train), len(split.Val), len(split.Test))
	var bar *progress.Bar
	var last model.Progress
	epochsRun := 0
	bestVal := math.Inf(1) // of the (first) network, at its best epoch
	fitStart := time.Now()
	err = m.Fit(ctx, d, split, func(p model.Progress) {
		if p.Done {
			return
		}
		if bar == nil || p.Member != last.Member {
			if bar != nil {
				bar.SetTotal(last.Epoch)
				bar.Finish()
			}
			label := "train " + *method
			if p.Members > 1 {
				label += fmt.Sprintf(" member %d/%d", p.Member+1, p.Members)
			}
			bar = progress.New(env.Stderr, label, p.MaxEpochs)
		}
		last = p
		epochsRun++
		if p.Member == 0 || p.Members <= 1 {
			bestVal = math.Min(bestVal, p.ValRMSE)
		}
		detail := fmt.Sprintf("loss %.3f val-rmse %.3g best %d", p.TrainLoss, p.ValRMSE, p.BestEpoch)
		if !math.IsNaN(p.OutLoss) {
			detail = fmt.Sprintf("loss %.3f out %.3f val-rmse %.3g best %d", p.TrainLoss, p.OutLoss, p.ValRMSE, p.BestEpoch)
		}
		bar.Set(p.Epoch, detail)
	})
	if bar != nil {
		bar.SetTotal(last.Epoch) // early stopping ends before MaxEpochs
		bar.Finish()
	}
	if err != nil {
		return err
	}
	fitTime := time.Since(fitStart)
	test := make([]model.Pair, len(split.Test))
	for k, i := range split.Test {
		test[k] = d.Pairs[i]
	}
	pred, err := m.Predict(f, test)
	if err != nil {
		return err
	}
	var se float64
	res, sig := make([]float64, len(test)), make([]float64, len(test))
	for k, i := range split.Test {
		r := pred[k].Mu - d.Y[i]
		se += r * r
		res[k], sig[k] = math.Abs(r), pred[k].SigmaTotal
	}
	fmt.Fprintf(env.Stdout, "trained %s: %d epochs in all (last run: %d, best epoch %d) in %s (%.3f s/epoch, BLAS %s)\n", m.Name(), epochsRun, last.Epoch, last.BestEpoch, fitTime.Round(time.Millisecond), fitTime.Seconds()/float64(max(epochsRun, 1)), model.BLAS())
	fmt.Fprintf(env.Stdout, "best validation RMSE %.4g; test RMSE %.4g; corr(sigma_total, |residual|) on test %.3f\n", bestVal, math.Sqrt(se/float64(len(test))), uq.Pearson(sig, res))
	fmt.Fprintf(env.Stdout, "%s\n", m.AleatoricNote())
	if err := saveModel(*out, m); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s (%s total)\n", *out, time.Since(start).Round(time.Millisecond))
	return nil
}

// newMethod constructs an untrained method by its --method name.
func newMethod(name string, cfg model.Config, members, passes int, dropRate float64) (model.Method, error) {
	switch name {
	case "deup":
		return model.NewDEUP(cfg), nil
	case "ensemble", "ensemble-nll":
		if members < 1 {
			return nil, fmt.Errorf("%w: --members %d, want >= 1", ErrUsage, members)
		}
		return model.NewEnsemble(cfg, members, name == "ensemble-nll"), nil
	case "mcdropout":
		if passes < 2 || !(dropRate > 0 && dropRate < 1) {
			return nil, fmt.Errorf("%w: --passes %d (want >= 2), --dropout %v (want in (0,1))", ErrUsage, passes, dropRate)
		}
		return model.NewMCDropout(cfg, dropRate, passes), nil
	case "due":
		return due.New(due.Config{Seed: cfg.Seed, MaxEpochs: cfg.MaxEpochs, Patience: cfg.Patience}), nil
	}
	return nil, fmt.Errorf("%w: deup train: unknown method %q (available: deup, ensemble, ensemble-nll, mcdropout, due)", ErrUsage, name)
}

func saveModel(path string, m model.Method) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := m.Save(fh); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
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
	sc, err := drugcomb.Open(dir)
	if err != nil {
		return nil, "", err
	}
	return sc, dir, nil
}

// oneCellLine returns the screen restricted to one cell line (by name;
// "" means the first), with CellLines = [that line].
func oneCellLine(sc *drugcomb.Screen, name string) (*drugcomb.Screen, error) {
	if len(sc.CellLines) == 0 {
		return nil, fmt.Errorf("screen has no cell lines")
	}
	ci := 0
	if name != "" {
		ci = -1
		for i, c := range sc.CellLines {
			if c == name {
				ci = i
			}
		}
		if ci < 0 {
			return nil, fmt.Errorf("%w: no cell line %q in the screen (have %v)", ErrUsage, name, sc.CellLines)
		}
	}
	out := *sc
	out.CellLines = []string{sc.CellLines[ci]}
	out.Pairs = nil
	var tm, tv []float64
	for i, p := range sc.Pairs {
		if p.CellLine != ci {
			continue
		}
		p.CellLine = 0
		out.Pairs = append(out.Pairs, p)
		if sc.Truth != nil {
			tm = append(tm, sc.Truth.Mean[i])
			tv = append(tv, sc.Truth.NoiseVar[i])
		}
	}
	if sc.Truth != nil {
		out.Truth = &drugcomb.Truth{Mean: tm, NoiseVar: tv}
	}
	if len(out.Pairs) == 0 {
		return nil, fmt.Errorf("cell line %s has no pairs", sc.CellLines[ci])
	}
	return &out, nil
}

func scoreIndex(sc *drugcomb.Screen, name string) (int, error) {
	if name == "" {
		return 0, nil
	}
	for i, s := range sc.ScoreNames {
		if s == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%w: no score column %q (have %v)", ErrUsage, name, sc.ScoreNames)
}

// buildFeatures computes the drug feature matrix of a screen for train and
// bench, and says on stdout which fragment of each SMILES was fingerprinted.
// Under fp+sig it applies the one rule of every fp+sig command: a pair is
// kept only when both its drugs have a signature (the paper's choice; a
// missing signature is never replaced by zeros, which would read as "no
// change in expression"), and the returned screen holds those pairs.
func buildFeatures(env Env, sc *drugcomb.Screen, dir string, cfg features.Config) (*drugcomb.Screen, *model.Features, error) {
	var sig *lincs.Signatures
	switch cfg.Kind {
	case features.Fingerprint:
	case features.FingerprintSignature:
		if dir == "" {
			return nil, nil, fmt.Errorf("%w: --features fp+sig needs --screen with stored signatures", ErrUsage)
		}
		var err error
		if sig, err = lincs.LoadSignatures(dir); err != nil {
			if errors.Is(err, lincs.ErrNoSignatures) {
				return nil, nil, fmt.Errorf("%w: --features fp+sig: %v (run deup data signatures first)", ErrUsage, err)
			}
			return nil, nil, err
		}
		if sc, err = keepSignaturePairs(env, sc, sig); err != nil {
			return nil, nil, err
		}
	default:
		return nil, nil, fmt.Errorf("%w: unknown --features %q (want fp or fp+sig)", ErrUsage, cfg.Kind)
	}
	f, rep, err := features.Build(sc.Drugs, cfg, sig)
	if err != nil {
		return nil, nil, err
	}
	if cfg.WholeMolecule {
		fmt.Fprintf(env.Stdout, "fingerprints: whole molecules, salts and mixtures included (--whole-molecule)\n")
	} else {
		fmt.Fprintf(env.Stdout, "fingerprints: largest organic fragment of each SMILES (%d of %d drugs had a salt or mixture stripped; --whole-molecule keeps them)\n", rep.Stripped, len(sc.Drugs))
		if len(rep.Tied) > 0 {
			fmt.Fprintf(env.Stdout, "fingerprints: %d drugs have two different fragments of the same size and mass; the first was kept: %s\n", len(rep.Tied), strings.Join(rep.Tied, ", "))
		}
	}
	return sc, f, nil
}

// keepSignaturePairs restricts a screen to the pairs whose two drugs both
// have a signature in sig (a vector with at least one finite value: an
// all-NaN column counts as none), and says so on stdout.
func keepSignaturePairs(env Env, sc *drugcomb.Screen, sig *lincs.Signatures) (*drugcomb.Screen, error) {
	has := map[string]bool{} // a signature with at least one finite value
	for i, id := range sig.DrugIDs {
		for _, x := range sig.Vectors[i] {
			if x == x {
				has[id] = true
				break
			}
		}
	}
	out := *sc
	out.Pairs = nil
	var tm, tv []float64
	withSig := map[string]bool{}
	for _, d := range sc.Drugs {
		if has[d.ID] {
			withSig[d.ID] = true
		}
	}
	for i, p := range sc.Pairs {
		if has[sc.Drugs[p.A].ID] && has[sc.Drugs[p.B].ID] {
			out.Pairs = append(out.Pairs, p)
			if sc.Truth != nil {
				tm = append(tm, sc.Truth.Mean[i])
				tv = append(tv, sc.Truth.NoiseVar[i])
			}
		}
	}
	if sc.Truth != nil {
		out.Truth = &drugcomb.Truth{Mean: tm, NoiseVar: tv}
	}
	fmt.Fprintf(env.Stdout, "fp+sig: %d of %d drugs have a signature; %d of %d pairs have one for both drugs and are used, the other %d are left out\n",
		len(withSig), len(sc.Drugs), len(out.Pairs), len(sc.Pairs), len(sc.Pairs)-len(out.Pairs))
	if len(out.Pairs) == 0 {
		return nil, fmt.Errorf("no pair has a signature for both drugs (run deup data signatures first)")
	}
	return &out, nil
}

// reportSkipped says on stderr how many drugs were left out of a feature
// matrix and why (no usable structure; under fp+sig, no signature), with
// the consequence named.
func reportSkipped(env Env, who, consequence string, rep features.Report, n int) {
	noSig := 0
	var first [2]error
	for _, e := range rep.Errors {
		if errors.Is(e, features.ErrNoSignature) {
			noSig++
			if first[1] == nil {
				first[1] = e
			}
		} else if first[0] == nil {
			first[0] = e
		}
	}
	if k := len(rep.Errors) - noSig; k > 0 {
		fmt.Fprintf(env.Stderr, "%s: %d of %d drugs have no usable structure %s, e.g. %v\n", who, k, n, consequence, first[0])
	}
	if noSig > 0 {
		fmt.Fprintf(env.Stderr, "%s: %d of %d drugs have no L1000 signature, which fp+sig features need, %s, e.g. %v\n", who, noSig, n, consequence, first[1])
	}
}

// modelFeatures builds the feature matrix a trained model needs for a
// screen's drugs: the model's own fingerprint settings, plus the signatures
// stored beside the screen when it was trained with fp+sig. Drugs without a
// usable structure are left out (kept lists the rows' drug indices) and
// counted on stderr with the consequence named, never dropped silently.
func modelFeatures(env Env, cmd, consequence string, m model.Method, sc *drugcomb.Screen, screenDir string) (*model.Features, []int, error) {
	fc := m.FeatureConfig()
	var sig *lincs.Signatures
	if fc.Kind == features.FingerprintSignature {
		if screenDir == "" {
			return nil, nil, fmt.Errorf("%w: the model uses fp+sig features: give --screen with stored signatures", ErrUsage)
		}
		var err error
		if sig, err = lincs.LoadSignatures(screenDir); err != nil {
			return nil, nil, err
		}
	}
	cfg, err := features.ConfigOf(fc)
	if err != nil {
		return nil, nil, err
	}
	cfg.RequireSignature = true // the fp+sig rule of every command (see buildFeatures)
	f, kept, rep, err := features.BuildLenient(sc.Drugs, cfg, sig)
	if err != nil {
		return nil, nil, err
	}
	reportSkipped(env, "deup "+cmd, consequence, rep, len(sc.Drugs))
	return f, kept, nil
}
