package drugcomb

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// A Builder accumulates replicate measurements into a Screen. Drugs are
// registered by ID (first registration wins; later ones only fill fields
// that were empty); measurements of (a,b) and (b,a) on the same cell line
// are replicates of one pair. The zero value is not usable: call NewBuilder.
type Builder struct {
	scoreNames []string
	drugs      []Drug
	drugIdx    map[string]int
	cells      []string
	cellIdx    map[string]int
	pairs      map[pairKey]*accum
}

type pairKey struct{ a, b, cell int }

// accum holds Welford's running mean and sum of squared deviations per
// score column.
type accum struct {
	n     int
	count []int
	mean  []float64
	m2    []float64
}

// NewBuilder returns a builder for a screen with the given score columns.
func NewBuilder(scoreNames ...string) *Builder {
	return &Builder{
		scoreNames: append([]string(nil), scoreNames...),
		drugIdx:    map[string]int{},
		cellIdx:    map[string]int{},
		pairs:      map[pairKey]*accum{},
	}
}

// Drug registers d (by d.ID) and returns its index. If the ID is known, the
// existing entry is kept and only its empty fields are filled from d.
func (b *Builder) Drug(d Drug) int {
	if i, ok := b.drugIdx[d.ID]; ok {
		e := &b.drugs[i]
		if e.Name == "" {
			e.Name = d.Name
		}
		if e.PubChemCID == 0 {
			e.PubChemCID = d.PubChemCID
		}
		if e.SMILES == "" {
			e.SMILES = d.SMILES
		}
		return i
	}
	if d.Name == "" {
		d.Name = d.ID
	}
	b.drugIdx[d.ID] = len(b.drugs)
	b.drugs = append(b.drugs, d)
	return len(b.drugs) - 1
}

// DrugByID returns the registered drug with the given ID.
func (b *Builder) DrugByID(id string) (Drug, bool) {
	i, ok := b.drugIdx[id]
	if !ok {
		return Drug{}, false
	}
	return b.drugs[i], true
}

// CellLine registers a cell line by name and returns its index.
func (b *Builder) CellLine(name string) int {
	if i, ok := b.cellIdx[name]; ok {
		return i
	}
	b.cellIdx[name] = len(b.cells)
	b.cells = append(b.cells, name)
	return len(b.cells) - 1
}

// ErrSelfPair is returned by Measure for a drug paired with itself.
var ErrSelfPair = errors.New("drugcomb: a drug paired with itself")

// Measure adds one replicate measurement of drugs a and b (indices returned
// by Drug, in either order) on cell line cell (an index returned by
// CellLine). scores has one value per score column; NaN marks a score this
// replicate lacks, and at least one must be present.
func (b *Builder) Measure(a, bb, cell int, scores []float64) error {
	switch {
	case a == bb:
		return ErrSelfPair
	case a < 0 || a >= len(b.drugs) || bb < 0 || bb >= len(b.drugs):
		return fmt.Errorf("drugcomb: drug index out of range (%d, %d; %d drugs)", a, bb, len(b.drugs))
	case cell < 0 || cell >= len(b.cells):
		return fmt.Errorf("drugcomb: cell line index %d out of range", cell)
	case len(scores) != len(b.scoreNames):
		return fmt.Errorf("drugcomb: %d scores, want %d", len(scores), len(b.scoreNames))
	}
	any := false
	for _, v := range scores {
		if math.IsInf(v, 0) {
			return fmt.Errorf("drugcomb: infinite score")
		}
		if !math.IsNaN(v) {
			any = true
		}
	}
	if !any {
		return errors.New("drugcomb: a measurement without any score")
	}
	if a > bb {
		a, bb = bb, a
	}
	k := pairKey{a, bb, cell}
	acc := b.pairs[k]
	if acc == nil {
		m := len(b.scoreNames)
		acc = &accum{count: make([]int, m), mean: make([]float64, m), m2: make([]float64, m)}
		b.pairs[k] = acc
	}
	acc.n++
	for j, v := range scores {
		if math.IsNaN(v) {
			continue
		}
		acc.count[j]++
		d := v - acc.mean[j]
		acc.mean[j] += d / float64(acc.count[j])
		acc.m2[j] += d * (v - acc.mean[j])
	}
	return nil
}

// Screen returns the aggregated screen. Pairs are sorted by cell line, then
// A, then B. Drugs and cell lines keep their registration order. The
// builder may be used further; the returned screen shares nothing with it.
func (b *Builder) Screen(name string) *Screen {
	s := &Screen{
		Name:       name,
		ScoreNames: append([]string(nil), b.scoreNames...),
		CellLines:  append([]string(nil), b.cells...),
		Drugs:      append([]Drug(nil), b.drugs...),
		Pairs:      make([]Pair, 0, len(b.pairs)),
	}
	keys := make([]pairKey, 0, len(b.pairs))
	for k := range b.pairs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		x, y := keys[i], keys[j]
		if x.cell != y.cell {
			return x.cell < y.cell
		}
		if x.a != y.a {
			return x.a < y.a
		}
		return x.b < y.b
	})
	for _, k := range keys {
		acc := b.pairs[k]
		m := len(b.scoreNames)
		p := Pair{A: k.a, B: k.b, CellLine: k.cell, N: acc.n, Mean: make([]float64, m), Var: make([]float64, m)}
		partial := false
		for j := 0; j < m; j++ {
			c := acc.count[j]
			if c != acc.n {
				partial = true
			}
			p.Mean[j] = math.NaN()
			p.Var[j] = math.NaN()
			if c >= 1 {
				p.Mean[j] = acc.mean[j]
			}
			if c >= 2 {
				p.Var[j] = acc.m2[j] / float64(c-1)
			}
		}
		if partial {
			p.Count = append([]int(nil), acc.count...)
		}
		s.Pairs = append(s.Pairs, p)
	}
	return s
}
