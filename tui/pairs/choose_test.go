package pairs

import (
	"errors"
	"reflect"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/trained"
)

// TestWhichScreen: the directory given, else the campaign's, else the
// model's own, else the synthetic default (deup tui's --screen help).
func TestWhichScreen(t *testing.T) {
	for _, tc := range []struct {
		dir             string
		campaign, model bool
		want            ScreenFrom
	}{
		{"d", false, false, ScreenGiven},
		{"d", true, true, ScreenGiven},
		{"", true, false, CampaignScreen},
		{"", true, true, CampaignScreen},
		{"", false, true, ModelScreen},
		{"", false, false, DefaultScreen},
	} {
		if got := WhichScreen(tc.dir, tc.campaign, tc.model); got != tc.want {
			t.Errorf("WhichScreen(%q, %v, %v) = %v, want %v", tc.dir, tc.campaign, tc.model, got, tc.want)
		}
	}
}

// TestChooseLines: the line named, else the default; a one-line model's
// own line on its own screen; a panel model on every line it knows (in
// its line order, drugcomb.PanelLines); a predictions file's rows without
// a cell line need a name on a screen of several lines. The expected
// indices are the screen's lines as listed here.
func TestChooseLines(t *testing.T) {
	none := &drugcomb.Screen{Name: "none"}
	one := &drugcomb.Screen{Name: "one", CellLines: []string{"L1"}}
	three := &drugcomb.Screen{Name: "three", CellLines: []string{"L1", "L2", "L3"}}
	oneLine := &trained.Screen{CellLine: "l2"}                                     // case aside, the screen's L2
	gone := &trained.Screen{CellLine: "Q"}                                         // a line no screen here has
	panel := &trained.Screen{CellLine: "L3", CellLines: []string{"L3", "L2", "X"}} // knows L3 and L2 of three
	stranger := &trained.Screen{CellLine: "X", CellLines: []string{"X", "Y"}}      // knows none
	unknown := func(sc *drugcomb.Screen, ms *trained.Screen) error {
		return &UnknownLinesError{Screen: sc.CellLines, Model: ms.CellLines}
	}
	for _, tc := range []struct {
		name     string
		sc       *drugcomb.Screen
		from     Predicted
		cellLine string
		ms       *trained.Screen
		own      bool
		want     Lines
		err      error // errors.Is target, or an *UnknownLinesError to equal
	}{
		{"no predictions: first line", three, NotPredicted, "", nil, false, Lines{Cell: 0}, nil},
		{"no predictions: line named", three, NotPredicted, "L2", nil, false, Lines{Cell: 1}, nil},
		{"no predictions: name of no line", three, NotPredicted, "HeLa", nil, false, Lines{}, drugcomb.ErrSelect},
		{"no predictions: no lines", none, NotPredicted, "", nil, false, Lines{Cell: -1}, nil},
		{"no predictions: name on no lines", none, NotPredicted, "L1", nil, false, Lines{}, drugcomb.ErrSelect},
		{"file: several lines, none named", three, ByFile, "", nil, false, Lines{Cell: -1}, nil},
		{"file: the only line", one, ByFile, "", nil, false, Lines{Cell: 0}, nil},
		{"file: line named, any case", three, ByFile, "l3", nil, false, Lines{Cell: 2}, nil},
		{"file: no lines", none, ByFile, "", nil, false, Lines{Cell: -1}, nil},
		{"file: name of no line", three, ByFile, "HeLa", nil, false, Lines{}, drugcomb.ErrSelect},
		{"model without metadata: first line", three, ByModel, "", nil, false, Lines{Cell: 0, Model: []drugcomb.LinePair{{Screen: 0, Model: 0}}}, nil},
		{"model without metadata: line named", three, ByModel, "L3", nil, false, Lines{Cell: 2, Model: []drugcomb.LinePair{{Screen: 2, Model: 0}}}, nil},
		{"one-line model, own screen: its line", three, ByModel, "", oneLine, true, Lines{Cell: 1, Model: []drugcomb.LinePair{{Screen: 1, Model: 0}}}, nil},
		{"one-line model, other screen: first line", three, ByModel, "", oneLine, false, Lines{Cell: 0, Model: []drugcomb.LinePair{{Screen: 0, Model: 0}}}, nil},
		{"one-line model, own screen without its line", three, ByModel, "", gone, true, Lines{Cell: 0, Model: []drugcomb.LinePair{{Screen: 0, Model: 0}}}, nil},
		{"one-line model, own screen, line named", three, ByModel, "L3", oneLine, true, Lines{Cell: 2, Model: []drugcomb.LinePair{{Screen: 2, Model: 0}}}, nil},
		{"one-line model: name of no line", three, ByModel, "HeLa", oneLine, true, Lines{}, drugcomb.ErrSelect},
		{"panel model: every line it knows", three, ByModel, "", panel, false, Lines{Cell: 0, Model: []drugcomb.LinePair{{Screen: 2, Model: 0}, {Screen: 1, Model: 1}}}, nil},
		{"panel model, own screen: every line it knows", three, ByModel, "", panel, true, Lines{Cell: 0, Model: []drugcomb.LinePair{{Screen: 2, Model: 0}, {Screen: 1, Model: 1}}}, nil},
		{"panel model: line named", three, ByModel, "L2", panel, false, Lines{Cell: 1, Model: []drugcomb.LinePair{{Screen: 1, Model: 1}}}, nil},
		{"panel model: line named it does not know", three, ByModel, "L1", panel, false, Lines{}, unknown(three, panel)},
		{"panel model that knows no line", three, ByModel, "", stranger, false, Lines{}, unknown(three, stranger)},
		{"model on a screen without lines", none, ByModel, "", oneLine, false, Lines{}, ErrNoCellLines},
		{"model, name on a screen without lines", none, ByModel, "L1", oneLine, false, Lines{}, drugcomb.ErrSelect},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ChooseLines(tc.sc, tc.from, tc.cellLine, tc.ms, tc.own)
			var ue *UnknownLinesError
			switch {
			case errors.As(tc.err, &ue):
				var gotUE *UnknownLinesError
				if !errors.As(err, &gotUE) || !reflect.DeepEqual(gotUE, ue) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
			case tc.err != nil:
				if !errors.Is(err, tc.err) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("lines %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestUnknownLinesError: the message deup tui printed before the choice
// moved here (cmd/deup/internal/cli/tui.go at 1470e22).
func TestUnknownLinesError(t *testing.T) {
	err := &UnknownLinesError{Screen: []string{"L1", "L2"}, Model: []string{"X", "Y"}}
	if got, want := err.Error(), "the model knows none of the screen's cell lines L1, L2 (it has X, Y)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
