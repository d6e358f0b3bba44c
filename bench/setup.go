package bench

import (
	"errors"
	"fmt"

	"github.com/deup-screening/deup/drugcomb"
)

// What a benchmark's test set holds out (the --split-by values), and the
// units of its folds (--folds).
const (
	ByPairs        = drugcomb.ByPairs        // pairs at random (Config.Split nil)
	ByCombinations = drugcomb.ByCombinations // unordered drug pairs, each with every cell line it was measured on
	ByDrugs        = drugcomb.ByDrugs        // drugs: every test pair has a drug never trained or validated on
	ByCellLines    = drugcomb.ByCellLines    // whole cell lines of a panel
)

// Seeds returns the n seeds first, first+1, …: the seeds of n runs
// (bench and ood: 1..n by default).
func Seeds(first uint64, n int) []uint64 {
	s := make([]uint64, 0, max(n, 0))
	for i := range n {
		s = append(s, first+uint64(i))
	}
	return s
}

// Splitter returns Config.Split for holding out by (ByPairs,
// ByCombinations, ByDrugs or ByCellLines) with the test and validation
// fractions of fracs, the validation (out-of-sample) part then drawn by
// oos (drugcomb.DrawOOS: ByPairs keeps the split's own draw of rows, ""
// means ByPairs): nil for ByPairs with oos ByPairs (Run's random split of
// pairs), drugcomb.SplitRandom, SplitByCombination, SplitByDrug or
// SplitByCellLine otherwise. A screen that cannot be split by cell lines
// (one line, or too few to hold out) is an error here, before any
// training.
func Splitter(sc *drugcomb.Screen, by string, fracs [3]float64, oos string) (func(uint64) (drugcomb.Split, error), error) {
	if oos == "" {
		oos = ByPairs
	}
	if err := drugcomb.CheckOOS(oos); err != nil {
		return nil, fmt.Errorf("bench: out-of-sample part by %w", err)
	}
	var base func(seed uint64) (drugcomb.Split, error)
	switch by {
	case ByPairs:
		if oos == ByPairs {
			return nil, nil
		}
		base = func(seed uint64) (drugcomb.Split, error) {
			return drugcomb.SplitRandom(len(sc.Pairs), fracs, seed), nil
		}
	case ByCombinations:
		base = func(seed uint64) (drugcomb.Split, error) {
			return drugcomb.SplitByCombination(sc, fracs[2], fracs[1], seed), nil
		}
	case ByDrugs:
		base = func(seed uint64) (drugcomb.Split, error) {
			return drugcomb.SplitByDrug(sc, fracs[2], fracs[1], seed), nil
		}
	case ByCellLines:
		if _, err := drugcomb.SplitByCellLine(sc, fracs[2], fracs[1], 1); err != nil {
			return nil, err
		}
		base = func(seed uint64) (drugcomb.Split, error) {
			return drugcomb.SplitByCellLine(sc, fracs[2], fracs[1], seed)
		}
	default:
		return nil, fmt.Errorf("bench: split by %q: want %s, %s, %s or %s", by, ByPairs, ByCombinations, ByDrugs, ByCellLines)
	}
	if oos == ByPairs {
		return base, nil
	}
	return func(seed uint64) (drugcomb.Split, error) {
		sp, err := base(seed)
		if err != nil {
			return sp, err
		}
		return drugcomb.DrawOOS(sc, sp, oos, seed)
	}, nil
}

// FoldSplitter returns Config.Folds for K-fold cross-validation over the
// units of by (drugcomb.SplitFolds): inside the training folds the
// validation part takes the share fracs[1]/(fracs[0]+fracs[1]) of the
// pairs (3/7 under 40/30/30: train and validation in the benchmark's
// proportions), drawn by oos (drugcomb.DrawOOS; "" means ByPairs). The
// folds of seed 1 are drawn here once, so that a K below 2 or above the
// number of units (a *drugcomb.FoldsError), or folds by cell lines on
// one line, is an error before any training.
func FoldSplitter(sc *drugcomb.Screen, by string, k int, fracs [3]float64, oos string) (func(uint64) ([]drugcomb.Split, error), error) {
	if oos == "" {
		oos = ByPairs
	}
	if err := drugcomb.CheckOOS(oos); err != nil {
		return nil, fmt.Errorf("bench: out-of-sample part by %w", err)
	}
	valFrac := fracs[1] / (fracs[0] + fracs[1])
	folds := func(seed uint64) ([]drugcomb.Split, error) {
		splits, err := drugcomb.SplitFolds(sc, by, k, valFrac, seed)
		if err != nil {
			return nil, err
		}
		for f := range splits {
			if splits[f], err = drugcomb.DrawOOS(sc, splits[f], oos, seed); err != nil {
				return nil, fmt.Errorf("fold %d: %w", f+1, err)
			}
		}
		return splits, nil
	}
	if _, err := folds(1); err != nil {
		return nil, err
	}
	return folds, nil
}

