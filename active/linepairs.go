package active

import "github.com/deup-screening/deup/drugcomb"

// PanelLines pairs the cell lines a panel model was trained on (model, by
// model line) with the lines of a screen (screen, matched by name under
// drugcomb.IndexName): one LinePair for each model line the screen has,
// in model-line order. Only, when ≥ 0, keeps just screen line only.
func PanelLines(screen, model []string, only int) []LinePair {
	var out []LinePair
	for ml, name := range model {
		if sl := drugcomb.IndexName(screen, name); sl >= 0 && (only < 0 || sl == only) {
			out = append(out, LinePair{Screen: sl, Model: ml})
		}
	}
	return out
}
