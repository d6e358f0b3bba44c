package pairs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/tui"
)

// Table is the column store. Every slice has length Len().
type Table struct {
	screen *drugcomb.Screen
	acqDoc string
	// sigmaNote is Builder.SigmaNote.
	sigmaNote string
	simDoc    string

	a, b     []int32
	cell     []uint16
	pair     []int32   // index into screen.Pairs, -1 unmeasured
	measured []float32 // NaN unmeasured
	mu       []float32
	sigmaT   []float32
	sigmaE   []float32
	sigmaA   []float32
	acq      []float32

	measuredRows []int32   // rows with pair >= 0, ascending
	scores       []float64 // measured scores, sorted
	lowerNames   []string  // lower-cased "name\x00id" per drug
	drugRank     []uint32  // rank of each drug by name
	cellRank     []uint32  // rank of each cell line by name

	// Similarity is the drug similarity used by Nearest, in [0, 1]; nil
	// means identity. Set it before sharing the table.
	Similarity func(i, j int) float64
}

var _ tui.Source = (*Table)(nil)

// Scored is a model's prediction for one pair. Acquisition NaN means
// "compute the default" (see the package documentation).
type Scored struct {
	Mu, SigmaTotal, SigmaEpistemic, SigmaAleatoric float64
	Acquisition                                    float64
}

// Builder assembles a Table from a screen and predictions.
type Builder struct {
	// Kappa weighs σ_epistemic in the default acquisition μ + κ·σ_epistemic
	// of the predictions added after it is set: NewBuilder's kappa (the
	// commands pass the κ of deup suggest's and a campaign's "ucb", or
	// --kappa); 0 is greedy on μ.
	Kappa float64
	// Mem allocates the Arrow buffers of ReadPredictions; nil means
	// memory.DefaultAllocator. All are released before it returns.
	Mem memory.Allocator
	// SigmaNote says how the model bounds σ (tui.Info.SigmaNote); the
	// commands set it from the model.
	SigmaNote string

	t      *Table
	unused []string // columns read but not kept (Unused)
}

// NewBuilder starts a table for screen s with room for n predictions whose
// default acquisition is μ + kappa·σ_epistemic. The table keeps s (read
// only).
func NewBuilder(s *drugcomb.Screen, n int, kappa float64) (*Builder, error) {
	if len(s.CellLines) > math.MaxUint16 {
		return nil, fmt.Errorf("pairs: %d cell lines, at most %d supported", len(s.CellLines), math.MaxUint16)
	}
	if len(s.Drugs) > math.MaxInt32 {
		return nil, fmt.Errorf("pairs: %d drugs, at most %d supported", len(s.Drugs), math.MaxInt32)
	}
	t := &Table{screen: s}
	t.a = make([]int32, 0, n)
	t.b = make([]int32, 0, n)
	t.cell = make([]uint16, 0, n)
	t.mu = make([]float32, 0, n)
	t.sigmaT = make([]float32, 0, n)
	t.sigmaE = make([]float32, 0, n)
	t.sigmaA = make([]float32, 0, n)
	t.acq = make([]float32, 0, n)
	return &Builder{Kappa: kappa, t: t}, nil
}

// Add appends the prediction for the unordered pair (a, b) on cell line c
// (indices into the screen's Drugs and CellLines). a and b may come in
// either order.
func (bl *Builder) Add(a, b, c int, p Scored) error {
	s := bl.t.screen
	if a < 0 || a >= len(s.Drugs) || b < 0 || b >= len(s.Drugs) {
		return fmt.Errorf("pairs: drug index out of range: (%d, %d) with %d drugs", a, b, len(s.Drugs))
	}
	if a == b {
		return fmt.Errorf("pairs: pair of drug %q with itself", s.Drugs[a].ID)
	}
	if c < 0 || c >= len(s.CellLines) {
		return fmt.Errorf("pairs: cell line index %d out of range with %d cell lines", c, len(s.CellLines))
	}
	if a > b {
		a, b = b, a
	}
	t := bl.t
	t.a = append(t.a, int32(a))
	t.b = append(t.b, int32(b))
	t.cell = append(t.cell, uint16(c))
	t.mu = append(t.mu, float32(p.Mu))
	t.sigmaT = append(t.sigmaT, float32(p.SigmaTotal))
	t.sigmaE = append(t.sigmaE, float32(p.SigmaEpistemic))
	t.sigmaA = append(t.sigmaA, float32(p.SigmaAleatoric))
	acq := p.Acquisition
	if math.IsNaN(acq) {
		acq = p.Mu + bl.Kappa*p.SigmaEpistemic
	}
	t.acq = append(t.acq, float32(acq))
	return nil
}

