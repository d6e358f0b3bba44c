package bench

import (
	"errors"
	"fmt"

	"github.com/deup-screening/deup/drugcomb"
)

// What a benchmark's test set holds out (the --split-by values).
const (
	ByPairs     = "pairs"      // pairs at random (Config.Split nil)
	ByDrugs     = "drugs"      // drugs: every test pair has a drug never trained or validated on
	ByCellLines = "cell-lines" // whole cell lines of a panel
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

// Splitter returns Config.Split for holding out by (ByPairs, ByDrugs or
// ByCellLines) with the test and validation fractions of fracs: nil for
// ByPairs (Run's random split of pairs), drugcomb.SplitByDrug for ByDrugs
// and drugcomb.SplitByCellLine for ByCellLines. A screen that cannot be
// split by cell lines (one line, or too few to hold out) is an error here,
// before any training.
func Splitter(sc *drugcomb.Screen, by string, fracs [3]float64) (func(uint64) (drugcomb.Split, error), error) {
	switch by {
	case ByPairs:
		return nil, nil
	case ByDrugs:
		return func(seed uint64) (drugcomb.Split, error) {
			return drugcomb.SplitByDrug(sc, fracs[2], fracs[1], seed), nil
		}, nil
	case ByCellLines:
		if _, err := drugcomb.SplitByCellLine(sc, fracs[2], fracs[1], 1); err != nil {
			return nil, err
		}
		return func(seed uint64) (drugcomb.Split, error) {
			return drugcomb.SplitByCellLine(sc, fracs[2], fracs[1], seed)
		}, nil
	}
	return nil, fmt.Errorf("bench: split by %q: want %s, %s or %s", by, ByPairs, ByDrugs, ByCellLines)
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

// Trainings returns the number of trainings Run does for c on a dataset
// with lines cell lines: one per seed and method, and one per seed and
// line for the per-line reference. It is the total of Event.Done.
func (c Config) Trainings(lines int) int {
	c = c.withDefaults()
	n := len(c.Seeds) * len(c.Methods)
	if c.PerLineReference {
		n += len(c.Seeds) * lines
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