// ErrPerLinePanel is PerLineChoice's error for the per-line reference
// on one line, or on a split by cell lines.
var ErrPerLinePanel = errors.New("per-line needs a panel (several cell lines) with every line in training")

// PerLineChoice returns Config.PerLineReference for the choice ref (deup
// bench --reference) on a screen of lines cell lines held out by by: ""
// (the default) adds the per-line reference row on a panel split by pairs;
// PerLine adds it, and needs a panel with every line in training (not
// ByCellLines); "none" leaves it out.
func PerLineChoice(ref string, lines int, by string) (bool, error) {
	switch ref {
	case "":
		return lines > 1 && by == ByPairs, nil
	case PerLine:
		if lines < 2 || by == ByCellLines {
			return false, ErrPerLinePanel
		}
		return true, nil
	case "none":
		return false, nil
	}
	return false, fmt.Errorf("%q: want per-line or none", ref)
}

// WithLineShots wraps a split by cell lines (base, from Splitter with
// ByCellLines) so that k measured pairs of each held-out line are moved
// into training (drugcomb.NewLineShots, drawn from the seed). With noShots
// the k pairs leave the test set but stay out of training: the K = 0 run
// scored on the same test pairs as the run with k shots.
func WithLineShots(sc *drugcomb.Screen, base func(uint64) (drugcomb.Split, error), k int, noShots bool) func(uint64) (drugcomb.Split, error) {
	return func(seed uint64) (drugcomb.Split, error) {
		sp, err := base(seed)
		return drugcomb.NewLineShots(sc, sp, k, seed, noShots), err
	}
}

// WithFoldShots is WithLineShots under K-fold cross-validation: it wraps
// the folds of a split by cell lines (base, from FoldSplitter with
// ByCellLines) so that in each fold k measured pairs of each of the
// fold's held-out lines are moved into training (with noShots: left out
// of the test set and of training, the K = 0 twin), drawn from the seed
// that drew the folds (drugcomb.NewLineShots; the folds hold out
// disjoint lines, so no pair is drawn in two folds).
func WithFoldShots(sc *drugcomb.Screen, base func(uint64) ([]drugcomb.Split, error), k int, noShots bool) func(uint64) ([]drugcomb.Split, error) {
	return func(seed uint64) ([]drugcomb.Split, error) {
		splits, err := base(seed)
		if err != nil {
			return nil, err
		}
		out := make([]drugcomb.Split, len(splits))
		for f, sp := range splits {
			out[f] = drugcomb.NewLineShots(sc, sp, k, seed, noShots)
		}
		return out, nil
	}
}

// Trainings returns the number of trainings Run does for c on a dataset
// with lines cell lines: one per seed and method, and one per seed and
// line for the per-line reference; under K-fold cross-validation
// (Config.Folds, with K in Config.Protocol.Folds) that many per fold. It
// is the total of Event.Done.
func (c Config) Trainings(lines int) int {
	c = c.withDefaults()
	n := len(c.Seeds) * len(c.Methods)
	if c.PerLineReference {
		n += len(c.Seeds) * lines
	}
	if c.Folds != nil && c.Protocol.Folds > 0 {
		n *= c.Protocol.Folds
	}
	return n
}

// FlooredTotal returns the test predictions of every seed whose sigma was
// raised to the floor (SigmaFloor × sd(y)).
func (r *Row) FlooredTotal() int {
	n := 0
	for _, f := range r.Floored {
		n += f
	}
	return n
}
