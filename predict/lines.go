package predict

import (
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/trained"
)

// What --cell-features FILE means for a trained model (deup predict,
// suggest, campaign): the lines of FILE that the model does not know join
// its lines, scored from their features alone (LineInput's X_l·W_f; no
// learned embedding, as a line of the training table without
// measurements). FILE must hold the model's own lines too, with the values
// it was trained with: from them each column's standardization at
// training is recovered (model.StandardizeLike), which checks that the
// columns are the model's and places the new lines as training would have.

// ErrNoFeatures is AddLines' error for a model that cannot take new lines
// from features: trained on one line, or without --cell-features.
var ErrNoFeatures = errors.New("the model was trained without cell-line features (deup train --cell-features FILE)")

// ErrNotLineAdder is AddLines' error for a method that cannot add lines
// (DUE).
var ErrNotLineAdder = errors.New("this method cannot score a line it was not trained on (deup, deup-neighbors, ensemble and mcdropout can)")

// AddLines gives the model tm (its method and its recorded lines) the
// lines of cf it does not know, and returns them (none: nil, and tm
// unchanged). Errors name the file: a model line missing from cf, columns
// other than the model's, values of the model's lines other than those it
// was trained with; ErrNoFeatures and ErrNotLineAdder wrapped.
func AddLines(tm *trained.Bundle, cf *drugcomb.CellFeatures) ([]string, error) {
	if tm.Meta == nil {
		return nil, trained.ErrNoMeta
	}
	lines := tm.Meta.Screen.CellLines
	la, ok := tm.Method.(model.LineAdder)
	if !ok {
		return nil, fmt.Errorf("--cell-features %s: %s model: %w", cf.File, tm.Method.Name(), ErrNotLineAdder)
	}
	x := la.LineFeatures()
	if len(lines) < 2 || len(x) == 0 {
		return nil, fmt.Errorf("--cell-features %s: %w", cf.File, ErrNoFeatures)
	}
	if len(x) != len(lines) {
		return nil, fmt.Errorf("--cell-features %s: the model has features for %d lines and records %d", cf.File, len(x), len(lines))
	}
	if k := len(x[0]); len(cf.Names) != k {
		return nil, fmt.Errorf("--cell-features %s: %d numeric columns (%s); the model was trained with %d", cf.File, len(cf.Names), abbrev(cf.Names), k)
	}
	ref := make([][]float64, len(lines))
	var missing []string
	for i, l := range lines {
		r, ok := cf.Row(l)
		if !ok {
			missing = append(missing, l)
		}
		ref[i] = r
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("--cell-features %s: no row for the model's line %s: the file must hold the model's lines too (their values check the columns and scale the new lines as training did)", cf.File, abbrev(missing))
	}
	added := cf.WithLines(lines)[len(lines):]
	raw := make([][]float64, len(added))
	for i, l := range added {
		raw[i], _ = cf.Row(l)
	}
	rows, err := model.StandardizeLike(ref, x, raw, cf.Names) // checks the columns, new lines or not
	if err != nil {
		return nil, fmt.Errorf("--cell-features %s: %w", cf.File, err)
	}
	if len(added) == 0 {
		return nil, nil
	}
	all := append(append([][]float64(nil), x...), rows...)
	if err := la.AddLines(all); err != nil {
		return nil, fmt.Errorf("--cell-features %s: %w", cf.File, err)
	}
	tm.Meta.Screen.CellLines = append(append([]string(nil), lines...), added...)
	return added, nil
}

// abbrev joins names, the first few.
func abbrev(names []string) string {
	const shown = 5
	s := strings.Join(names[:min(len(names), shown)], ", ")
	if len(names) > shown {
		s += fmt.Sprintf(", … (%d)", len(names))
	}
	return s
}
