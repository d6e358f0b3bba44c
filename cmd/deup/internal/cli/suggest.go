package cli

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model/trained"
	"github.com/deup-screening/deup/suggest"
	"github.com/deup-screening/deup/uq"
)

func suggestCommand() *Command {
	return &Command{Name: "suggest", Short: "export the next experiments (CSV, Parquet or JSON) from a campaign or a trained model", Run: runSuggest}
}

//go:embed help/suggest.txt
var suggestDesc string

func runSuggest(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup suggest", "deup suggest (--campaign DIR | --model MODEL [--screen DIR]) [--batch B] [--acquisition ucb] --out FILE", suggestDesc)
	campaignDir := fs.String("campaign", "", "campaign directory")
	modelPath := fs.String("model", "", modelUsage)
	screenDir := fs.String("screen", "", "with --model: screen directory (default: the screen the model was trained on)")
	cellLine := fs.String("cell-line", "", "with --model: cell line (default: the model's)")
	score := fs.String("score", "", "with --model: score column (default: the model's)")
	batch := fs.Int("batch", 0, "suggestions (default: the campaign's batch; 30 with --model)")
	acqName := fs.String("acquisition", "", "acquisition function (default: the campaign's; ucb with --model)")
	perDrug := maxPerDrugFlag(fs)
	perLine := fs.Int("per-line", 0, "with a model trained on a panel: at most N suggestions on any one cell line (0: no cap); the batch spans every line the model knows unless --cell-line names one")
	seed := seedFlag(fs, "with --model: seed of thompson and random draws")
	coverage := fs.Float64("coverage", 0.9, "with --model: coverage of the lower/upper interval, in (0, 1), when the model has a calibration")
	calSigma := fs.Bool("calibrated-sigma", false, "with --model: the acquisition reads sigma scaled by the calibration (see above)")
	explore := exploreFlag(fs)
	out := fs.String("out", "", "output file: .csv, .parquet or .json")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 0, 0); err != nil {
		return err
	}
	if (*campaignDir == "") == (*modelPath == "") || *out == "" {
		fs.Usage()
		return fmt.Errorf("%w: deup suggest: give --out and exactly one of --campaign and --model", ErrUsage)
	}
	if _, err := suggest.FormatOf(*out); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if err := needOutDir("--out", *out); err != nil {
		return err
	}
	batchSet := false
	fs.Visit(func(f *flag.Flag) { batchSet = batchSet || f.Name == "batch" })
	if batchSet && *batch < 1 {
		// Refused before a campaign round is proposed and recorded.
		return fmt.Errorf("%w: --batch %d: want at least 1 suggestion", ErrUsage, *batch)
	}
	if err := checkExploreFlag(*explore); err != nil {
		return err
	}
	if *campaignDir != "" {
		if isSet(fs, "coverage") || *calSigma {
			return fmt.Errorf("%w: --coverage and --calibrated-sigma go with --model (a campaign's suggestions have no calibration)", ErrUsage)
		}
		if perDrug.set {
			return fmt.Errorf("%w: --max-per-drug is set when a campaign starts (deup campaign init --max-per-drug)", ErrUsage)
		}
		if *perLine != 0 {
			return fmt.Errorf("%w: --per-line goes with --model (a model trained on a panel)", ErrUsage)
		}
		ex := -1.0 // the campaign's
		if isSet(fs, "explore") {
			ex = *explore
		}
		return suggestFromCampaign(ctx, env, *campaignDir, *batch, *acqName, ex, *out)
	}
	if *batch == 0 {
		*batch = 30
	}
	if *acqName == "" {
		*acqName = "ucb"
	}
	if err := checkCoverage(*coverage); err != nil {
		return err
	}
	iv := intervalOptions{coverage: *coverage, explicit: isSet(fs, "coverage"), calibratedSigma: *calSigma}
	if *perLine < 0 {
		return fmt.Errorf("%w: --per-line %d: want N ≥ 0", ErrUsage, *perLine)
	}
	return suggestFromModel(ctx, env, *modelPath, *screenDir, *cellLine, *score, *batch, *acqName, *explore, perDrug.resolve(*batch), *perLine, *seed, iv, *out)
}

// exploreFlag is the --explore flag of suggest and campaign init/simulate:
// active.Acquisition.ExploreWeight.
func exploreFlag(fs *flag.FlagSet) *float64 {
	return fs.Float64("explore", 0, "weight in [0, 1] of sigma_epistemic's ranking in the acquisition's (0: the acquisition alone; 1: rank by sigma_epistemic)")
}

func checkExploreFlag(w float64) error {
	if err := active.CheckExplore(w); err != nil {
		return fmt.Errorf("%w: --explore: %s", ErrUsage, strings.TrimPrefix(err.Error(), "active: "))
	}
	return nil
}

