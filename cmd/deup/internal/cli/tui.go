package cli

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/predict"
	"github.com/deup-screening/deup/trained"
	"github.com/deup-screening/deup/tui"
	"github.com/deup-screening/deup/tui/pairs"
)

func tuiCommand(reg *methods.Registry) *cmdline.Command {
	return &cmdline.Command{Name: "tui", Short: "browse predictions and uncertainty in the terminal and pick the next experiments", Run: withMethods(reg, runTUI)}
}

//go:embed help/tui.txt
var tuiDesc string

type tuiInputs struct {
	screenDir, drugsPath, modelPath, predPath, cellLine, export, campaignDir string
	kappa, coverage                                                          float64
	mouse, coverageSet                                                       bool
	// Set by loadTUIScreen: where the screen comes from and the model of
	// modelPath.
	screen pairs.ScreenFrom
	tm     *trained.Bundle
}

func parseTUIFlags(env Env, args []string) (*tuiInputs, error) {
	fs := newFlagSet(env, "deup tui", "deup tui [--screen DIR] [--drugs FILE] [--model MODEL | --predictions FILE] [--campaign DIR] [--cell-line NAME] [--kappa K] [--export FILE]", tuiDesc)
	in := &tuiInputs{}
	fs.StringVar(&in.screenDir, "screen", "", "screen directory (default: --model's own screen, else the synthetic default screen)")
	fs.StringVar(&in.modelPath, "model", "", modelUsage+" to score every pair")
	fs.StringVar(&in.predPath, "predictions", "", "predictions file (.csv, .parquet, .arrow)")
	fs.StringVar(&in.cellLine, "cell-line", "", "cell line of --model's predictions (default: the model's, every line of a model trained on a panel, else the screen's first) and of predictions without a cell_line column (needed when the screen has several)")
	fs.Float64Var(&in.kappa, "kappa", active.DefaultKappa, "weight of sigma_epistemic in the default acquisition mu + kappa*sigma_epistemic (the ucb of deup suggest and campaigns)")
	fs.StringVar(&in.export, "export", "batch.csv", "file name the export prompt proposes (.csv, .parquet or .json)")
	fs.BoolVar(&in.mouse, "mouse", false, "scroll with the wheel and select rows by clicking (the terminal's own text selection then needs shift)")
	fs.StringVar(&in.campaignDir, "campaign", "", "campaign directory (deup campaign init): R runs a round in the UI")
	fs.Float64Var(&in.coverage, "coverage", 0.9, "with --model: coverage of the interval the pair detail shows, in (0, 1), when the model has a calibration")
	fs.StringVar(&in.drugsPath, "drugs", "", "CSV of more drugs (id or pubchem_cid, smiles, optional name), e.g. a catalogue, added to the screen's")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return nil, err
	}
	if in.modelPath != "" && in.predPath != "" {
		return nil, cmdline.UsageError(fs, "deup tui: give at most one of --model and --predictions")
	}
	if err := checkCoverage(in.coverage); err != nil {
		return nil, err
	}
	if in.coverageSet = cmdline.IsSet(fs, "coverage"); in.coverageSet && in.modelPath == "" {
		return nil, fmt.Errorf("%w: deup tui: --coverage goes with --model (the interval comes from the model file's calibration)", cmdline.ErrUsage)
	}
	if math.IsNaN(in.kappa) || math.IsInf(in.kappa, 0) {
		return nil, fmt.Errorf("%w: deup tui: --kappa must be finite", cmdline.ErrUsage)
	}
	for _, err := range []error{
		cmdline.NeedFile("--predictions", in.predPath, "a predictions file written by deup predict --out (.csv, .parquet, .arrow)"),
		cmdline.NeedFile("--drugs", in.drugsPath, catalogueWhat),
	} {
		if err != nil {
			return nil, err
		}
	}
	return in, nil
}

func runTUI(ctx context.Context, env Env, reg *methods.Registry, args []string) error {
	in, err := parseTUIFlags(env, args)
	if err != nil {
		return err
	}
	start := env.Time()
	if in.predPath != "" {
		fmt.Fprintf(env.Stderr, "deup tui: reading %s\n", in.predPath)
	}
	sc, err := loadTUIScreen(env, reg, in)
	if err != nil {
		return err
	}
	opts := tui.Options{Context: ctx, Debounce: 120 * time.Millisecond, ExportPath: in.export, Export: suggestFiles{}}
	if in.tm != nil {
		cal, err := predict.Intervals(env.Stderr, in.tm, in.modelPath, in.coverage, in.coverageSet)
		if err != nil {
			return fmt.Errorf("%w: %v", cmdline.ErrUsage, hint(err))
		}
		if cal != nil {
			opts.Interval = &tui.Interval{Coverage: in.coverage, Calibration: *cal}
		}
	}
	if in.campaignDir != "" {
		tc, err := newTUICampaign(in.campaignDir, sc, in.kappa, campaignScreens())
		if err != nil {
			return err
		}
		opts.Campaign = tc
	}
	tab, err := tuiTable(ctx, env, sc, *in)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "deup tui: %d pairs of %d drugs ready in %s\n", tab.Len(), len(tab.Info().Drugs), env.Since(start).Round(time.Millisecond))
	err = tui.Run(ctx, tab, opts, env.Stdin, env.Stdout, in.mouse)
	if err != nil && err != ctx.Err() {
		return fmt.Errorf("deup tui: %w", err)
	}
	return err
}