// grow makes room for n more predictions.
func (bl *Builder) grow(n int) {
	t := bl.t
	t.a, t.b = slices.Grow(t.a, n), slices.Grow(t.b, n)
	t.cell = slices.Grow(t.cell, n)
	t.mu, t.sigmaT, t.sigmaE = slices.Grow(t.mu, n), slices.Grow(t.sigmaT, n), slices.Grow(t.sigmaE, n)
	t.sigmaA, t.acq = slices.Grow(t.sigmaA, n), slices.Grow(t.acq, n)
}

// ErrDuplicate reports two predictions for the same pair.
var ErrDuplicate = errors.New("duplicate prediction")

// Build finishes the table: it adds a row without prediction for every
// measured pair that got none, attaches measurements, and indexes. It fails
// with ErrDuplicate if two predictions name the same pair. The builder must
// not be used afterwards.
func (bl *Builder) Build() (*Table, error) {
	t := bl.t
	bl.t = nil
	s := t.screen
	nd, nc := uint64(len(s.Drugs)), uint64(len(s.CellLines))
	key := func(a, b int32, c uint16) uint64 { return (uint64(a)*nd+uint64(b))*nc + uint64(c) }

	// Index the predictions by pair key, rejecting duplicates: a radix sort
	// of (key, row) when keys fit in 32 bits, a map otherwise.
	n := len(t.a)
	var keys []uint64
	var big map[uint64]int
	if nd*nd*nc < 1<<32 {
		keys = make([]uint64, n)
		for i := range n {
			keys[i] = key(t.a[i], t.b[i], t.cell[i])<<32 | uint64(i)
		}
		radixSort(keys, make([]uint64, n), func() bool { return false })
		for i := 1; i < n; i++ {
			if keys[i]>>32 == keys[i-1]>>32 {
				return nil, t.duplicate(int(uint32(keys[i])))
			}
		}
	} else {
		big = make(map[uint64]int, n)
		for i := range n {
			k := key(t.a[i], t.b[i], t.cell[i])
			if _, dup := big[k]; dup {
				return nil, t.duplicate(i)
			}
			big[k] = i
		}
	}
	rowOf := func(k uint64) int {
		if big != nil {
			if r, ok := big[k]; ok {
				return r
			}
			return -1
		}
		i, ok := slices.BinarySearchFunc(keys, k, func(e, k uint64) int {
			switch {
			case e>>32 < k:
				return -1
			case e>>32 > k:
				return 1
			}
			return 0
		})
		if !ok {
			return -1
		}
		return int(uint32(keys[i]))
	}

	t.pair = make([]int32, n)
	for i := range t.pair {
		t.pair[i] = -1
	}
	t.measured = make([]float32, n)
	for i := range t.measured {
		t.measured[i] = float32(math.NaN())
	}
	nan := float32(math.NaN())
	seen := make(map[uint64]int, len(s.Pairs))
	for pi, p := range s.Pairs {
		if p.A < 0 || p.B >= len(s.Drugs) || p.A >= p.B || p.CellLine < 0 || p.CellLine >= len(s.CellLines) {
			return nil, fmt.Errorf("pairs: screen pair %d: invalid drugs (%d, %d) or cell line %d", pi, p.A, p.B, p.CellLine)
		}
		k := key(int32(p.A), int32(p.B), uint16(p.CellLine))
		if first, dup := seen[k]; dup {
			return nil, fmt.Errorf("pairs: screen pair %d: %w: same pair as screen pair %d", pi, ErrDuplicate, first)
		}
		seen[k] = pi
		r := rowOf(k)
		if r < 0 {
			r = len(t.a)
			t.a = append(t.a, int32(p.A))
			t.b = append(t.b, int32(p.B))
			t.cell = append(t.cell, uint16(p.CellLine))
			t.mu = append(t.mu, nan)
			t.sigmaT = append(t.sigmaT, nan)
			t.sigmaE = append(t.sigmaE, nan)
			t.sigmaA = append(t.sigmaA, nan)
			t.acq = append(t.acq, nan)
			t.pair = append(t.pair, -1)
			t.measured = append(t.measured, nan)
		}
		t.pair[r] = int32(pi)
		if len(p.Mean) > 0 {
			t.measured[r] = float32(p.Mean[0])
			if !math.IsNaN(p.Mean[0]) {
				t.scores = append(t.scores, p.Mean[0])
			}
		}
	}
	if len(t.a) > math.MaxInt32 {
		return nil, fmt.Errorf("pairs: %d rows, at most %d supported", len(t.a), math.MaxInt32)
	}
	for r, p := range t.pair {
		if p >= 0 {
			t.measuredRows = append(t.measuredRows, int32(r))
		}
	}
	slices.Sort(t.scores)

	t.lowerNames = make([]string, len(s.Drugs))
	for i, d := range s.Drugs {
		t.lowerNames[i] = strings.ToLower(d.Name + "\x00" + d.ID)
	}
	t.drugRank = rankStrings(len(s.Drugs), func(i int) string { return strings.ToLower(s.Drugs[i].Name) })
	t.cellRank = rankStrings(len(s.CellLines), func(i int) string { return strings.ToLower(s.CellLines[i]) })
	t.acqDoc = "μ + " + strconv.FormatFloat(bl.Kappa, 'g', -1, 64) + "·σ_epistemic"
	t.sigmaNote = bl.SigmaNote
	return t, nil
}

