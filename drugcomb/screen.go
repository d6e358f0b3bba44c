package drugcomb

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Drug is one row of a screen's drugs table.
type Drug struct {
	ID         string // unique within the screen (for ALMANAC: the PubChem CID as text)
	Name       string // display name; may equal ID
	PubChemCID int64  // 0 when unknown
	SMILES     string // "" when unknown
}

// Label names the drug for a person: "NAME (ID)", or the ID alone when it
// has no other name.
func (d Drug) Label() string {
	if d.Name == "" || d.Name == d.ID {
		return d.ID
	}
	return d.Name + " (" + d.ID + ")"
}

// OwnName is the drug's name as output files write it (the name columns of
// deup predict, deup suggest and deup scores summary): its Name, or "" when
// it has no name of its own, that is when its name is only its PubChem CID
// written as text (a catalogue without a name column, such as DrugComb's
// drugs.csv, names each drug by its CID). The CID is then in its own
// column; a file does not repeat it as a name.
func (d Drug) OwnName() string {
	if d.PubChemCID > 0 && d.Name == strconv.FormatInt(d.PubChemCID, 10) {
		return ""
	}
	return d.Name
}

// Pair is one unordered (drug, drug, cell line) combination with its
// replicate measurements aggregated. A < B always: (a,b) and (b,a) are the
// same pair.
type Pair struct {
	A, B     int       // indices into Screen.Drugs, A < B
	CellLine int       // index into Screen.CellLines
	N        int       // number of replicate measurements aggregated (>= 1)
	Mean     []float64 // per score column (Screen.ScoreNames): mean over replicates; NaN where no replicate had that score
	Var      []float64 // per score column: sample variance (n-1 denominator); NaN where fewer than 2 replicates
	// Count is, per score column, the number of replicates that had a value
	// for that score (the n of its Mean and Var). Nil means N for every
	// column, the usual case; it is set only when some replicate lacked
	// some score.
	Count []int
}

// Truth is the hidden ground truth of a synthetic screen, aligned with
// Screen.Pairs. Real screens have none.
type Truth struct {
	Mean     []float64 // true expected score of each pair (first score column)
	NoiseVar []float64 // true variance of one replicate measurement of each pair
}

// Screen is the canonical in-memory form of a screen.
type Screen struct {
	Name       string
	ScoreNames []string // names of the score columns, e.g. ["combo_score"]
	CellLines  []string
	Drugs      []Drug
	Pairs      []Pair
	Truth      *Truth // nil for real screens
}

// Split partitions pair indices (into Screen.Pairs) into train, validation
// and test sets. The three are disjoint and, for a random split, cover every
// pair.
type Split struct {
	Train, Val, Test []int
	// HeldOutDrugs lists, for a split by drug, the drugs (indices into
	// Screen.Drugs) whose pairs form the test set; nil for a random split.
	HeldOutDrugs []int
}

// Measurements is the number of replicate measurements aggregated into the
// screen's pairs: the sum of Pair.N.
func (s *Screen) Measurements() int {
	n := 0
	for i := range s.Pairs {
		n += s.Pairs[i].N
	}
	return n
}

// KeepPairs returns a shallow copy of s holding only the pairs for which
// keep returns true, in order, with the truth (for a synthetic screen) kept
// aligned. Drugs, cell lines and scores are shared with s; keep may edit the
// copy of the pair it is given (for example to renumber its cell line).
func (s *Screen) KeepPairs(keep func(i int, p *Pair) bool) *Screen {
	out := *s
	out.Pairs = nil
	var tm, tv []float64
	for i, p := range s.Pairs {
		if !keep(i, &p) {
			continue
		}
		out.Pairs = append(out.Pairs, p)
		if s.Truth != nil {
			tm = append(tm, s.Truth.Mean[i])
			tv = append(tv, s.Truth.NoiseVar[i])
		}
	}
	if s.Truth != nil {
		out.Truth = &Truth{Mean: tm, NoiseVar: tv}
	}
	return &out
}

// KeepDrugs returns a copy of s holding only the drugs for which keep
// returns true, in order, and the pairs whose two drugs are both kept, with
// their drug indices renumbered and the truth kept aligned. Cell lines and
// scores are shared with s.
func (s *Screen) KeepDrugs(keep func(i int, d Drug) bool) *Screen {
	newIdx := make([]int, len(s.Drugs))
	var drugs []Drug
	for i, d := range s.Drugs {
		newIdx[i] = -1
		if keep(i, d) {
			newIdx[i] = len(drugs)
			drugs = append(drugs, d)
		}
	}
	out := s.KeepPairs(func(_ int, p *Pair) bool { return newIdx[p.A] >= 0 && newIdx[p.B] >= 0 })
	out.Drugs = drugs
	for i := range out.Pairs {
		out.Pairs[i].A, out.Pairs[i].B = newIdx[out.Pairs[i].A], newIdx[out.Pairs[i].B]
	}
	return out
}

