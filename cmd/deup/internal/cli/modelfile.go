package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/trained"
)

// The one model loader of the command tree: predict, suggest, tui and
// campaign read every method's file (deup, ensemble, ensemble-nll,
// mcdropout, due) through openModel, and find the drugs and screen to score
// through modelScreen and modelFeatures.

// openModel reads the model file at path.
func openModel(path string) (*trained.Model, error) {
	if fi, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("model file %s does not exist: train one with deup train --out %s", path, path)
	} else if err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a model file: give the file deup train --out wrote", path)
	}
	return trained.ReadFile(path)
}

// openScreen opens the screen directory dir, saying what to do when it is
// not one.
func openScreen(dir string) (*drugcomb.Screen, error) {
	if _, err := os.Stat(filepath.Join(dir, drugcomb.MetaFile)); errors.Is(err, fs.ErrNotExist) {
		if _, derr := os.Stat(dir); errors.Is(derr, fs.ErrNotExist) {
			return nil, fmt.Errorf("screen directory %s does not exist: create it with deup data import --out %s (or leave out --screen for the synthetic default)", dir, dir)
		}
		return nil, fmt.Errorf("%s is not a screen directory (no %s): screen directories are written by deup data import --out DIR", dir, drugcomb.MetaFile)
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s is a file, not a screen directory: give the directory deup data import --out wrote (the one holding %s)", dir, drugcomb.MetaFile)
	}
	sc, err := drugcomb.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("%w (the screen in %s cannot be read: import it again with deup data import --out %s)", err, dir, dir)
	}
	return sc, nil
}

// errNoMeta explains what to do with a model file from before models
// recorded their drugs.
func errNoMeta(path, what string) error {
	return fmt.Errorf("%w: %s was written by an older deup and does not record the drugs and screen it was trained on: give %s, or retrain it with deup train", cmdline.ErrUsage, path, what)
}

// modelScreen returns the screen a command scores with model tm: the screen
// in screenDir when given (an explicit choice), otherwise the screen the
// model was trained on (its directory, or the synthetic default). It also
// returns the directory actually used ("" for the synthetic default).
// A model's own screen whose pairs changed since training is used with a
// note on stderr.
func modelScreen(env Env, cmd, path string, tm *trained.Model, screenDir string) (*drugcomb.Screen, string, error) {
	if screenDir != "" {
		sc, err := openScreen(screenDir)
		return sc, screenDir, err
	}
	if tm.Meta == nil {
		return nil, "", errNoMeta(path, "--screen DIR")
	}
	id := tm.Meta.Screen
	var sc *drugcomb.Screen
	var err error
	if id.Synthetic() {
		sc, err = data.Synth(data.DefaultSynth(id.SynthSeed))
	} else {
		if _, serr := os.Stat(id.Dir); serr != nil {
			return nil, "", fmt.Errorf("%w: %s was trained on the screen in %s, which is not there (%v): give --screen DIR (that screen, imported again with deup data import)", cmdline.ErrUsage, path, id.Dir, serr)
		}
		sc, err = openScreen(id.Dir)
	}
	if err != nil {
		return nil, "", err
	}
	if tm.Meta.PairsChanged(sc) {
		fmt.Fprintf(env.Stderr, "deup %s: note: the pairs of %s (%s, %s) changed since %s was trained on them; scoring with the model as trained\n", cmd, id, id.CellLine, id.Score, path)
	}
	return sc, id.Dir, nil
}

// modelSignatures returns the L1000 signatures an fp+sig model needs for
// drugs: those stored in screenDir when given, otherwise the ones the model
// file carries (matched by drug ID). nil for an fp model.
func modelSignatures(tm *trained.Model, screenDir string) (*lincs.Signatures, error) {
	if tm.Method.FeatureConfig().Kind != features.FingerprintSignature {
		return nil, nil
	}
	if screenDir != "" {
		sig, err := lincs.LoadSignatures(screenDir)
		if err != nil {
			return nil, fmt.Errorf("the model uses fp+sig features: %w (run deup data signatures --screen %s)", err, screenDir)
		}
		return sig, nil
	}
	if tm.Meta == nil || tm.Meta.Signatures == nil {
		return nil, fmt.Errorf("%w: the model uses fp+sig features and its file holds no signatures: give --screen DIR with signatures stored by deup data signatures", cmdline.ErrUsage)
	}
	// Drugs without a signature are left out by modelFeatures, which says
	// how many (the fp+sig rule of every command, docs/vocabulary.md).
	return tm.Meta.LincsSignatures(), nil
}

// modelFeatures builds the feature matrix a trained model needs for drugs
// (features.ForModel, with modelSignatures for fp+sig models). Drugs left
// out (kept lists the rows' drug indices) are counted on stderr with the
// consequence named, never dropped silently.
func modelFeatures(env Env, cmd, consequence string, tm *trained.Model, drugs []drugcomb.Drug, screenDir string) (*model.Features, []int, error) {
	sig, err := modelSignatures(tm, screenDir)
	if err != nil {
		return nil, nil, err
	}
	f, kept, rep, err := features.ForModel(tm.Method.FeatureConfig(), drugs, sig)
	if err != nil {
		return nil, nil, err
	}
	if err := rep.WriteLeftOut(env.Stderr, "deup "+cmd, consequence, len(drugs)); err != nil {
		return nil, nil, err
	}
	if len(kept) < 2 {
		return nil, nil, fmt.Errorf("deup %s: %d of %d drugs have usable features: no pair to score (check the SMILES column of the drugs, and the signatures for an fp+sig model)", cmd, len(kept), len(drugs))
	}
	return f, kept, nil
}
