package campaign

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
)

// synthScreens opens the synthetic default screen (seed 1) for "" and
// refuses any directory.
func synthScreens(t *testing.T) (Screens, *drugcomb.Screen) {
	t.Helper()
	sc, err := data.Synth(data.DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	open := func(dir string) (*drugcomb.Screen, error) {
		if dir != "" {
			return nil, errors.New("no screen directories here")
		}
		return sc, nil
	}
	return Screens{Open: open, Label: func(string) string { return "the synthetic default" }}, sc
}

// testConfig is a campaign on the synthetic default's one cell line with
// the fast surrogate.
func testConfig(sc *drugcomb.Screen, mode string) active.Config {
	return active.Config{Mode: mode, Score: sc.ScoreNames[0], Acquisition: "ucb", Model: surrogate.RidgeDEUP, Features: "identity",
		Batch: 5, MaxPerDrug: 2, Seed: 7, Drugs: sc.Drugs, CellLines: sc.CellLines}
}

func initCampaign(t *testing.T, dir string, cfg active.Config, sc *drugcomb.Screen, initN int) *active.State {
	t.Helper()
	tab, err := Select(sc, "", sc.CellLines[0], "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Init(dir, cfg, tab, initN, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestInitOpen: Init writes a ledger that Open replays to the same
// campaign, campaign.json beside it (written again when lost); a
// retrospective campaign without rounds gets the default; CheckFree then
// refuses the directory.
func TestInitOpen(t *testing.T) {
	screens, sc := synthScreens(t)
	table, _, err := active.ScreenTable(sc, 0, sc.CellLines[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode       string
		initN      int
		wantRounds int // active.DefaultRetrospectiveRounds for a retrospective campaign given 0
		wantInit   int // a live campaign starts from every measured pair of its line; retrospective: initN
	}{
		{active.Live, 0, 0, len(table)},
		{active.Retrospective, 40, active.DefaultRetrospectiveRounds, 40},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "c")
			if err := CheckFree(dir); err != nil {
				t.Fatalf("CheckFree on a new directory: %v", err)
			}
			c := initCampaign(t, dir, testConfig(sc, tc.mode), sc, tc.initN)
			if c.Config.Rounds != tc.wantRounds || c.Initial() != tc.wantInit {
				t.Errorf("rounds %d, initial %d; want %d, %d", c.Config.Rounds, c.Initial(), tc.wantRounds, tc.wantInit)
			}
			if err := os.Remove(filepath.Join(dir, "campaign.json")); err != nil {
				t.Fatal(err)
			}
			l, c2, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			l.Close()
			if c2.Initial() != c.Initial() || len(c2.Pool()) != len(c.Pool()) || c2.Config.Rounds != c.Config.Rounds {
				t.Errorf("reopened: %d initial, %d candidates; created %d, %d", c2.Initial(), len(c2.Pool()), c.Initial(), len(c.Pool()))
			}
			if _, err := os.Stat(filepath.Join(dir, "campaign.json")); err != nil {
				t.Errorf("campaign.json not written again: %v", err)
			}
			if err := CheckFree(dir); err == nil || !strings.Contains(err.Error(), "already holds a campaign (1 events in its ledger)") {
				t.Errorf("CheckFree on a campaign: %v", err)
			}
			s, oracle, err := screens.Parts(c2)
			if err != nil {
				t.Fatal(err)
			}
			if s == nil || (oracle != nil) != (tc.mode == active.Retrospective) {
				t.Errorf("Parts: surrogate %v, oracle %v for a %s campaign", s, oracle, tc.mode)
			}
		})
	}
}

// TestInitRefused: a refused Init leaves nothing on disk; a directory that
// existed before is kept.
func TestInitRefused(t *testing.T) {
	_, sc := synthScreens(t)
	cfg := testConfig(sc, active.Live)
	cfg.Batch = 0 // refused by Config.Check
	for _, existed := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "c")
		if existed {
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		tab, err := Select(sc, "", sc.CellLines[0], "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Init(dir, cfg, tab, 0, ""); err == nil {
			t.Fatal("batch 0 accepted")
		}
		ents, err := os.ReadDir(dir)
		switch {
		case existed && (err != nil || len(ents) != 0):
			t.Errorf("existing directory: %v, %d entries left", err, len(ents))
		case !existed && !errors.Is(err, os.ErrNotExist):
			t.Errorf("new directory left behind (%v)", err)
		}
	}
}

