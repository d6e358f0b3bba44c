package drugs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/deup-screening/deup/deup"
)

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
