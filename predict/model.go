package predict

import (
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/trained"
)

// What deup predict scores with a trained model, when no catalogue of
// drugs is given: the drugs (ModelDrugs), the cell lines and score of the
// rows (Table.ForModel) and the measured values they carry
// (Table.LookUpMeasured).

// ModelDrugs returns the drugs to score with model tm: those of the screen
// in dir (drugcomb.OpenDir) when dir is not "", otherwise the drugs tm was
// trained on (own true). Errors: trained.ErrNoMeta for a model file that
// does not record its drugs.
func ModelDrugs(tm *trained.Bundle, dir string) (drugs []drugcomb.Drug, own bool, err error) {
	if dir != "" {
		sc, err := drugcomb.OpenDir(dir)
		if err != nil {
			return nil, false, err
		}
		return sc.Drugs, false, nil
	}
	if tm.Meta == nil {
		return nil, false, trained.ErrNoMeta
	}
	return tm.Meta.ScreenDrugs(), true, nil
}

// ForModel sets t.Lines to the cell lines of model tm (the lines of its
// panel, or its one line) and t.Score to its score column, and returns the
// lines to score given spec (Lines) and the model's cell line (Open's
// cellLine). A model that does not record them has one line named "" and
// score "".
func (t *Table) ForModel(tm *trained.Bundle, spec string) (lines []int, one string, err error) {
	var names []string
	if tm.Meta != nil {
		one, names, t.Score = tm.Meta.Screen.CellLine, tm.Meta.Screen.CellLines, tm.Meta.Screen.Score
	}
	if lines, err = Lines(names, one, spec); err != nil {
		return nil, one, err
	}
	if t.Lines = names; len(names) < 2 {
		t.Lines = []string{one}
	}
	return lines, one, nil
}

// MatchScreen finds each scored drug (t.Drugs) among the drugs of the
// screen its measured values come from: by id, else by PubChem CID (a CID
// two screen drugs share matches neither). It sets t.ScreenIDs, and gives a
// drug without a name of its own (its name is its id, as a catalogue
// without a name column reads) the name of its screen drug. A catalogue
// (deup predict --drugs) then carries the measured values and names of the
// model's screen, whatever ids it uses.
func (t *Table) MatchScreen(screen []drugcomb.Drug) {
	byID := make(map[string]int, len(screen))
	byCID := map[int64]int{}
	for i, d := range screen {
		byID[d.ID] = i
		if d.PubChemCID <= 0 {
			continue
		}
		if _, dup := byCID[d.PubChemCID]; dup {
			byCID[d.PubChemCID] = -1
			continue
		}
		byCID[d.PubChemCID] = i
	}
	d := &t.Drugs
	t.ScreenIDs = make([]string, len(d.IDs))
	for r, id := range d.IDs {
		i, ok := byID[id]
		if !ok && r < len(d.CIDs) && d.CIDs[r] > 0 {
			i, ok = byCID[d.CIDs[r]]
			ok = ok && i >= 0
		}
		if !ok {
			continue
		}
		t.ScreenIDs[r] = screen[i].ID
		if n := screen[i].OwnName(); (d.Names[r] == "" || d.Names[r] == id) && n != "" {
			d.Names[r] = n
		}
	}
}

// LookUpMeasured sets t.Measured to the measured values of t.Score on
// t.Lines in the screen model tm scores (trained.Bundle.OpenScreen(dir)),
// and matches t.Drugs to its drugs (MatchScreen):
// the screen in dir when it is not "", otherwise tm's own. Nothing is looked
// up for a model that does not record its screen. changed reports that
// tm's own screen has changed pairs since training. An error opening the
// screen in dir is err; one opening tm's own screen is missing instead:
// the rows then carry no measured values (measured false), which is no
// reason to stop.
func (t *Table) LookUpMeasured(tm *trained.Bundle, dir string) (changed bool, missing, err error) {
	if tm.Meta == nil {
		return false, nil, nil
	}
	sc, _, changed, err := tm.OpenScreen(dir)
	switch {
	case err == nil:
		t.Measured = Measured(sc, t.Lines, t.Score)
		t.MatchScreen(sc.Drugs)
		return changed, nil, nil
	case dir != "":
		return false, nil, err
	}
	return false, err, nil
}