// loadTUIScreen opens the screen of in (pairs.WhichScreen, in.screen)
// extended with --drugs: --screen, else the campaign's, else the screen
// the model of --model was trained on, else the synthetic default. It reads
// the model (in.tm) and sets in.screenDir to the directory used.
func loadTUIScreen(env Env, reg *methods.Registry, in *tuiInputs) (*drugcomb.Screen, error) {
	var sc *drugcomb.Screen
	var err error
	in.screen = pairs.WhichScreen(in.screenDir, in.campaignDir != "", in.modelPath != "")
	if in.screen == pairs.CampaignScreen {
		l, c, err := campaign.Open(in.campaignDir)
		if err != nil {
			return nil, err
		}
		l.Close()
		in.screenDir = c.Config.Screen // "" is the synthetic default
	}
	if in.modelPath != "" {
		if in.tm, err = readModel(reg, in.modelPath); err != nil {
			return nil, err
		}
	}
	if in.screen == pairs.ModelScreen {
		sc, in.screenDir, err = modelScreen(env, "tui", in.modelPath, in.tm, "")
	} else {
		sc, _, err = loadScreen(in.screenDir)
	}
	if err != nil {
		return nil, err
	}
	if in.drugsPath != "" {
		extra, err := readDrugsCSV(env, "tui", in.drugsPath, "", "")
		if err != nil {
			return nil, err
		}
		sc = sc.WithDrugs(extra)
	}
	return sc, nil
}

// tuiTable builds the table of sc's pairs with the predictions of in, on
// the cell lines pairs.ChooseLines picks.
func tuiTable(ctx context.Context, env Env, sc *drugcomb.Screen, in tuiInputs) (*pairs.Table, error) {
	from, ms := pairs.NotPredicted, (*trained.Screen)(nil)
	switch {
	case in.tm != nil:
		if from = pairs.ByModel; in.tm.Meta != nil {
			ms = &in.tm.Meta.Screen
		}
	case in.predPath != "":
		from = pairs.ByFile
	}
	lines, err := pairs.ChooseLines(sc, from, in.cellLine, ms, in.screen == pairs.ModelScreen)
	switch {
	case errors.Is(err, pairs.ErrNoCellLines):
		return nil, fmt.Errorf("deup tui: %w", err)
	case err != nil:
		return nil, fmt.Errorf("%w: deup tui: %v", cmdline.ErrUsage, err)
	}
	bl, err := pairs.NewBuilder(sc, 0, in.kappa)
	if err != nil {
		return nil, err
	}
	if from == pairs.ByModel && in.tm != nil {
		if n, ok := in.tm.Method.(interface{ SigmaNote() string }); ok {
			bl.SigmaNote = n.SigmaNote() // the detail view says how σ is bounded
		}
	}
	switch from {
	case pairs.ByModel:
		feats, kept, err := modelFeatures(env, "tui", "and no predictions", in.tm, sc.Drugs, in.screenDir)
		if err != nil {
			return nil, err
		}
		bar := progress.New(env.Stderr, "predict", pairs.ModelRows(len(kept), lines.Model))
		if err := bl.AddModel(ctx, in.tm.Method.Predict, feats, kept, lines.Model, func(n int) { bar.Set(n, "") }); err != nil {
			return nil, err
		}
		bar.Finish()
	case pairs.ByFile:
		if _, err := bl.ReadPredictions(in.predPath, lines.Cell); err != nil {
			return nil, err
		}
		if u := bl.Unused(); len(u) > 0 {
			fmt.Fprintf(env.Stderr, "deup tui: %s: the columns %s are not shown (the pair detail shows intervals with --model)\n", in.predPath, strings.Join(u, ", "))
		}
	}
	tab, err := bl.Build()
	if err != nil {
		return nil, err
	}
	tab.UseMorganSimilarity() // the detail view names how many drugs lack a fingerprint
	return tab, nil
}
