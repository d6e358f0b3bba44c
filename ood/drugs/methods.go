package drugs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/model"
)

// DefaultMethods are deup ood's methods unless --methods names others.
const DefaultMethods = "deup-dv,deup-d,deup-v,deup-xdv,deup-dvb,deup-twohead,ensemble,mcdropout,due"

// Defaults are deup ood's settings before its flags: 20 % of the drugs
// held out (whole clusters), 30 % of the other pairs tested, 5 folds,
// networks stopped after 10 epochs without progress (not bench's 25, to
// keep 3 seeds on PC-3 within 5 minutes on 2 cores), 3 ensemble members,
// 30 MC-Dropout passes at rate 0.1, the Butina cutoff 0.6, the Tanimoto
// kernel bandwidth 0.1, 8 PCA dimensions of x, 2 trainings at a time and
// DefaultMethods. Seeds are the caller's.
func Defaults() Settings {
	s := Settings{
		HoldOut: 0.2, InTest: 0.3, Folds: 5,
		Model:   model.Config{Patience: 10},
		Members: 3, Passes: 30, Dropout: 0.1,
		Cutoff: 0.6, Bandwidth: 0.1, PCADims: 8, Workers: 2,
		Methods: strings.Split(DefaultMethods, ","),
	}
	s.DUE.Patience = 10
	return s
}

// ErrMethods is the error of CheckMethods (errors.Is).
var ErrMethods = errors.New("drugs: bad method list")

// CheckMethods checks a method list of deup ood: each of TwoHead, Ensemble,
// MCDropout, DUE, Density or deup-<a subset of x, d, v, b>, none twice, at
// least one.
func CheckMethods(methods []string) error {
	seen := map[string]bool{}
	for _, m := range methods {
		switch {
		case m == TwoHead, m == Ensemble, m == MCDropout, m == DUE, m == Density:
		case strings.HasPrefix(m, "deup-"):
			if _, err := deup.ParseFeatures(strings.TrimPrefix(m, "deup-")); err != nil {
				return fmt.Errorf("%w: %s: %v (deup-<features>: a subset of x, d, v, b, or deup-twohead)", ErrMethods, m, err)
			}
		default:
			return fmt.Errorf("%w: unknown method %q (deup-<subset of xdvb>, deup-twohead, ensemble, mcdropout, due, density)", ErrMethods, m)
		}
		if seen[m] {
			return fmt.Errorf("%w: %s listed twice", ErrMethods, m)
		}
		seen[m] = true
	}
	if len(methods) == 0 {
		return fmt.Errorf("%w: no method", ErrMethods)
	}
	return nil
}

// Ticks is the number of trainings of one seed that report progress: the
// folds and the final fit shared by the deup-<set>, mcdropout and density
// rows, each ensemble member, DUE and the two-head network.
func (s Settings) Ticks() int {
	_, sets, _ := Sets(s.Methods)
	n := 0
	if len(sets) > 0 || slices.Contains(s.Methods, MCDropout) || slices.Contains(s.Methods, Density) {
		n += s.Folds + 1
	}
	if slices.Contains(s.Methods, Ensemble) {
		n += s.Members
	}
	for _, m := range []string{DUE, TwoHead} {
		if slices.Contains(s.Methods, m) {
			n++
		}
	}
	return n
}