// TestOpenNotACampaign: Open says what is missing.
func TestOpenNotACampaign(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct{ dir, want string }{
		{filepath.Join(empty, "none"), "campaign directory " + filepath.Join(empty, "none") + " does not exist"},
		{empty, empty + " is not a campaign directory (no ledger)"},
	} {
		if _, _, err := Open(tc.dir); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Open(%s): %v, want %q", tc.dir, err, tc.want)
		}
	}
}

// TestScreensOracle: the oracle of a retrospective campaign is the screen's
// table; a screen with other drugs is refused with ErrScreenChanged and the
// screen's label; Same accepts extra drugs after the campaign's.
func TestScreensOracle(t *testing.T) {
	screens, sc := synthScreens(t)
	cfg := testConfig(sc, active.Retrospective)
	want, _, err := active.ScreenTable(sc, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := screens.Oracle(cfg)
	if err != nil || len(got) != len(want) {
		t.Fatalf("oracle of %d pairs (%v), want %d", len(got), err, len(want))
	}
	for p, y := range want {
		if got[p] != y {
			t.Fatalf("oracle %v = %v, screen %v", p, got[p], y)
		}
	}
	fewer := cfg
	fewer.Drugs = append(slices.Clone(cfg.Drugs), drugcomb.Drug{ID: "X1"})
	if _, err := screens.Oracle(fewer); !errors.Is(err, active.ErrScreenChanged) || !strings.HasPrefix(err.Error(), "screen the synthetic default: ") {
		t.Errorf("oracle of a changed screen: %v", err)
	}
	more := sc.WithDrugs([]drugcomb.Drug{{ID: "X1", Name: "extra", SMILES: "CCO"}})
	if err := screens.Same(cfg, more); err != nil {
		t.Errorf("Same with extra drugs: %v", err)
	}
	if err := screens.Same(fewer, sc); err == nil || !strings.HasSuffix(err.Error(), "open it with the campaign's screen (the synthetic default)") {
		t.Errorf("Same with fewer drugs: %v", err)
	}
}

// TestRecord: results are recorded all or none; a refusal names the file's
// line and the block.
func TestRecord(t *testing.T) {
	screens, sc := synthScreens(t)
	dir := filepath.Join(t.TempDir(), "c")
	initCampaign(t, dir, testConfig(sc, active.Live), sc, 0)
	o, err := screens.OpenParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	c, s := o.Campaign, o.Surrogate
	prop, err := c.Propose(t.Context(), s)
	if err != nil {
		t.Fatal(err)
	}
	sg := prop.Round.Suggestions
	ok := active.Result{Measurement: active.Measurement{Pair: sg[0].Pair, Y: 1.5}, Line: 2}
	bad := active.Result{Measurement: active.Measurement{Pair: c.Measured()[0].Pair, Y: 2}, Line: 3} // not a suggestion of the round
	block := func(line int) string { return map[int]string{3: "block B7"}[line] }
	err = Record(c, []active.Result{ok, bad}, "r.csv", block)
	if err == nil || !strings.HasPrefix(err.Error(), "results refused, ledger unchanged:\nr.csv:3: ") || !strings.HasSuffix(err.Error(), " (block B7)") {
		t.Errorf("refusal: %v", err)
	}
	if n := len(c.Open().Measured); n != 0 {
		t.Errorf("%d measured after a refusal, want 0", n)
	}
	if err := Record(c, []active.Result{ok}, "r.csv", nil); err != nil {
		t.Fatal(err)
	}
	if got := c.Open().Measured; len(got) != 1 || got[sg[0].Pair] != 1.5 {
		t.Errorf("measured %+v, want the one result", got)
	}
}

// TestInitScreenPath: the campaign records its screen as an absolute path
// (it is reopened from other directories); "" stays the synthetic default.
func TestInitScreenPath(t *testing.T) {
	_, sc := synthScreens(t)
	abs, err := filepath.Abs("some/screen")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ screen, want string }{{"some/screen", abs}, {"", ""}} {
		cfg := testConfig(sc, active.Live)
		cfg.Screen = tc.screen
		if c := initCampaign(t, filepath.Join(t.TempDir(), "c"), cfg, sc, 0); c.Config.Screen != tc.want {
			t.Errorf("screen %q recorded as %q, want %q", tc.screen, c.Config.Screen, tc.want)
		}
	}
}