func (t *Table) duplicate(r int) error {
	s := t.screen
	return fmt.Errorf("pairs: %w: %s + %s on %s", ErrDuplicate, s.Drugs[t.a[r]].ID, s.Drugs[t.b[r]].ID, s.CellLines[t.cell[r]])
}

func rankStrings(n int, name func(int) string) []uint32 {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return strings.Compare(name(i), name(j)) })
	rank := make([]uint32, n)
	for r, i := range idx {
		rank[i] = uint32(r)
	}
	return rank
}

// Info describes the table.
func (t *Table) Info() tui.Info {
	s := t.screen
	name := ""
	if len(s.ScoreNames) > 0 {
		name = s.ScoreNames[0]
	}
	sim := t.simDoc
	if t.Similarity == nil {
		sim = "shared drugs"
	} else if sim == "" {
		sim = "drug similarity"
	}
	return tui.Info{Name: s.Name, ScoreName: name, Drugs: s.Drugs, CellLines: s.CellLines, Scores: t.scores, Acquisition: t.acqDoc, Similarity: sim, SigmaNote: t.sigmaNote}
}

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.a) }

// Row returns row i, 0 <= i < Len().
func (t *Table) Row(i int) tui.Row {
	r := tui.Row{
		Index: i, A: int(t.a[i]), B: int(t.b[i]), CellLine: int(t.cell[i]), Pair: int(t.pair[i]),
		Measured: f64(t.measured[i]), MeasuredSD: math.NaN(),
		Mu: f64(t.mu[i]), SigmaTotal: f64(t.sigmaT[i]), SigmaEpistemic: f64(t.sigmaE[i]),
		SigmaAleatoric: f64(t.sigmaA[i]), Acquisition: f64(t.acq[i]),
	}
	if r.Pair >= 0 {
		p := t.screen.Pairs[r.Pair]
		r.Replicates = p.N
		if len(p.Var) > 0 && !math.IsNaN(p.Var[0]) {
			r.MeasuredSD = math.Sqrt(p.Var[0])
		}
	}
	return r
}

func f64(x float32) float64 { return float64(x) }

// View is the result of a query: an ordered selection of a table's rows.
type View struct {
	t    *Table
	perm []int32
}

// Len returns the number of selected rows.
func (v *View) Len() int { return len(v.perm) }

// Row returns the i-th selected row in query order.
func (v *View) Row(i int) tui.Row { return v.t.Row(int(v.perm[i])) }

// Index returns the table row of the i-th selected row.
func (v *View) Index(i int) int { return int(v.perm[i]) }

// Query selects and orders rows (see the package documentation). It returns
// ctx.Err() if ctx is cancelled first.
func (t *Table) Query(ctx context.Context, q tui.Query) (tui.Rows, error) {
	return t.Select(ctx, q)
}

// block is the number of rows between two context checks.
const block = 1 << 18