// suggestFromCampaign exports the open round or proposes one; explore < 0
// keeps the campaign's explore weight.
func suggestFromCampaign(ctx context.Context, env Env, dir string, batch int, acqName string, explore float64, out string) error {
	l, c, err := openCampaign(dir)
	if err != nil {
		return err
	}
	defer l.Close()
	rd := c.Open()
	if rd == nil {
		s, _, err := campaignParts(c)
		if err != nil {
			return err
		}
		acq, _ := active.ParseAcquisition(c.Config.Acquisition)
		if acqName != "" {
			if acq, err = active.ParseAcquisition(acqName); err != nil {
				return fmt.Errorf("%w: %v", ErrUsage, err)
			}
		}
		acq.ExploreWeight = c.Config.Explore
		if explore >= 0 {
			acq.ExploreWeight = explore
		}
		if batch == 0 {
			batch = c.Config.Batch
		}
		prop, err := c.ProposeWith(ctx, s, acq, batch)
		if err != nil {
			return err
		}
		rd = prop.Round
		fmt.Fprintf(env.Stdout, "round %d proposed by %s and recorded in the ledger\n", rd.Index, rd.ModelVersion)
	} else if batch != 0 || acqName != "" || explore >= 0 {
		return fmt.Errorf("%w: round %d is already proposed (%d suggestions); export it without --batch/--acquisition/--explore, or import its results first", ErrUsage, rd.Index, len(rd.Suggestions))
	}
	rows := campaignSuggestions(c, rd)
	if err := suggest.WriteFile(out, rows); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %d suggestions of round %d to %s (%d already measured; %s%s, set at campaign init)\n", len(rows), rd.Index, out, len(rd.Measured), active.MaxPerDrugNote(c.Config.MaxPerDrug), active.MaxPerLineNote(c.Config.MaxPerLine))
	return nil
}

// intervalOptions are suggest's interval flags.
type intervalOptions struct {
	coverage        float64
	explicit        bool // --coverage given: a model without calibration is an error
	calibratedSigma bool
}

// suggestCalibration returns the calibration suggest uses for model tm (nil
// for none, with a note on stdout), or an error when an interval or the
// calibrated sigma was asked of a model that cannot give it.
func suggestCalibration(w io.Writer, path string, tm *trained.Model, iv intervalOptions) (*uq.Calibrator, error) {
	if (tm.Meta == nil || tm.Meta.Calibration == nil) && !iv.explicit && !iv.calibratedSigma {
		fmt.Fprintf(w, "no intervals: %s holds no calibration (retrain it with deup train --calibration 0.1 for lower/upper)\n", path)
		return nil, nil
	}
	cal, err := modelCalibration(path, tm, iv.coverage)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "intervals: lower and upper at %g%% coverage, %s held out of training\n", 100*iv.coverage, cal)
	return cal, nil
}

func suggestFromModel(ctx context.Context, env Env, modelPath, screenDir, cellLine, score string, batch int, acqName string, explore float64, perDrug, perLine int, seed uint64, iv intervalOptions, out string) error {
	acq, err := active.ParseAcquisition(acqName)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	acq.ExploreWeight = explore
	tm, err := openModel(modelPath)
	if err != nil {
		return err
	}
	m := tm.Method
	cal, err := suggestCalibration(env.Stdout, modelPath, tm, iv)
	if err != nil {
		return err
	}
	sc, sigDir, err := modelScreen(env, "suggest", modelPath, tm, screenDir)
	if err != nil {
		return err
	}
	lines, cl, table, err := suggestLines(sc, tm, modelPath, screenDir, cellLine, score, perLine)
	if err != nil {
		return err
	}
	f, kept, err := modelFeatures(env, "suggest", "and are not suggested", tm, sc.Drugs, sigDir)
	if err != nil {
		return err
	}
	cands, mp := active.UnmeasuredCandidates(kept, lines, table)
	if len(cands) == 0 {
		return fmt.Errorf("every pair of the screen's drugs on %s is measured: nothing to suggest", cl)
	}
	preds, err := m.Predict(f, mp)
	if err != nil {
		return err
	}
	ap := active.FromModel(preds)
	acqIn := ap // what the acquisition reads
	var intervals []active.Interval
	if cal != nil {
		var bad int
		if acqIn, intervals, bad, err = active.Calibrated(ap, cal, iv.coverage, iv.calibratedSigma); err != nil {
			return fmt.Errorf("pair %s, %s: %w", sc.Drugs[cands[bad].A].ID, sc.Drugs[cands[bad].B].ID, err)
		}
	}
	if iv.calibratedSigma {
		note := "one factor for every pair"
		if cal.Method != uq.MethodConformalNormalized {
			note = "a factor per pair"
		}
		fmt.Fprintf(env.Stdout, "--calibrated-sigma: the acquisition reads the sigmas scaled by the %g%% calibration (%s; e.g. the first candidate's by %.4g); the file's sigma columns are the model's\n",
			100*iv.coverage, note, acqIn[0].SigmaTotal/ap[0].SigmaTotal)
	}
	pick, scores, err := active.Rank(acq, cands, acqIn, table, batch, perDrug, perLine, seed)
	if err != nil {
		return err
	}
	rows := suggestRows(sc, acq, cands, ap, acqIn, scores, intervals, pick, perDrug, perLine, iv)
	if err := suggest.WriteFile(out, rows); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %d suggestions (%s by %s, from %d unmeasured pairs on %s; %s) to %s\n%s\n", len(rows), acq, m.Name(), len(cands), cl, active.MaxPerDrugNote(perDrug), out, m.AleatoricNote())
	return nil
}