// DrugIndex returns the index in s.Drugs of the drug with the given ID, or -1.
// It scans the table; callers looking up many IDs should build a map.
func (s *Screen) DrugIndex(id string) int {
	for i := range s.Drugs {
		if s.Drugs[i].ID == id {
			return i
		}
	}
	return -1
}

// Equal reports whether s and t hold the same values, counting NaN equal to
// NaN (a missing score) and a nil Count equal to one that repeats N.
func (s *Screen) Equal(t *Screen) bool {
	if s.Name != t.Name || !slices.Equal(s.ScoreNames, t.ScoreNames) || !slices.Equal(s.CellLines, t.CellLines) ||
		len(s.Drugs) != len(t.Drugs) || len(s.Pairs) != len(t.Pairs) || (s.Truth == nil) != (t.Truth == nil) {
		return false
	}
	for i := range s.Drugs {
		if s.Drugs[i] != t.Drugs[i] {
			return false
		}
	}
	for i := range s.Pairs {
		p, q := &s.Pairs[i], &t.Pairs[i]
		if p.A != q.A || p.B != q.B || p.CellLine != q.CellLine || p.N != q.N ||
			!equalFloats(p.Mean, q.Mean) || !equalFloats(p.Var, q.Var) {
			return false
		}
		for j := range p.Mean {
			if p.count(j) != q.count(j) {
				return false
			}
		}
	}
	if s.Truth != nil {
		return equalFloats(s.Truth.Mean, t.Truth.Mean) && equalFloats(s.Truth.NoiseVar, t.Truth.NoiseVar)
	}
	return true
}

// count is the number of replicates with score column j.
func (p *Pair) count(j int) int {
	if p.Count == nil {
		return p.N
	}
	return p.Count[j]
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return true
}

// KeepCellLines returns the screen restricted to the named cell lines, in
// the order given, with the pairs' cell lines renumbered. A name not in s
// is an error naming the lines s has; so is a line without pairs.
func (s *Screen) KeepCellLines(names []string) (*Screen, error) {
	at := map[string]int{}
	for i, c := range s.CellLines {
		at[c] = i
	}
	newIdx := make([]int, len(s.CellLines))
	for i := range newIdx {
		newIdx[i] = -1
	}
	for k, n := range names {
		i, ok := at[n]
		if !ok {
			return nil, fmt.Errorf("drugcomb: no cell line %q in the screen (have %s)", n, strings.Join(s.CellLines, ", "))
		}
		if newIdx[i] >= 0 {
			return nil, fmt.Errorf("drugcomb: cell line %q listed twice", n)
		}
		newIdx[i] = k
	}
	count := make([]int, len(names))
	out := s.KeepPairs(func(_ int, p *Pair) bool {
		if newIdx[p.CellLine] < 0 {
			return false
		}
		p.CellLine = newIdx[p.CellLine]
		count[p.CellLine]++
		return true
	})
	out.CellLines = append([]string(nil), names...)
	for k, n := range count {
		if n == 0 {
			return nil, fmt.Errorf("drugcomb: cell line %s has no pairs", names[k])
		}
	}
	return out, nil
}

// PairKey is an unordered pair of drug ids: A ≤ B (byte order).
type PairKey struct{ A, B string }

// NewPairKey is the key of the pair of drugs a and b, in either order.
func NewPairKey(a, b string) PairKey {
	if b < a {
		a, b = b, a
	}
	return PairKey{a, b}
}

// MeasuredMeans returns, by drug ids, the measured mean of score on
// cellLine (each named under the selection rule, IndexName) of every pair
// of s that has one. It is empty when s has no such cell line or score.
func (s *Screen) MeasuredMeans(cellLine, score string) map[PairKey]float64 {
	ci, si := IndexName(s.CellLines, cellLine), IndexName(s.ScoreNames, score)
	m := map[PairKey]float64{}
	if ci < 0 || si < 0 {
		return m
	}
	for _, p := range s.Pairs {
		if p.CellLine == ci && !math.IsNaN(p.Mean[si]) {
			m[NewPairKey(s.Drugs[p.A].ID, s.Drugs[p.B].ID)] = p.Mean[si]
		}
	}
	return m
}
