package drugcomb

// LinePair is a cell line of a screen and the same line's index in a
// model trained on a panel (its line embedding; 0 for a one-line model).
type LinePair struct{ Screen, Model int }

// PanelLines pairs the cell lines a panel model was trained on (model, by
// model line) with the lines of a screen (screen, matched by name under
// IndexName): one LinePair for each model line the screen has,
// in model-line order. Only, when ≥ 0, keeps just screen line only.
func PanelLines(screen, model []string, only int) []LinePair {
	var out []LinePair
	for ml, name := range model {
		if sl := IndexName(screen, name); sl >= 0 && (only < 0 || sl == only) {
			out = append(out, LinePair{Screen: sl, Model: ml})
		}
	}
	return out
}

// ModelLines pairs a model's cell lines (model, by model line; fewer than
// two for a one-line model) with a screen's (screen): a one-line model
// scores on screen line cell; a panel model on every line of it that the
// screen has (PanelLines), or with only on screen line cell alone.
func ModelLines(screen, model []string, cell int, only bool) []LinePair {
	if len(model) < 2 {
		return []LinePair{{Screen: cell, Model: 0}}
	}
	if !only {
		cell = -1
	}
	return PanelLines(screen, model, cell)
}
