package cli

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/predict"
	"github.com/deup-screening/deup/suggest"
	"github.com/deup-screening/deup/trained"
)

func suggestCommand(reg *methods.Registry) *cmdline.Command {
	return &cmdline.Command{Name: "suggest", Short: "export the next experiments (CSV, Parquet or JSON) from a campaign or a trained model", Run: withMethods(reg, runSuggest)}
}

//go:embed help/suggest.txt
var suggestDesc string

type suggestArgs struct {
	campaign, model, screen, cellLine, score, acq, out string
	cellFeatures                                       string
	batch, perDrug, perLine                            int
	seed                                               uint64
	explore                                            float64 // < 0 with --campaign: the campaign's
	coverage                                           float64
	coverageSet, calibratedSigma                       bool
}

func parseSuggest(env Env, args []string) (*suggestArgs, error) {
	fs := newFlagSet(env, "deup suggest", "deup suggest (--campaign DIR | --model MODEL [--screen DIR]) [--batch B] [--acquisition ucb] --out FILE", suggestDesc)
	a := &suggestArgs{}
	fs.StringVar(&a.campaign, "campaign", "", "campaign directory")
	fs.StringVar(&a.model, "model", "", modelUsage)
	fs.StringVar(&a.screen, "screen", "", "with --model: screen directory (default: the screen the model was trained on)")
	fs.StringVar(&a.cellLine, "cell-line", "", "with --model: cell line (default: the model's)")
	fs.StringVar(&a.score, "score", "", "with --model: score column (default: the model's)")
	fs.IntVar(&a.batch, "batch", 0, "suggestions (default: the campaign's batch; 30 with --model)")
	fs.StringVar(&a.acq, "acquisition", "", "acquisition function (default: the campaign's; ucb with --model)")
	perDrug := maxPerDrugFlag(fs)
	fs.IntVar(&a.perLine, "per-line", 0, "with a model trained on a panel: at most N suggestions on any one cell line (0: no cap); the batch spans every line the model knows unless --cell-line names one")
	seed := cmdline.SeedFlag(fs, "with --model: seed of thompson and random draws")
	fs.Float64Var(&a.coverage, "coverage", 0.9, "with --model: coverage of the lower/upper interval, in (0, 1), when the model has a calibration")
	fs.BoolVar(&a.calibratedSigma, "calibrated-sigma", false, "with --model: the acquisition reads sigma scaled by the calibration (see above)")
	explore := exploreFlag(fs)
	fs.StringVar(&a.cellFeatures, "cell-features", "", "with --model: "+cellFeaturesPredictUsage+"; the batch may then hold pairs on those lines")
	fs.StringVar(&a.out, "out", "", "output file: .csv, .parquet or .json")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return nil, err
	}
	if (a.campaign == "") == (a.model == "") || a.out == "" {
		fs.Usage()
		return nil, fmt.Errorf("%w: deup suggest: give --out and exactly one of --campaign and --model", cmdline.ErrUsage)
	}
	if _, err := suggest.FormatOf(a.out); err != nil {
		return nil, fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	if err := cmdline.NeedOutDir("--out", a.out); err != nil {
		return nil, err
	}
	if err := cmdline.NeedFile("--cell-features", a.cellFeatures, cellFeaturesWhat); err != nil {
		return nil, err
	}
	if cmdline.IsSet(fs, "batch") && a.batch < 1 {
		// Refused before a campaign round is proposed and recorded.
		return nil, fmt.Errorf("%w: --batch %d: want at least 1 suggestion", cmdline.ErrUsage, a.batch)
	}
	if err := checkExploreFlag(*explore); err != nil {
		return nil, err
	}
	a.seed, a.explore, a.coverageSet = *seed, *explore, cmdline.IsSet(fs, "coverage")
	if a.campaign != "" {
		switch {
		case a.coverageSet || a.calibratedSigma:
			return nil, fmt.Errorf("%w: --coverage and --calibrated-sigma go with --model (a campaign's suggestions have no calibration)", cmdline.ErrUsage)
		case perDrug.set:
			return nil, fmt.Errorf("%w: --max-per-drug is set when a campaign starts (deup campaign init --max-per-drug)", cmdline.ErrUsage)
		case a.perLine != 0:
			return nil, fmt.Errorf("%w: --per-line goes with --model (a model trained on a panel)", cmdline.ErrUsage)
		case a.cellFeatures != "":
			return nil, fmt.Errorf("%w: --cell-features goes with --model (a campaign's model is set at deup campaign init)", cmdline.ErrUsage)
		case !cmdline.IsSet(fs, "explore"):
			a.explore = -1
		}
		return a, nil
	}
	if a.batch == 0 {
		a.batch = 30
	}
	if a.acq == "" {
		a.acq = "ucb"
	}
	if err := checkCoverage(a.coverage); err != nil {
		return nil, err
	}
	if a.perLine < 0 {
		return nil, fmt.Errorf("%w: --per-line %d: want N ≥ 0", cmdline.ErrUsage, a.perLine)
	}
	a.perDrug = perDrug.resolve(a.batch)
	return a, nil
}