// suggestLines resolves where a model suggests: a panel model across the
// lines of the screen it was trained on (unless --cell-line names one), any
// other on one cell line (the model's own by default, on its own screen);
// the score is the model's unless --score names another. It returns the
// (screen line, model line) pairs, the cell line's name for messages, and
// the measured pairs of the screen there.
func suggestLines(sc *drugcomb.Screen, tm *trained.Model, modelPath, screenDir, cellLine, score string, perLine int) ([]drugcomb.LinePair, string, active.TableOracle, error) {
	// A panel model proposes across its lines (those the screen has)
	// unless --cell-line names one: (screen line, model line) pairs.
	var panelLines []drugcomb.LinePair
	if tm.Meta != nil && len(tm.Meta.Screen.CellLines) > 1 && cellLine == "" {
		if panelLines = drugcomb.PanelLines(sc.CellLines, tm.Meta.Screen.CellLines, -1); len(panelLines) == 0 {
			return nil, "", nil, fmt.Errorf("%w: the screen has none of the cell lines %s was trained on (%s)", ErrUsage, modelPath, strings.Join(tm.Meta.Screen.CellLines, ", "))
		}
		if score == "" {
			score = tm.Meta.Screen.Score
		}
	} else if perLine > 0 {
		return nil, "", nil, fmt.Errorf("%w: --per-line needs a model trained on a panel, without --cell-line", ErrUsage)
	}
	if tm.Meta != nil && screenDir == "" && panelLines == nil {
		// The model's own screen: its cell line and score by default.
		if cellLine == "" {
			cellLine = tm.Meta.Screen.CellLine
		}
		if score == "" {
			score = tm.Meta.Screen.Score
		}
	}
	si, err := scoreIndex(sc, score)
	if err != nil {
		return nil, "", nil, err
	}
	cl := "every cell line"
	if panelLines == nil {
		if cl, err = cellLineOf(sc, cellLine); err != nil {
			return nil, "", nil, err
		}
	}
	tableLine := cl
	if panelLines != nil {
		tableLine = ""
	}
	table, _, err := active.ScreenTable(sc, si, tableLine)
	if err != nil {
		return nil, "", nil, err
	}
	cellIdx := max(drugcomb.IndexName(sc.CellLines, cl), 0)
	lines := panelLines
	if lines == nil {
		ml := 0 // a one-line model's only line, or the named line of a panel model
		if tm.Meta != nil && len(tm.Meta.Screen.CellLines) > 1 {
			if ml = drugcomb.IndexName(tm.Meta.Screen.CellLines, cl); ml < 0 {
				return nil, "", nil, fmt.Errorf("%w: --cell-line %s: %s was trained on %s", ErrUsage, cl, modelPath, strings.Join(tm.Meta.Screen.CellLines, ", "))
			}
		}
		lines = []drugcomb.LinePair{{Screen: cellIdx, Model: ml}}
	}
	return lines, cl, table, nil
}

// suggestRows are the rows of the suggestions file for the picked
// candidates: the model's predictions, the acquisition's score and the
// reason for each (its rank, the caps, the interval).
func suggestRows(sc *drugcomb.Screen, acq active.Acquisition, cands []active.Pair, ap, acqIn []active.Prediction, scores []float64, intervals []active.Interval, pick []int, perDrug, perLine int, iv intervalOptions) []suggest.Suggestion {
	var rows []suggest.Suggestion
	for rank, i := range pick {
		p := cands[i]
		reason := acq.Reason(acqIn[i], scores[i], rank+1, len(cands))
		if iv.calibratedSigma {
			reason += " (calibrated sigma)"
		}
		if perDrug > 0 {
			reason += fmt.Sprintf("; at most %d per drug", perDrug)
		}
		if perLine > 0 {
			reason += fmt.Sprintf("; at most %d per cell line", perLine)
		}
		s := suggest.Suggestion{Rank: rank + 1, DrugA: sc.Drugs[p.A], DrugB: sc.Drugs[p.B], CellLine: sc.CellLines[p.CellLine],
			Mu: ap[i].Mu, SigmaTotal: ap[i].SigmaTotal, SigmaEpistemic: ap[i].SigmaEpistemic, SigmaAleatoric: ap[i].SigmaAleatoric,
			Acquisition: scores[i], Reason: reason}
		if intervals != nil {
			s.Interval = &suggest.Interval{Lower: intervals[i].Lower, Upper: intervals[i].Upper}
			s.Reason += fmt.Sprintf("; %g%% interval [%.4g, %.4g]", 100*iv.coverage, intervals[i].Lower, intervals[i].Upper)
		}
		rows = append(rows, s)
	}
	return rows
}
