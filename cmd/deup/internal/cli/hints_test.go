package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/predict"
	"github.com/deup-screening/deup/suggest"
)

// TestHints: the library errors a command line can fix read as deup's
// messages read before the libraries stopped naming flags (issue 39), the
// same bytes; wrapped, their wrapping stays and unwraps as before; a hint
// is given once however often hint runs.
func TestHints(t *testing.T) {
	screenErr := errors.New(`no cell line "D" (the screen has A, B)`)
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"score", &campaign.SettingError{Setting: campaign.Score, Err: screenErr}, `--score: no cell line "D" (the screen has A, B)`},
		{"cell line", &campaign.SettingError{Setting: campaign.CellLine, Err: screenErr}, `--cell-line: no cell line "D" (the screen has A, B)`},
		{"cell lines", &campaign.SettingError{Setting: campaign.CellLines, Err: screenErr}, `--cell-lines: no cell line "D" (the screen has A, B)`},
		{"line choice", &campaign.SettingError{Setting: campaign.LineChoice, Err: errors.New("give one of them")}, "--cell-line and --cell-lines: give one of them"},
		{"per line", &campaign.SettingError{Setting: campaign.PerLine, Err: errors.New("a campaign across several cell lines")},
			"--per-line goes with --cell-lines all|A,B,… (a campaign across several cell lines)"},
		{"candidates", &campaign.SettingError{Setting: campaign.Candidates, Err: errors.New("a retrospective campaign's candidates are the screen's pairs")},
			"--candidates is for live campaigns (a retrospective campaign's candidates are the screen's pairs)"},
		{"init", &campaign.SettingError{Setting: campaign.InitSize, Err: errors.New("a live campaign starts from every measured pair")},
			"--init is for retrospective campaigns (a live campaign starts from every measured pair)"},
		{"plate score", &campaign.SettingError{Setting: campaign.PlateScore, Err: errors.New(`the campaign's score is "synergy_custom"`)},
			`the campaign's score is "synergy_custom": say which block score it is with --plate-score css|zip|loewe|hsa|bliss|s`},
		{"overrides", &campaign.SettingError{Setting: campaign.Overrides, Err: errors.New("round 2 is already proposed (5 suggestions)")},
			"round 2 is already proposed (5 suggestions); export it without --batch/--acquisition/--explore, or import its results first"},
		{"unnamed", &campaign.SettingError{Err: errors.New("unknown acquisition")}, "unknown acquisition"},
		{"in use", &campaign.InUseError{Dir: "c", Events: 3}, "c already holds a campaign (3 events in its ledger): choose another directory, or continue it with deup campaign step c"},
		{"no directory", &campaign.NotCampaignError{Dir: "c", Missing: true}, "campaign directory c does not exist: create the campaign with deup campaign init c"},
		{"no ledger", &campaign.NotCampaignError{Dir: "c"}, "c is not a campaign directory (no ledger): campaigns are created by deup campaign init DIR"},
		{"bad ledger", &campaign.NotCampaignError{Dir: "c", Ledger: errors.New("is a directory")},
			"c is not a campaign directory (its ledger: is a directory): campaigns are created by deup campaign init DIR"},
		{"no open round", campaign.ErrNoOpenRound, "no round is waiting for results (run 'deup campaign step' or 'deup suggest --campaign' first)"},
		{"suggest per line", suggest.ErrPerLine, "--per-line needs a model trained on a panel, without --cell-line"},
		{"suggest score", &suggest.PlaceError{Score: true, Err: screenErr}, `--score: no cell line "D" (the screen has A, B)`},
		{"suggest cell line", &suggest.PlaceError{Err: screenErr}, `--cell-line: no cell line "D" (the screen has A, B)`},
		{"suggest panel line", &suggest.PlaceError{CellLine: "L1", Model: "m", Trained: []string{"X", "L0"}}, "--cell-line L1: m was trained on X, L0"},
		{"one-line model", &predict.LinesError{Spec: "MCF7"}, "--cell-lines MCF7: the model was trained on one cell line"},
		{"unknown line", &predict.LinesError{Spec: "A,D", Unknown: "D", Known: []string{"A", "B", "C"}}, `--cell-lines: the model knows no cell line "D" (it has A, B, C)`},
		{"no calibration", &predict.CalibrationError{Path: "m.deup", Coverage: 0.9},
			"--coverage: m.deup holds no calibration (trained with --calibration 0, or by an older deup): retrain it with deup train --calibration 0.1 to get intervals, or leave out --coverage"},
		{"too few pairs", &predict.CalibrationError{Path: "m.deup", Coverage: 0.95, N: 15, Need: 19},
			"--coverage 0.95: m.deup was calibrated on 15 pairs, and a 95% conformal interval needs at least 19: retrain it with a larger deup train --calibration fraction (19 pairs or more held out), or ask a lower --coverage"},
		{"no hint", errors.New("disk full"), "disk full"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := hint(c.err).Error(); got != c.want {
				t.Errorf("hint:\n got %s\nwant %s", got, c.want)
			}
			wrapped := fmt.Errorf("%w: deup x: %w", cmdline.ErrUsage, c.err)
			got := hint(hint(wrapped))
			if want := "usage: deup x: " + c.want; got.Error() != want {
				t.Errorf("hint twice, wrapped:\n got %s\nwant %s", got, want)
			}
			if !errors.Is(got, cmdline.ErrUsage) || !errors.Is(got, c.err) {
				t.Errorf("the hinted error does not unwrap to its parts")
			}
		})
	}
	if hint(nil) != nil {
		t.Error("hint(nil) is not nil")
	}
}