func runSuggest(ctx context.Context, env Env, reg *methods.Registry, args []string) error {
	a, err := parseSuggest(env, args)
	if err != nil {
		return err
	}
	if a.campaign != "" {
		return suggestFromCampaign(ctx, env, a.campaign, a.batch, a.acq, a.explore, a.out)
	}
	return suggestFromModel(env, reg, a)
}

// suggestFromCampaign exports the open round or proposes one; explore < 0
// keeps the campaign's explore weight.
func suggestFromCampaign(ctx context.Context, env Env, dir string, batch int, acqName string, explore float64, out string) error {
	l, c, err := campaign.Open(dir)
	if err != nil {
		return err
	}
	defer l.Close()
	rd, proposed, err := campaignScreens().Propose(ctx, c, batch, acqName, explore)
	if err != nil {
		return usageIfSetting(err)
	}
	if proposed {
		fmt.Fprintf(env.Stdout, "round %d proposed by %s and recorded in the ledger\n", rd.Index, rd.ModelVersion)
	}
	rows := campaign.Suggestions(c, rd)
	if err := suggest.WriteFile(out, rows); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %d suggestions of round %d to %s (%d already measured; %s%s, set at campaign init)\n", len(rows), rd.Index, out, len(rd.Measured), maxPerDrugNote(c.Config.MaxPerDrug), maxPerLineNote(c.Config.MaxPerLine))
	return nil
}

func suggestFromModel(env Env, reg *methods.Registry, a *suggestArgs) error {
	o := suggest.Options{Batch: a.batch, PerDrug: a.perDrug, PerLine: a.perLine, Seed: a.seed, Coverage: a.coverage, CalibratedSigma: a.calibratedSigma}
	var err error
	if o.Acquisition, err = active.ParseAcquisition(a.acq); err != nil {
		return fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	o.Acquisition.ExploreWeight = a.explore
	tm, err := readModel(reg, a.model)
	if err != nil {
		return err
	}
	added, err := addCellLines(env, "suggest", a.cellFeatures, a.model, tm)
	if err != nil {
		return err
	}
	if o.Cal, err = predict.Intervals(env.Stdout, tm, a.model, a.coverage, a.coverageSet || a.calibratedSigma); err != nil {
		return fmt.Errorf("%w: %v", cmdline.ErrUsage, hint(err))
	}
	sc, sigDir, err := modelScreen(env, "suggest", a.model, tm, a.screen)
	if err != nil {
		return err
	}
	sc = withLines(sc, added) // new lines, nothing measured on them yet
	var ms *trained.Screen
	if tm.Meta != nil {
		ms = &tm.Meta.Screen
	}
	place, err := suggest.Where(sc, ms, a.model, a.screen == "", a.cellLine, a.score, a.perLine)
	if err != nil {
		return fmt.Errorf("%w: %v", cmdline.ErrUsage, hint(err))
	}
	f, kept, err := modelFeatures(env, "suggest", "and are not suggested", tm, sc.Drugs, sigDir)
	if err != nil {
		return err
	}
	c, err := suggest.Predict(sc, place, tm.Method.Predict, f, kept, o)
	if err != nil {
		return err
	}
	if len(c.Pairs) == 0 {
		return fmt.Errorf("every pair of the screen's drugs on %s is measured: nothing to suggest", place.CellLine)
	}
	if err := c.WriteSigmaNote(env.Stdout, o); err != nil {
		return err
	}
	rows, err := c.Pick(o)
	if err != nil {
		return err
	}
	if err := suggest.WriteFile(a.out, rows); err != nil {
		return err
	}
	m := tm.Method
	fmt.Fprintf(env.Stdout, "wrote %d suggestions (%s by %s, from %d unmeasured pairs on %s; %s) to %s\n%s\n", len(rows), o.Acquisition, m.Name(), len(c.Pairs), place.CellLine, maxPerDrugNote(o.PerDrug), a.out, m.AleatoricNote())
	return nil
}
