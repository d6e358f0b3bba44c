package cli

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/model/trained"
	"github.com/deup-screening/deup/predict"
	"github.com/deup-screening/deup/tui"
	"github.com/deup-screening/deup/tui/pairs"
)

func tuiCommand() *cmdline.Command {
	return &cmdline.Command{Name: "tui", Short: "browse predictions and uncertainty in the terminal and pick the next experiments", Run: runTUI}
}

//go:embed help/tui.txt
var tuiDesc string

type tuiInputs struct {
	screenDir, drugsPath, modelPath, predPath, cellLine, export, campaignDir string
	kappa, coverage                                                          float64
	mouse, coverageSet                                                       bool
	// campaignScreen: screenDir is the campaign's screen ("" is the
	// synthetic default), not a default to replace with the model's.
	campaignScreen bool
	tm             *trained.Model // the model of modelPath, read by loadTUIScreen
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

func runTUI(ctx context.Context, env Env, args []string) error {
	in, err := parseTUIFlags(env, args)
	if err != nil {
		return err
	}
	start := env.Time()
	if in.predPath != "" {
		fmt.Fprintf(env.Stderr, "deup tui: reading %s\n", in.predPath)
	}
	if in.campaignDir != "" && in.screenDir == "" {
		// The campaign's own screen ("" is the synthetic default for both).
		l, c, err := campaign.Open(in.campaignDir)
		if err != nil {
			return err
		}
		l.Close()
		in.screenDir = c.Config.Screen
		in.campaignScreen = true
	}
	sc, err := loadTUIScreen(env, in)
	if err != nil {
		return err
	}
	opts := tui.Options{Context: ctx, Debounce: 120 * time.Millisecond, ExportPath: in.export}
	if in.tm != nil {
		cal, err := predict.Intervals(env.Stderr, in.tm, in.modelPath, in.coverage, in.coverageSet)
		if err != nil {
			return fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
		}
		if cal != nil {
			opts.Interval = &tui.Interval{Coverage: in.coverage, Calibration: *cal}
		}
	}
	if in.campaignDir != "" {
		tc, err := campaign.NewTUI(in.campaignDir, sc, in.kappa, campaignScreens())
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

// loadTUIScreen opens the screen of in extended with --drugs: --screen,
// else the campaign's, else the screen the model of --model was trained on,
// else the synthetic default. It reads the model (in.tm) and sets
// in.screenDir to the directory used and in.cellLine to the model's cell
// line when none was given.
func loadTUIScreen(env Env, in *tuiInputs) (*drugcomb.Screen, error) {
	var sc *drugcomb.Screen
	var err error
	if in.modelPath != "" {
		if in.tm, err = trained.ReadFile(in.modelPath); err != nil {
			return nil, err
		}
	}
	switch {
	case in.tm != nil && in.screenDir == "" && !in.campaignScreen:
		if sc, in.screenDir, err = modelScreen(env, "tui", in.modelPath, in.tm, ""); err != nil {
			return nil, err
		}
		if i := drugcomb.IndexName(sc.CellLines, in.tm.Meta.Screen.CellLine); in.cellLine == "" && len(in.tm.Meta.Screen.CellLines) < 2 && i >= 0 {
			in.cellLine = sc.CellLines[i]
		}
	default:
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

// tuiTable builds the table of sc's pairs with the predictions of in.
func tuiTable(ctx context.Context, env Env, sc *drugcomb.Screen, in tuiInputs) (*pairs.Table, error) {
	screenDir, predPath, cellLine, kappa := in.screenDir, in.predPath, in.cellLine, in.kappa
	var err error
	cell := -1
	switch {
	case cellLine != "":
		if cell, err = sc.CellLineIndex(cellLine); err != nil {
			return nil, fmt.Errorf("%w: deup tui: %v", cmdline.ErrUsage, err)
		}
	case len(sc.CellLines) > 0:
		cell = 0
	}
	bl, err := pairs.NewBuilder(sc, 0, kappa)
	if err != nil {
		return nil, err
	}
	switch {
	case in.tm != nil:
		if cell < 0 {
			return nil, fmt.Errorf("deup tui: the screen has no cell lines")
		}
		var modelLines []string
		if in.tm.Meta != nil {
			modelLines = in.tm.Meta.Screen.CellLines
		}
		lines := drugcomb.ModelLines(sc.CellLines, modelLines, cell, cellLine != "")
		if len(lines) == 0 {
			return nil, fmt.Errorf("%w: deup tui: the model knows none of the screen's cell lines %s (it has %s)", cmdline.ErrUsage, strings.Join(sc.CellLines, ", "), strings.Join(modelLines, ", "))
		}
		feats, kept, err := modelFeatures(env, "tui", "and no predictions", in.tm, sc.Drugs, screenDir)
		if err != nil {
			return nil, err
		}
		bar := progress.New(env.Stderr, "predict", len(kept)*(len(kept)-1)/2*len(lines))
		if err := bl.AddModel(ctx, in.tm.Method.Predict, feats, kept, lines, func(n int) { bar.Set(n, "") }); err != nil {
			return nil, err
		}
		bar.Finish()
	case predPath != "":
		if len(sc.CellLines) > 1 && cellLine == "" {
			cell = -1 // rows without a cell line are an error unless --cell-line says which
		}
		if _, err := bl.ReadPredictions(predPath, cell); err != nil {
			return nil, err
		}
		if u := bl.Unused(); len(u) > 0 {
			fmt.Fprintf(env.Stderr, "deup tui: %s: the columns %s are not shown (the pair detail shows intervals with --model)\n", predPath, strings.Join(u, ", "))
		}
	}
	tab, err := bl.Build()
	if err != nil {
		return nil, err
	}
	tab.UseMorganSimilarity() // the detail view names how many drugs lack a fingerprint
	return tab, nil
}
