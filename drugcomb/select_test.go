package drugcomb

import (
	"errors"
	"testing"
)

// TestSelection checks the one selection rule (select.go): exact name,
// else the first match ignoring case; "" the first score column and the
// only cell line; a miss is ErrSelect.
func TestSelection(t *testing.T) {
	one := &Screen{Name: "one", ScoreNames: []string{"combo_score", "zip"}, CellLines: []string{"PC-3"}}
	two := &Screen{Name: "two", ScoreNames: []string{"css", "CSS"}, CellLines: []string{"PC-3", "MCF7"}}
	for _, c := range []struct {
		name   string
		sc     *Screen
		score  string
		line   string
		si, ci int
		sErr   bool
		cErr   bool
	}{
		{"defaults, one line", one, "", "", 0, 0, false, false},
		{"exact names", one, "zip", "PC-3", 1, 0, false, false},
		{"case folded", one, "ZIP", "pc-3", 1, 0, false, false},
		{"exact beats folded", two, "CSS", "MCF7", 1, 1, false, false},
		{"folded takes the first", two, "Css", "mcf7", 0, 1, false, false},
		{"several lines need a name", two, "", "", 0, 0, false, true},
		{"unknown names", one, "bliss", "HeLa", 0, 0, true, true},
	} {
		si, err := c.sc.ScoreColumn(c.score)
		if (err != nil) != c.sErr || err == nil && si != c.si {
			t.Errorf("%s: ScoreColumn(%q) = %d, %v; want %d, error %v", c.name, c.score, si, err, c.si, c.sErr)
		}
		if err != nil && !errors.Is(err, ErrSelect) {
			t.Errorf("%s: %v is not ErrSelect", c.name, err)
		}
		ci, err := c.sc.CellLineIndex(c.line)
		if (err != nil) != c.cErr || err == nil && ci != c.ci {
			t.Errorf("%s: CellLineIndex(%q) = %d, %v; want %d, error %v", c.name, c.line, ci, err, c.ci, c.cErr)
		}
		if err != nil && !errors.Is(err, ErrSelect) {
			t.Errorf("%s: %v is not ErrSelect", c.name, err)
		}
	}
}

// TestOneCellLine: the pairs of the selected line, renumbered to line 0.
func TestOneCellLine(t *testing.T) {
	sc := &Screen{Name: "two", ScoreNames: []string{"s"}, CellLines: []string{"A", "B"},
		Drugs: []Drug{{ID: "d0"}, {ID: "d1"}, {ID: "d2"}},
		Pairs: []Pair{{A: 0, B: 1, CellLine: 0, Mean: []float64{1}}, {A: 0, B: 2, CellLine: 1, Mean: []float64{2}}, {A: 1, B: 2, CellLine: 1, Mean: []float64{3}}}}
	out, err := sc.OneCellLine("b")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Pairs) != 2 || out.CellLines[0] != "B" || out.Pairs[0].CellLine != 0 || out.Pairs[1].Mean[0] != 3 {
		t.Errorf("OneCellLine(b) = %v, %+v", out.CellLines, out.Pairs)
	}
	if _, err := sc.OneCellLine(""); !errors.Is(err, ErrSelect) {
		t.Errorf("OneCellLine(\"\") on two lines: %v, want ErrSelect", err)
	}
}

// TestWithDrugs: new IDs are appended once, known ones skipped, s kept.
func TestWithDrugs(t *testing.T) {
	s := &Screen{Drugs: []Drug{{ID: "a"}, {ID: "b"}}}
	out := s.WithDrugs([]Drug{{ID: "b"}, {ID: "c"}, {ID: "c"}, {ID: "d"}})
	var ids string
	for _, d := range out.Drugs {
		ids += d.ID
	}
	if ids != "abcd" || len(s.Drugs) != 2 {
		t.Errorf("drugs %q (want abcd), original %d (want 2)", ids, len(s.Drugs))
	}
}
