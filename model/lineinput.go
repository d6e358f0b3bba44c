package model

import (
	"fmt"
	"math"

	"github.com/deup-screening/deup/nn"
)

// LineInput is the cell-line input of a network over a panel (issue 26),
// the one implementation that the networks of this package and DUE's
// (model/due) share. A network that knows several lines adds, to the
// order-free pair embedding, the line's learned embedding E_l (parameter
// cl.e, Lines×Width) and, with numeric features X of the lines
// (--cell-features), their learned linear map X_l·W_f (parameter cl.f,
// k×Width):
//
//	e(a, b, l) = T(a) + T(b) + E_l + X_l·W_f
//
// so the pair stays exactly symmetric. E and W_f start at 0 (and draw no
// random number, so the other weights are those of a one-line network with
// the same seed): a line that no training pair measured keeps E_l = 0, and
// its term is X_l·W_f alone (0 without features). A LineInput with at most
// one line is none: a one-line network is the network it always was.
type LineInput struct {
	Lines int         // cell lines of the network; at most 1: no line input
	Width int         // width of the pair embedding (TowerOut)
	X     [][]float64 // numeric features of each line (Lines×k, standardized; nil: none)
}

// The names of the line input's parameters, in the networks and their
// files.
const (
	LineEmbeddingParam = "cl.e" // E, Lines×Width
	LineFeatureParam   = "cl.f" // W_f, k×Width
)

// IsLineParam says whether a parameter name is one of the line input's
// (they start at 0, not at a random draw).
func IsLineParam(name string) bool { return name == LineEmbeddingParam || name == LineFeatureParam }

// On says whether the network has a line input (several lines).
func (li LineInput) On() bool { return li.Lines > 1 }

// Features is the number of numeric features per line, k (0: none, or no
// line input).
func (li LineInput) Features() int {
	if li.On() && len(li.X) > 0 {
		return len(li.X[0])
	}
	return 0
}

// Validate checks the features against the lines: one row per line, every
// row as wide as the first, every value finite.
func (li LineInput) Validate() error {
	x := li.X
	if x == nil {
		return nil
	}
	if li.Lines < 2 || len(x) != li.Lines {
		return fmt.Errorf("%d rows of cell-line features for %d cell lines", len(x), li.Lines)
	}
	for i, r := range x {
		if len(r) != len(x[0]) || len(r) == 0 {
			return fmt.Errorf("cell-line feature row %d has %d values, row 0 %d", i, len(r), len(x[0]))
		}
		for _, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("cell-line feature row %d holds %v", i, v)
			}
		}
	}
	return nil
}

// LineParam is the name and shape of one parameter of a line input.
type LineParam struct {
	Name       string
	Rows, Cols int
}

// Params lists the line input's parameters, in the order the networks
// add them (after every other parameter): E, then W_f with features; none
// without a line input.
func (li LineInput) Params() []LineParam {
	if !li.On() {
		return nil
	}
	ps := []LineParam{{LineEmbeddingParam, li.Lines, li.Width}}
	if k := li.Features(); k > 0 {
		ps = append(ps, LineParam{LineFeatureParam, k, li.Width})
	}
	return ps
}

// AddTo adds the line term to the pair embeddings pe (b×Width) of graph g:
// pe + L·(E + X·W_f), with E and Wf the graph's nodes of the two
// parameters (Wf nil without features) and X a constant input. It returns
// the new node and the b×Lines one-hot input L, to be filled with
// FillLines before each run.
func (li LineInput) AddTo(g *nn.Graph, pe, E, Wf *nn.Node, b int) (*nn.Node, *nn.Tensor) {
	dt := g.DType()
	l := nn.NewTensor(dt, b, li.Lines)
	lN := g.Input("L", l)
	if k := li.Features(); k > 0 {
		// E_l + X_l·W_f: the features are a constant input.
		xt := nn.NewTensor(dt, li.Lines, k)
		switch d := xt.Data().(type) {
		case []float32:
			copy(d, flatFeatures[float32](li.X))
		case []float64:
			copy(d, flatFeatures[float64](li.X))
		}
		E = g.Add(E, g.Dense(g.Input("LX", xt), Wf, nil))
	}
	return g.Add(pe, g.Dense(lN, E, nil)), l
}

// FillLines sets the one-hot input l (b×Lines, from AddTo) to the lines
// of the first n pairs of a batch (lines nil: line 0); the other rows
// (padding) are 0.
func FillLines(l *nn.Tensor, lines []int, n int) {
	nl := l.Shape()[1]
	switch d := l.Data().(type) {
	case []float32:
		clear(d)
		for i := range n {
			d[i*nl+LineOf(lines, i)] = 1
		}
	case []float64:
		clear(d)
		for i := range n {
			d[i*nl+LineOf(lines, i)] = 1
		}
	}
}

// LineRows returns the lines' embeddings E_l + X_l·W_f (Lines×Width, row
// major) from the values of the parameters E and Wf, for inference: E
// itself without features (Wf is then not read).
func LineRows[T float32 | float64](li LineInput, E, Wf []T) []T {
	k := li.Features()
	if k == 0 {
		return E
	}
	nl, w := li.Lines, li.Width
	E = append([]T(nil), E...)
	gemm(nl, w, k, flatFeatures[T](li.X), k, Wf, w, 1, E, w)
	return E
}

// flatFeatures is the lines' feature rows x as one row-major slice of T.
func flatFeatures[T float32 | float64](x [][]float64) []T {
	var out []T
	for _, r := range x {
		for _, v := range r {
			out = append(out, T(v))
		}
	}
	return out
}

// LineOf is the cell line of pair i (0 when lines is nil: the only line of
// a one-line network).
func LineOf(lines []int, i int) int {
	if lines == nil {
		return 0
	}
	return lines[i]
}
