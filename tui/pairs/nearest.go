package pairs

import (
	"context"
	"slices"

	"github.com/deup-screening/deup/tui"
)

// Nearest returns up to k measured pairs most similar to row i (excluding
// row i itself), most similar first (see the package documentation).
func (t *Table) Nearest(ctx context.Context, i, k int) ([]tui.Row, error) {
	if i < 0 || i >= len(t.a) || k <= 0 {
		return nil, nil
	}
	nd := len(t.screen.Drugs)
	a, b := int(t.a[i]), int(t.b[i])
	simA, simB := make([]float64, nd), make([]float64, nd)
	if t.Similarity == nil {
		simA[a], simB[b] = 1, 1
	} else {
		for j := range nd {
			simA[j], simB[j] = t.Similarity(a, j), t.Similarity(b, j)
		}
	}
	type cand struct {
		sim  float64
		same bool
		row  int32
	}
	var cs []cand
	for n, r := range t.measuredRows {
		if n%block == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if int(r) == i {
			continue
		}
		c, d := t.a[r], t.b[r]
		s := max(simA[c]+simB[d], simA[d]+simB[c]) / 2
		if s <= 0 {
			continue
		}
		cs = append(cs, cand{s, t.cell[r] == t.cell[i], r})
	}
	slices.SortFunc(cs, func(x, y cand) int {
		switch {
		case x.sim > y.sim:
			return -1
		case x.sim < y.sim:
			return 1
		case x.same && !y.same:
			return -1
		case !x.same && y.same:
			return 1
		}
		return int(x.row - y.row)
	})
	out := make([]tui.Row, 0, min(k, len(cs)))
	for _, c := range cs[:min(k, len(cs))] {
		out = append(out, t.Row(int(c.row)))
	}
	return out, nil
}
