package model

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/deup-screening/deup/nn"
)

// LineAdder is a trained method that can score cell lines it did not know
// at training from their numeric features (deup predict --cell-features):
// AddLines(x) makes x (standardized as at training, one row per line: the
// method's lines first, with the features it was trained with, then the
// new ones) its lines. A new line has no learned embedding (E_l = 0, as a
// line of the training features without measurements has), so its line
// term is X_l·W_f alone (LineInput).
type LineAdder interface {
	// LineFeatures are the standardized features of the model's lines
	// (nil: trained without them, or on one line).
	LineFeatures() [][]float64
	AddLines(x [][]float64) error
}

// ErrNoLineFeatures is AddLines' error for a model trained without
// cell-line features (or on one line): it has nothing to map a new line's
// features with.
var ErrNoLineFeatures = errors.New("the model was trained without cell-line features")

// LineFeatures are the standardized features of c's lines (nil: none).
func (c Config) LineFeatures() [][]float64 { return c.lineRows() }

// LineFeatures of the members (LineAdder).
func (e *DeepEnsemble) LineFeatures() [][]float64 { return e.cfg.lineRows() }

// LineFeatures of the network (LineAdder).
func (m *MCDropout) LineFeatures() [][]float64 { return m.cfg.lineRows() }

// WithLineRows returns c with the lines of x (Config.WithLines' lines and
// features), after checking that x starts with c's own feature rows.
func (c Config) WithLineRows(x [][]float64) (Config, error) {
	old := c.lineRows()
	if c.lines < 2 || len(old) == 0 {
		return c, ErrNoLineFeatures
	}
	if len(x) < len(old) {
		return c, fmt.Errorf("%d rows of cell-line features for a model of %d lines", len(x), len(old))
	}
	for i, r := range old {
		if len(x[i]) != len(r) || !slices.Equal(x[i], r) {
			return c, fmt.Errorf("cell-line feature row %d differs from the model's", i)
		}
	}
	li := LineInput{Lines: len(x), Width: c.TowerOut, X: x}
	if err := li.Validate(); err != nil {
		return c, err
	}
	c.lines, c.lineX = len(x), &x
	return c, nil
}

// AddLines gives the trained network the lines of x (Config.WithLineRows):
// the line embedding E (and the FiLM gains G, Config.LineFiLM) grows by
// zero rows, the features are x. It returns
// the network's new configuration; forwarders made before it are stale
// (make new ones with NewForwarder).
func (n *Network) AddLines(x [][]float64) (Config, error) {
	c, err := n.cfg.WithLineRows(x)
	if err != nil {
		return n.cfg, err
	}
	p := n.byName[LineEmbeddingParam]
	if p == nil || p.cols != c.TowerOut {
		return n.cfg, fmt.Errorf("model: add lines: no line embedding of width %d", c.TowerOut)
	}
	t := nn.NewTensor(n.dt, c.lines, p.cols)
	switch d := t.Data().(type) {
	case []float32:
		copy(d, p.t.Data().([]float32))
	case []float64:
		copy(d, p.t.Data().([]float64))
	}
	p.t, p.rows, p.fanIn = t, c.lines, c.lines
	if g := n.byName[LineFiLMParam]; g != nil {
		// A new line's FiLM gains are 0 (Config.LineFiLM): it scales
		// nothing, as a line of the training features without pairs.
		t := nn.NewTensor(n.dt, c.lines, g.cols)
		switch d := t.Data().(type) {
		case []float32:
			copy(d, g.t.Data().([]float32))
		case []float64:
			copy(d, g.t.Data().([]float64))
		}
		g.t, g.rows, g.fanIn = t, c.lines, c.lines
	}
	n.cfg = c
	return c, nil
}

// AddLines gives every member the lines of x (LineAdder).
func (e *DeepEnsemble) AddLines(x [][]float64) error {
	if !e.trained {
		return fmt.Errorf("model: add lines: model is not trained")
	}
	for k, n := range e.nets {
		c, err := n.AddLines(x)
		if err != nil {
			return err
		}
		e.cfg, e.fwds[k] = c, NewForwarder(n)
	}
	return nil
}

// AddLines gives the network the lines of x (LineAdder).
func (m *MCDropout) AddLines(x [][]float64) error {
	if !m.trained {
		return fmt.Errorf("model: add lines: model is not trained")
	}
	c, err := m.net.AddLines(x)
	if err != nil {
		return err
	}
	m.cfg, m.fwd = c, NewForwarder(m.net)
	return nil
}

// StandardizeLike returns rows of raw features standardized as the rows
// model were (model[i] = (ref[i] − mean)/sd column by column, from
// drugcomb.CellFeatures.Standardized over the training table): each
// column's mean and sd are recovered from the pairs (ref[i][j],
// model[i][j]) by least squares, and a column whose pairs do not lie on
// one such line (a column that is not the model's, or other values) is an
// error naming it. A column constant at training (every model value 0)
// gives 0.
func StandardizeLike(ref, model [][]float64, raw [][]float64, names []string) ([][]float64, error) {
	if len(ref) != len(model) || len(ref) == 0 {
		return nil, fmt.Errorf("%d reference rows for %d model rows", len(ref), len(model))
	}
	k := len(model[0])
	out := make([][]float64, len(raw))
	for i := range out {
		out[i] = make([]float64, k)
	}
	for j := range k {
		// model = (ref − mean)/sd = a·ref + b, a = 1/sd, b = −mean/sd.
		var sx, sy, sxx, sxy float64
		n := float64(len(ref))
		zero := true
		for i := range ref {
			x, y := ref[i][j], model[i][j]
			sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
			zero = zero && y == 0
		}
		if zero {
			continue
		}
		den := n*sxx - sx*sx
		if !(den > 0) {
			return nil, fmt.Errorf("column %s: the model's lines have one value, not enough to place new lines", names[j])
		}
		a := (n*sxy - sx*sy) / den
		b := (sy - a*sx) / n
		for i := range ref {
			if d := a*ref[i][j] + b - model[i][j]; math.Abs(d) > 1e-6*(1+math.Abs(model[i][j])) {
				return nil, fmt.Errorf("column %s: its values for the model's lines are not those the model was trained with", names[j])
			}
		}
		for i, r := range raw {
			out[i][j] = a*r[j] + b
		}
	}
	return out, nil
}
