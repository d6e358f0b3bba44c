package trained

import (
	"errors"
	"fmt"
	"os"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
)

// What a model scores: the screen (OpenScreen), the signatures of an
// fp+sig model (Signatures) and the features of drugs (Features), for every
// command that takes a model (deup predict, suggest, tui, campaign).

// ErrNoMeta is the error of a model file from before models recorded their
// drugs and screen (Meta nil), asked for what only they say.
var ErrNoMeta = errors.New("the model file does not record the drugs and screen it was trained on")

// ErrNoSignatures is Signatures' error for an fp+sig model whose file holds
// no signatures, when no screen directory with signatures is given.
var ErrNoSignatures = errors.New("the model uses fp+sig features and its file holds no signatures")

// ErrNoPair is in Features' error when fewer than two drugs have usable
// features.
var ErrNoPair = errors.New("no pair to score")

// ScreenGoneError is OpenScreen's error when the directory of the screen a
// model was trained on is not there.
type ScreenGoneError struct {
	Dir string // the directory the model records (Screen.Dir)
	Err error  // os.Stat's error
}

func (e *ScreenGoneError) Error() string {
	return fmt.Sprintf("the model was trained on the screen in %s, which is not there (%v)", e.Dir, e.Err)
}

func (e *ScreenGoneError) Unwrap() error { return e.Err }

// OpenScreen returns the screen model m scores: the screen in dir when dir
// is not "" (an explicit choice, drugcomb.OpenDir), otherwise the screen m
// was trained on (its directory, or the synthetic default it records). used
// is the directory of the screen ("" for the synthetic default). changed
// reports that m's own screen has other pairs on its cell line and score
// than m was trained on (Meta.PairsChanged); the screen is returned all the
// same, for scoring with the model as trained. Errors: ErrNoMeta when m
// does not record its screen and dir is "", a *ScreenGoneError when its
// directory is gone.
func (m *Bundle) OpenScreen(dir string) (sc *drugcomb.Screen, used string, changed bool, err error) {
	if dir != "" {
		sc, err := drugcomb.OpenDir(dir)
		return sc, dir, false, err
	}
	if m.Meta == nil {
		return nil, "", false, ErrNoMeta
	}
	id := m.Meta.Screen
	if id.Synthetic() {
		sc, err = data.Synth(data.DefaultSynth(id.SynthSeed))
	} else {
		if _, serr := os.Stat(id.Dir); serr != nil {
			return nil, "", false, &ScreenGoneError{Dir: id.Dir, Err: serr}
		}
		sc, err = drugcomb.OpenDir(id.Dir)
	}
	if err != nil {
		return nil, "", false, err
	}
	return sc, id.Dir, m.Meta.PairsChanged(sc), nil
}

// Signatures returns the L1000 signatures an fp+sig model needs for its
// features: those stored in the screen directory dir when it is not "",
// otherwise the ones the model file carries (matched by drug ID; drugs
// without one are left out by Features, the fp+sig rule of every command,
// docs/vocabulary.md). nil for an fp model. Errors: *SignaturesError
// when dir's cannot be read, ErrNoSignatures when the file carries none
// and dir is "".
func (m *Bundle) Signatures(dir string) (*lincs.Signatures, error) {
	if m.Method.FeatureConfig().Kind != features.FingerprintSignature {
		return nil, nil
	}
	if dir != "" {
		sig, err := lincs.LoadSignatures(dir)
		if err != nil {
			return nil, &SignaturesError{Dir: dir, Err: err}
		}
		return sig, nil
	}
	if m.Meta == nil || m.Meta.Signatures == nil {
		return nil, ErrNoSignatures
	}
	return m.Meta.LincsSignatures(), nil
}

// SignaturesError says that the signatures an fp+sig model needs could
// not be read from the screen directory Dir.
type SignaturesError struct {
	Dir string
	Err error
}

func (e *SignaturesError) Error() string {
	return "the model uses fp+sig features: " + e.Err.Error()
}

func (e *SignaturesError) Unwrap() error { return e.Err }

// Features builds the feature matrix model m needs for drugs
// (features.ForModel, with Signatures(dir) for an fp+sig model): row i is
// drug kept[i]; rep says which drugs were left out and why. When fewer
// than two drugs are kept, it returns them and rep with an error wrapping
// ErrNoPair.
func (m *Bundle) Features(drugs []drugcomb.Drug, dir string) (f *model.Features, kept []int, rep features.Report, err error) {
	sig, err := m.Signatures(dir)
	if err != nil {
		return nil, nil, rep, err
	}
	f, kept, rep, err = features.ForModel(m.Method.FeatureConfig(), drugs, sig)
	if err != nil {
		return nil, nil, rep, err
	}
	if len(kept) < 2 {
		return f, kept, rep, fmt.Errorf("%d of %d drugs have usable features: %w (check the SMILES column of the drugs, and the signatures for an fp+sig model)", len(kept), len(drugs), ErrNoPair)
	}
	return f, kept, rep, nil
}
