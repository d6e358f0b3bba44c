package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/trained"
)

// The one model loader of the command tree: predict, suggest, tui and
// campaign read every method's file (deup, ensemble, ensemble-nll,
// mcdropout, due, and any other method registered) through readModel, and find the drugs and screen to score
// through modelScreen and modelFeatures (package trained's Model.OpenScreen
// and Model.Features, with their notes printed and their errors saying
// which flags to give).

// readModel reads the model file path with the command tree's registry
// (trained.ReadFile); its errors say how to get a model file.
func readModel(reg *methods.Registry, path string) (*trained.Bundle, error) {
	tm, err := trained.ReadFile(path, reg.Load)
	if err != nil {
		return nil, modelFileHint(err)
	}
	return tm, nil
}

// modelFileHint adds to a trained.FileError what to do; other errors are
// returned as they are.
func modelFileHint(err error) error {
	var fe *trained.FileError
	switch {
	case !errors.As(err, &fe):
		return err
	case fe.Open && errors.Is(fe.Err, fs.ErrNotExist):
		return fmt.Errorf("%v: train one with deup train --out %s", err, fe.Path)
	case fe.Open:
		return fmt.Errorf("%w (train one with: deup train --out %s)", err, fe.Path)
	case errors.Is(fe.Err, trained.ErrIsDir):
		return fmt.Errorf("%w: give the file deup train --out wrote", err)
	}
	return fmt.Errorf("%w (is it a file written by deup train --out? retrain it if it is from an incompatible version)", err)
}

// errNoMeta explains what to do with a model file from before models
// recorded their drugs.
func errNoMeta(path, what string) error {
	return fmt.Errorf("%w: %s was written by an older deup and does not record the drugs and screen it was trained on: give %s, or retrain it with deup train", cmdline.ErrUsage, path, what)
}

// modelError turns package trained's errors about the screen the model at
// path does not know into usage errors that say which flags to give (what:
// the flags that give the drugs); other errors are returned as they are.
func modelError(path, what string, err error) error {
	var gone *trained.ScreenGoneError
	switch {
	case errors.Is(err, trained.ErrNoMeta):
		return errNoMeta(path, what)
	case errors.As(err, &gone):
		return fmt.Errorf("%w: %s was trained on the screen in %s, which is not there (%v): give --screen DIR (that screen, imported again with deup data import)", cmdline.ErrUsage, path, gone.Dir, gone.Err)
	}
	return err
}

// modelScreen returns the screen a command scores with model tm and the
// directory used ("" for the synthetic default): Model.OpenScreen, with a
// note on stderr when the model's own screen has changed pairs.
func modelScreen(env Env, cmd, path string, tm *trained.Bundle, screenDir string) (*drugcomb.Screen, string, error) {
	sc, dir, changed, err := tm.OpenScreen(screenDir)
	if err != nil {
		return nil, "", modelError(path, "--screen DIR", err)
	}
	if changed {
		pairsChangedNote(env, cmd, path, tm)
	}
	return sc, dir, nil
}

// pairsChangedNote says on stderr that the pairs of the screen model tm
// (read from path) was trained on changed since.
func pairsChangedNote(env Env, cmd, path string, tm *trained.Bundle) {
	id := tm.Meta.Screen
	fmt.Fprintf(env.Stderr, "deup %s: note: the pairs of %s (%s, %s) changed since %s was trained on them; scoring with the model as trained\n", cmd, id, id.CellLine, id.Score, path)
}

// modelFeatures builds the feature matrix a trained model needs for drugs
// (Model.Features, with the signatures in screenDir or the model's own).
// Drugs left out (kept lists the rows' drug indices) are counted on stderr
// with the consequence named, never dropped silently.
func modelFeatures(env Env, cmd, consequence string, tm *trained.Bundle, drugs []drugcomb.Drug, screenDir string) (*model.Features, []int, error) {
	f, kept, rep, err := tm.Features(drugs, screenDir)
	var se *trained.SignaturesError
	switch {
	case errors.As(err, &se):
		return nil, nil, fmt.Errorf("%w (run deup data signatures --screen %s)", err, se.Dir)
	case errors.Is(err, trained.ErrNoSignatures):
		return nil, nil, fmt.Errorf("%w: %w: give --screen DIR with signatures stored by deup data signatures", cmdline.ErrUsage, err)
	case err != nil && !errors.Is(err, trained.ErrNoPair):
		return nil, nil, err
	}
	if werr := rep.WriteLeftOut(env.Stderr, "deup "+cmd, consequence, len(drugs)); werr != nil {
		return nil, nil, werr
	}
	if err != nil {
		return nil, nil, fmt.Errorf("deup %s: %w", cmd, err)
	}
	return f, kept, nil
}
