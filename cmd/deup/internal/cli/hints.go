package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/doseresp"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/predict"
	"github.com/deup-screening/deup/suggest"
)

// The domain packages say what is wrong in their own words (a setting, a
// cell line, a campaign directory); the command line says it in its
// flags and commands, and what to type. hint rewrites the library errors
// that a command line can fix into deup's messages.

// hinted is an error whose message is err's with the command line's words
// put in; it unwraps to err, so errors.Is and errors.As still see the
// library's error.
type hinted struct {
	msg string
	err error
}

func (h *hinted) Error() string { return h.msg }
func (h *hinted) Unwrap() error { return h.err }

// hint returns err with each library error in it that deup's command line
// can fix said in the command line's words (hintOf); nil stays nil, and an
// error without one is returned as it is. A hint already given is not
// given twice.
func hint(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, h := range hintsOf(err) {
		if h.plain != h.cli && !strings.Contains(msg, h.cli) {
			msg = strings.Replace(msg, h.plain, h.cli, 1)
		}
	}
	if msg == err.Error() {
		return err
	}
	return &hinted{msg: msg, err: err}
}

// hintPair is a library error's message and the command line's.
type hintPair struct{ plain, cli string }

// hintsOf returns the messages of the library errors in err's chain that
// the command line words its own way.
func hintsOf(err error) []hintPair {
	var out []hintPair
	add := func(plain error, cli string) { out = append(out, hintPair{plain.Error(), cli}) }
	var open *active.OpenRoundError
	if errors.As(err, &open) {
		add(open, open.Error()+": import them with 'deup campaign import-results'")
	}
	if errors.Is(err, active.ErrNotEmpty) {
		add(active.ErrNotEmpty, active.ErrNotEmpty.Error()+" (use resume)")
	}
	if errors.Is(err, active.ErrNoCampaign) {
		add(active.ErrNoCampaign, active.ErrNoCampaign.Error()+" (use init)")
	}
	var structure *surrogate.StructureError
	if errors.As(err, &structure) {
		add(structure, structure.Error()+" (use --features identity for drugs without structures)")
	}
	var de *drugcomb.DirError
	if errors.As(err, &de) {
		add(de, screenDirMessage(de))
	}
	var se *campaign.SettingError
	if errors.As(err, &se) {
		add(se, settingHint(se))
	}
	var iu *campaign.InUseError
	if errors.As(err, &iu) {
		add(iu, iu.Error()+": choose another directory, or continue it with deup campaign step "+iu.Dir)
	}
	var nc *campaign.NotCampaignError
	if errors.As(err, &nc) {
		if nc.Missing {
			add(nc, nc.Error()+": create the campaign with deup campaign init "+nc.Dir)
		} else {
			add(nc, nc.Error()+": campaigns are created by deup campaign init DIR")
		}
	}
	if errors.Is(err, campaign.ErrNoOpenRound) {
		add(campaign.ErrNoOpenRound, campaign.ErrNoOpenRound.Error()+" (run 'deup campaign step' or 'deup suggest --campaign' first)")
	}
	if errors.Is(err, suggest.ErrPerLine) {
		add(suggest.ErrPerLine, "--per-line needs a model trained on a panel, without --cell-line")
	}
	var pe *suggest.PlaceError
	if errors.As(err, &pe) {
		switch {
		case pe.Score:
			add(pe, "--score: "+pe.Err.Error())
		case pe.Err != nil:
			add(pe, "--cell-line: "+pe.Err.Error())
		default:
			add(pe, fmt.Sprintf("--cell-line %s: %s was trained on %s", pe.CellLine, pe.Model, strings.Join(pe.Trained, ", ")))
		}
	}
	var le *predict.LinesError
	if errors.As(err, &le) {
		if le.Unknown == "" {
			add(le, fmt.Sprintf("--cell-lines %s: the model was trained on one cell line", le.Spec))
		} else {
			add(le, fmt.Sprintf("--cell-lines: the model knows no cell line %q (it has %s)", le.Unknown, strings.Join(le.Known, ", ")))
		}
	}
	var ce *predict.CalibrationError
	if errors.As(err, &ce) {
		if ce.Need == 0 {
			add(ce, fmt.Sprintf("--coverage: %s holds no calibration (trained with --calibration 0, or by an older deup): retrain it with deup train --calibration 0.1 to get intervals, or leave out --coverage", ce.Path))
		} else {
			add(ce, fmt.Sprintf("--coverage %v: %s was calibrated on %d pairs, and a %g%% conformal interval needs at least %d: retrain it with a larger deup train --calibration fraction (%d pairs or more held out), or ask a lower --coverage",
				ce.Coverage, ce.Path, ce.N, 100*ce.Coverage, ce.Need, ce.Need))
		}
	}
	return out
}

// settingHint is a campaign setting's error in the words of deup
// campaign's and deup suggest's flags.
func settingHint(se *campaign.SettingError) string {
	e := se.Err.Error()
	switch se.Setting {
	case campaign.Score:
		return "--score: " + e
	case campaign.CellLine:
		return "--cell-line: " + e
	case campaign.CellLines:
		return "--cell-lines: " + e
	case campaign.LineChoice:
		return "--cell-line and --cell-lines: " + e
	case campaign.PerLine:
		return "--per-line goes with --cell-lines all|A,B,… (" + e + ")"
	case campaign.Candidates:
		return "--candidates is for live campaigns (" + e + ")"
	case campaign.InitSize:
		return "--init is for retrospective campaigns (" + e + ")"
	case campaign.PlateScore:
		return e + ": say which block score it is with --plate-score " + strings.Join(doseresp.Scores(), "|")
	case campaign.Overrides:
		return e + "; export it without --batch/--acquisition/--explore, or import its results first"
	}
	return se.Error()
}

// withHints makes every command of the tree rooted at c return its errors
// with the command line's hints (hint).
func withHints(c *cmdline.Command) *cmdline.Command {
	if run := c.Run; run != nil {
		c.Run = func(ctx context.Context, env cmdline.Env, args []string) error { return hint(run(ctx, env, args)) }
	}
	for _, s := range c.Subs {
		withHints(s)
	}
	return c
}
