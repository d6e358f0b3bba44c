package model

import (
	"fmt"
	"math"

	"github.com/deup-screening/deup/drugcomb"
)

// PairRef references two rows of a Features matrix (order does not matter:
// the network is exactly symmetric) and, for a network trained on several
// cell lines, the cell line (an index into Dataset.LineNames; 0 for a
// one-line network).
type PairRef struct{ A, B, Line int }

// Dataset is what a Method trains on: a drug feature matrix and the pairs
// with their targets. Pairs[i] has target Y[i] (mean over N[i] replicate
// measurements) and replicate variance Var[i] (n−1 denominator; NaN when
// N[i] < 2).
type Dataset struct {
	Features *Features
	Pairs    []PairRef
	Y        []float64
	N        []int
	Var      []float64
	// LineNames names the cell lines that Pair.Line indexes. With more
	// than one, the networks learn an embedding per line (net.go); with
	// one or none, every Pair.Line is 0 and nothing changes.
	LineNames []string
	// LineFeatures holds numeric features of each line (Lines()×k,
	// standardized: drugcomb.CellFeatures.Standardized), for a dataset
	// with several lines; nil for none. The networks add a linear map of
	// them to the line's embedding (Config.lineX), so a line without
	// training pairs is not a blank.
	LineFeatures [][]float64
}

// Lines is the number of cell lines of the dataset (at least 1).
func (d *Dataset) Lines() int { return max(len(d.LineNames), 1) }

// PairsAt returns the pairs d.Pairs[i] for i in idx (a split's part), in
// idx's order.
func (d *Dataset) PairsAt(idx []int) []PairRef {
	out := make([]PairRef, len(idx))
	for k, i := range idx {
		out[k] = d.Pairs[i]
	}
	return out
}

// NewDataset takes score column `score` of a screen whose drugs are the
// rows of f (f.NumDrugs() == len(s.Drugs)). A pair without a finite score
// is an error naming it: nothing is dropped silently.
func NewDataset(s *drugcomb.Screen, f *Features, score int) (*Dataset, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if f.NumDrugs() != len(s.Drugs) {
		return nil, fmt.Errorf("model: dataset: %d feature rows for %d drugs", f.NumDrugs(), len(s.Drugs))
	}
	if score < 0 || (len(s.ScoreNames) > 0 && score >= len(s.ScoreNames)) {
		return nil, fmt.Errorf("model: dataset: score column %d of %d", score, len(s.ScoreNames))
	}
	d := &Dataset{Features: f}
	if len(s.CellLines) > 1 {
		d.LineNames = s.CellLines
	}
	for i, p := range s.Pairs {
		if score >= len(p.Mean) {
			return nil, fmt.Errorf("model: dataset: pair %d has %d score columns", i, len(p.Mean))
		}
		y := p.Mean[score]
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("model: dataset: pair %d (%s, %s): score %v", i, s.Drugs[p.A].ID, s.Drugs[p.B].ID, y)
		}
		v := math.NaN()
		if score < len(p.Var) && p.N >= 2 {
			v = p.Var[score]
		}
		n := max(p.N, 1)
		line := 0
		if len(d.LineNames) > 1 {
			line = p.CellLine
		}
		d.Pairs = append(d.Pairs, PairRef{A: p.A, B: p.B, Line: line})
		d.Y = append(d.Y, y)
		d.N = append(d.N, n)
		d.Var = append(d.Var, v)
	}
	return d, d.Validate()
}

// Validate checks lengths, indices and finiteness.
func (d *Dataset) Validate() error {
	if d == nil || d.Features == nil {
		return fmt.Errorf("model: dataset: no features")
	}
	n := len(d.Pairs)
	if len(d.Y) != n || (d.N != nil && len(d.N) != n) || (d.Var != nil && len(d.Var) != n) {
		return fmt.Errorf("model: dataset: %d pairs but %d targets, %d counts, %d variances", n, len(d.Y), len(d.N), len(d.Var))
	}
	nd := d.Features.NumDrugs()
	for i, p := range d.Pairs {
		if p.A < 0 || p.A >= nd || p.B < 0 || p.B >= nd {
			return fmt.Errorf("model: dataset: pair %d references drug (%d, %d) of %d", i, p.A, p.B, nd)
		}
		if p.Line < 0 || p.Line >= d.Lines() {
			return fmt.Errorf("model: dataset: pair %d references cell line %d of %d", i, p.Line, d.Lines())
		}
		if math.IsNaN(d.Y[i]) || math.IsInf(d.Y[i], 0) {
			return fmt.Errorf("model: dataset: pair %d: target %v", i, d.Y[i])
		}
	}
	return nil
}

// CheckSplit checks that split s indexes d's pairs: a non-empty training
// part, a validation part when needVal, and no index out of range or in two
// parts.
func CheckSplit(d *Dataset, s drugcomb.Split, needVal bool) error {
	if len(s.Train) == 0 {
		return fmt.Errorf("model: split: empty training set")
	}
	if needVal && len(s.Val) == 0 {
		return fmt.Errorf("model: split: empty validation set (DEUP trains σ_out on it)")
	}
	seen := make(map[int]string, len(s.Train)+len(s.Val)+len(s.Test))
	for _, part := range []struct {
		name string
		idx  []int
	}{{"train", s.Train}, {"val", s.Val}, {"test", s.Test}} {
		for _, i := range part.idx {
			if i < 0 || i >= len(d.Pairs) {
				return fmt.Errorf("model: split: %s index %d out of range [0,%d)", part.name, i, len(d.Pairs))
			}
			if prev, ok := seen[i]; ok {
				return fmt.Errorf("model: split: pair %d in both %s and %s", i, prev, part.name)
			}
			seen[i] = part.name
		}
	}
	return nil
}

// batch is one minibatch mapped to unique drugs.
type batch struct {
	drugs  []int // unique feature rows
	pa, pb []int // positions in drugs
	line   []int // cell line of each pair
	y, w   []float64
}

func (d *Dataset) makeBatch(idx []int, mean, sd float64, b *batch) {
	b.drugs, b.pa, b.pb, b.line, b.y, b.w = b.drugs[:0], b.pa[:0], b.pb[:0], b.line[:0], b.y[:0], b.w[:0]
	pos := map[int]int{}
	at := func(r int) int {
		if p, ok := pos[r]; ok {
			return p
		}
		pos[r] = len(b.drugs)
		b.drugs = append(b.drugs, r)
		return pos[r]
	}
	for _, i := range idx {
		p := d.Pairs[i]
		b.pa = append(b.pa, at(p.A))
		b.pb = append(b.pb, at(p.B))
		b.line = append(b.line, p.Line)
		b.y = append(b.y, (d.Y[i]-mean)/sd)
		b.w = append(b.w, 1/float64(len(idx)))
	}
}