// Select is Query with the concrete result type.
func (t *Table) Select(ctx context.Context, q tui.Query) (*View, error) {
	if q.Sort < 0 || q.Sort >= tui.NumColumns {
		return nil, fmt.Errorf("pairs: invalid sort column %d", int(q.Sort))
	}
	n := len(t.a)
	var match []bool
	if q.Text != "" {
		needle := strings.ToLower(q.Text)
		match = make([]bool, len(t.lowerNames))
		for i, s := range t.lowerNames {
			match[i] = strings.Contains(s, needle)
		}
	}
	if q.Drug >= len(t.screen.Drugs) || q.CellLine >= len(t.screen.CellLines) {
		return nil, fmt.Errorf("pairs: query drug %d or cell line %d out of range", q.Drug, q.CellLine)
	}
	all := match == nil && q.Drug < 0 && q.CellLine < 0 && q.Measured == tui.AnyMeasured
	var rows []int32
	if all {
		rows = make([]int32, n)
		for i := range rows {
			rows[i] = int32(i)
		}
	} else {
		keep := func(i int) bool {
			a, b := t.a[i], t.b[i]
			switch {
			case match != nil && !match[a] && !match[b]:
				return false
			case q.Drug >= 0 && int(a) != q.Drug && int(b) != q.Drug:
				return false
			case q.CellLine >= 0 && int(t.cell[i]) != q.CellLine:
				return false
			case q.Measured == tui.OnlyMeasured && t.pair[i] < 0:
				return false
			case q.Measured == tui.OnlyUnmeasured && t.pair[i] >= 0:
				return false
			}
			return true
		}
		// two passes (count, then fill) so the result is allocated once
		count := 0
		for pass := range 2 {
			if pass == 1 {
				rows = make([]int32, 0, count)
			}
			for lo := 0; lo < n; lo += block {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				for i := lo; i < min(lo+block, n); i++ {
					if keep(i) {
						if pass == 0 {
							count++
						} else {
							rows = append(rows, int32(i))
						}
					}
				}
			}
		}
	}
	if q.Sort == tui.ColCellLine {
		// A panel read line by line: within each line, the largest
		// acquisition first (the line sort below is stable).
		if err := t.sortRows(ctx, rows, tui.ColAcquisition, true); err != nil {
			return nil, err
		}
	}
	if err := t.sortRows(ctx, rows, q.Sort, q.Desc); err != nil {
		return nil, err
	}
	return &View{t: t, perm: rows}, nil
}

// sortRows sorts rows (ascending row indices) in place by column c.
func (t *Table) sortRows(ctx context.Context, rows []int32, c tui.Column, desc bool) error {
	keys := make([]uint64, 0, len(rows))
	var nans []int32
	var flip uint32
	if desc {
		flip = math.MaxUint32
	}
	var col []float32
	switch c {
	case tui.ColMeasured:
		col = t.measured
	case tui.ColMu:
		col = t.mu
	case tui.ColSigmaTotal:
		col = t.sigmaT
	case tui.ColSigmaEpistemic:
		col = t.sigmaE
	case tui.ColSigmaAleatoric:
		col = t.sigmaA
	case tui.ColAcquisition:
		col = t.acq
	}
	for lo := 0; lo < len(rows); lo += block {
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, r := range rows[lo:min(lo+block, len(rows))] {
			var k uint32
			switch c {
			case tui.ColDrugA:
				k = t.drugRank[t.a[r]]
			case tui.ColDrugB:
				k = t.drugRank[t.b[r]]
			case tui.ColCellLine:
				k = t.cellRank[t.cell[r]]
			default:
				x := col[r]
				if x != x {
					nans = append(nans, r)
					continue
				}
				k = orderedBits(x)
			}
			keys = append(keys, uint64(k^flip)<<32|uint64(uint32(r)))
		}
	}
	cancelled := func() bool { return ctx.Err() != nil }
	if !radixSort(keys, make([]uint64, len(keys)), cancelled) {
		return ctx.Err()
	}
	for i, k := range keys {
		rows[i] = int32(uint32(k))
	}
	copy(rows[len(keys):], nans)
	return nil
}

// orderedBits maps a non-NaN float32 to a uint32 of the same order
// (−0 and +0 map to neighbours, −0 first).
func orderedBits(x float32) uint32 {
	b := math.Float32bits(x)
	if b&(1<<31) != 0 {
		return ^b
	}
	return b | 1<<31
}

// radixSort sorts keys by their high 32 bits, stably, using buf (same
// length) as scratch; the result is in keys. It reports false if stop
// returned true between passes (keys are then in an unspecified order).
func radixSort(keys, buf []uint64, stop func() bool) bool {
	if len(keys) == 0 {
		return true
	}
	src, dst := keys, buf
	for _, shift := range [...]uint{32, 43, 54} {
		if stop() {
			return false
		}
		var count [1 << 11]int
		for _, k := range src {
			count[(k>>shift)&(1<<11-1)]++
		}
		if count[(src[0]>>shift)&(1<<11-1)] == len(src) {
			continue // all keys share this digit
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range src {
			d := (k >> shift) & (1<<11 - 1)
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
	return true
}
