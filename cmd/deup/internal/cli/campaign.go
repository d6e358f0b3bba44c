package cli

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/active/simreport"
	"github.com/deup-screening/deup/active/simulate"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/trained"
)

func campaignCommand(reg *methods.Registry) *cmdline.Command {
	return &cmdline.Command{
		Name:  "campaign",
		Short: "active-learning campaigns that propose the next drug-pair experiments",
		Subs: []*cmdline.Command{
			{Name: "init", Short: "start a campaign over a screen (live or retrospective)", Run: withMethods(reg, runCampaignInit)},
			{Name: "step", Short: "propose the next round (and measure it, retrospectively)", Run: runCampaignStep},
			{Name: "resume", Short: "continue a campaign after a stop, a crash or a kill", Run: runCampaignResume},
			{Name: "import-results", Short: "record the lab's measurements for the open round", Run: runCampaignImport},
			{Name: "report", Short: "per-round summary of a campaign", Run: runCampaignReport},
			{Name: "simulate", Short: "compare acquisition functions on a measured screen", Run: runCampaignSimulate},
		},
	}
}

// campaignScreens opens the screens of campaigns as every command opens a
// screen (drugcomb.OpenDir), "" being the synthetic default.
func campaignScreens() campaign.Screens {
	open := func(dir string) (*drugcomb.Screen, error) {
		sc, _, err := loadScreen(dir)
		return sc, err
	}
	return campaign.Screens{Open: open, Label: screenLabel}
}

// campaignTable opens the campaign's screen (dir "" is the synthetic
// default) and selects its score and cell lines (campaign.Screens.Table).
// Drugs left out for want of a structure and pairs without a score are
// counted on stderr, never dropped silently.
func campaignTable(env Env, cmd, dir, score, cellLine, cellLines string) (*campaign.Table, error) {
	t, un, err := campaignScreens().Table(dir, score, cellLine, cellLines)
	if len(un.Left) > 0 {
		fmt.Fprintf(env.Stderr, "deup campaign %s: %d of %d drugs have no usable structure and are left out with their pairs:\n", cmd, len(un.Left), un.Drugs)
		for _, l := range un.Left {
			fmt.Fprintf(env.Stderr, "  %s\n", l)
		}
	}
	if err != nil {
		return nil, usageIfSetting(err)
	}
	if t.Skipped > 0 {
		fmt.Fprintf(env.Stderr, "deup campaign %s: %d pairs without a %s score left out\n", cmd, t.Skipped, t.Screen.ScoreNames[t.Score])
	}
	return t, nil
}

// usageIfSetting marks a campaign setting a screen or campaign refuses
// (*campaign.SettingError) as a usage error.
func usageIfSetting(err error) error {
	var se *campaign.SettingError
	if errors.As(err, &se) {
		return fmt.Errorf("%w: %v", cmdline.ErrUsage, hint(err))
	}
	return err
}

// campaignLineFlags defines --cell-line, and --cell-lines and --per-line
// of a campaign that proposes batches across the lines of a panel.
func campaignLineFlags(fs *flag.FlagSet) (cellLine, cellLines *string, perLine *int) {
	cellLine = fs.String("cell-line", "", "cell line (required when the screen has several, unless --cell-lines)")
	cellLines = fs.String("cell-lines", "", "a campaign across several cell lines of a panel: all, or A,B,… (instead of --cell-line)")
	perLine = fs.Int("per-line", 0, "with --cell-lines: at most N ≥ 1 pairs of any one cell line per batch (default: no cap), the rule of deup suggest --per-line")
	return cellLine, cellLines, perLine
}

//go:embed help/campaignInit.txt
var campaignInitDesc string

type campaignInitFlags struct {
	dir, screenDir, cellLine, cellLines, score, candidates, fromModel string
	cellFeatures                                                      string
	initN                                                             int
	cfg                                                               active.Config // the settings the flags give
}

func parseCampaignInitFlags(env Env, args []string) (*campaignInitFlags, error) {
	fs := newFlagSet(env, "deup campaign init", "deup campaign init [--screen DIR | --from-model MODEL] [--mode live|retrospective] [flags] CAMPAIGN", campaignInitDesc)
	screenDir := screenFlag(fs)
	mode := fs.String("mode", active.Live, "live or retrospective")
	cellLine, cellLines, perLine := campaignLineFlags(fs)
	score := scoreFlag(fs)
	initN := fs.Int("init", 0, "retrospective: initial measured pairs (default: 10% of the screen)")
	candidates := fs.String("candidates", "", "live: CSV of candidate pairs (drug_a_id, drug_b_id: ids, PubChem CIDs or names) instead of all unmeasured pairs")
	batch := fs.Int("batch", 30, "suggestions per round")
	rounds := fs.Int("rounds", 0, "rounds to run (0: no limit; retrospective default 10)")
	acq := fs.String("acquisition", "ucb", "acquisition function")
	explore := exploreFlag(fs)
	modelName := fs.String("model", "deup-net", "surrogate model: "+strings.Join(surrogate.Names, ", "))
	feat := campaignFeaturesFlag(fs)
	perDrug := maxPerDrugFlag(fs)
	seed := cmdline.SeedFlag(fs, "seed of the initial set, the models and the random draws")
	fromModel := fs.String("from-model", "", "model file from deup train: the campaign runs on the screen, cell line and score it was trained on (unless --screen, --cell-line, --score say otherwise)")
	cellFeatures := fs.String("cell-features", "", "with --cell-lines and a network model (deup-net, ensemble-net, mcdropout-net, twohead-net): table (.csv, .parquet, .arrow) with a cell_line column and numeric columns, features of the screen's lines that each round's network maps into its line embedding, as deup train --cell-features")
	pos, err := cmdline.ParseWant(fs, args, 1, 1)
	if err != nil {
		return nil, err
	}
	// Every flag value is checked before anything is announced or created.
	if err := cmdline.NeedFile("--candidates", *candidates, pairsWhat); err != nil {
		return nil, err
	}
	if err := cmdline.NeedFile("--cell-features", *cellFeatures, cellFeaturesWhat); err != nil {
		return nil, err
	}
	if *cellFeatures != "" && (*cellLines == "" || !strings.HasSuffix(*modelName, "-net")) {
		return nil, fmt.Errorf("%w: --cell-features goes with --cell-lines and a network model (deup-net, ensemble-net, mcdropout-net, twohead-net), not --model %s", cmdline.ErrUsage, *modelName)
	}
	if err := cmdline.Check(
		cmdline.Want(*batch >= 1, "--batch %d: want at least 1 suggestion per round", *batch),
		cmdline.Want(*rounds >= 0, "--rounds %d: want 0 (no limit) or more", *rounds),
		cmdline.Want(*initN >= 0, "--init %d: want 0 (10%% of the screen) or more", *initN),
		cmdline.Want(*mode == active.Live || *mode == active.Retrospective, "--mode %q: want live or retrospective", *mode),
		cmdline.Want(*perLine >= 1 || !cmdline.IsSet(fs, "per-line"), "--per-line %d: want N ≥ 1 (leave the flag out for no cap)", *perLine),
	); err != nil {
		return nil, err
	}
	if _, err := active.ParseAcquisition(*acq); err != nil {
		return nil, cmdline.FlagError("--acquisition", err)
	}
	if err := surrogate.CheckName(*modelName); err != nil {
		return nil, cmdline.FlagError("--model", err)
	}
	if err := checkExploreFlag(*explore); err != nil {
		return nil, err
	}
	if err := campaign.CheckFree(pos[0]); err != nil {
		return nil, err
	}
	cfg := active.Config{Mode: *mode, Acquisition: *acq, Model: *modelName, Features: *feat, Batch: *batch, Rounds: *rounds,
		MaxPerDrug: perDrug.resolve(*batch), MaxPerLine: *perLine, Explore: *explore, Seed: *seed}
	return &campaignInitFlags{dir: pos[0], screenDir: *screenDir, cellLine: *cellLine, cellLines: *cellLines, score: *score, candidates: *candidates,
		fromModel: *fromModel, cellFeatures: *cellFeatures, initN: *initN, cfg: cfg}, nil
}

func runCampaignInit(ctx context.Context, env Env, reg *methods.Registry, args []string) error {
	o, err := parseCampaignInitFlags(env, args)
	if err != nil {
		return err
	}
	if err := campaignFromModel(env, reg, o); err != nil {
		return err
	}
	t, err := campaignTable(env, "init", o.screenDir, o.score, o.cellLine, o.cellLines)
	if err != nil {
		return err
	}
	o.cfg.Screen = o.screenDir // --from-model's when not given
	if o.cfg.LineFeatures, err = campaignLineFeatures(env.Stdout, o.cellFeatures, t.Screen.CellLines); err != nil {
		return err
	}
	c, err := campaign.Init(o.dir, o.cfg, t, o.initN, o.candidates)
	if err != nil {
		return usageIfSetting(err)
	}
	cfg := c.Config
	fmt.Fprintf(env.Stdout, "campaign %s: %s mode on %s (%s, %s), %d initial pairs, %d candidates, batch %d, %s with %s, %s%s\n",
		o.dir, cfg.Mode, screenLabel(cfg.Screen), t.Label, cfg.Score, c.Initial(), len(c.Pool()), cfg.Batch, cfg.Model, cfg.Acquisition, maxPerDrugNote(cfg.MaxPerDrug), maxPerLineNote(cfg.MaxPerLine))
	if cfg.Explore > 0 {
		fmt.Fprintf(env.Stdout, "explore %g: each round ranks by (1 - %g) r(%s) + %g r(sigma_epistemic)\n", cfg.Explore, cfg.Explore, cfg.Acquisition, cfg.Explore)
	}
	return nil
}

// campaignLineFeatures reads --cell-features (path; nil for "") for the
// campaign's lines, standardized as deup train standardizes them (over
// every line of the table), and says so on w: campaign init and campaign
// simulate give them to each round's network.
func campaignLineFeatures(w io.Writer, path string, lines []string) ([][]float64, error) {
	if path == "" {
		return nil, nil
	}
	cf, err := drugcomb.ReadCellFeatures(path)
	if err != nil {
		return nil, err
	}
	x, err := cf.Standardized(lines)
	if err != nil {
		return nil, fmt.Errorf("%w: --cell-features: %v", cmdline.ErrUsage, err)
	}
	fmt.Fprintf(w, "cell-line features: %s, %d columns, given to each round's network\n", path, len(cf.Names))
	return x, nil
}

// campaignFromModel applies --from-model: the screen, cell line and score
// the model was trained on, where the flags do not say otherwise.
func campaignFromModel(env Env, reg *methods.Registry, o *campaignInitFlags) error {
	if o.fromModel == "" {
		return nil
	}
	m, err := campaign.FromModelFile(o.fromModel, reg.Load, campaign.Target{Dir: o.screenDir, CellLine: o.cellLine, Score: o.score})
	err = modelFileHint(err)
	if errors.Is(err, trained.ErrNoMeta) {
		return errNoMeta(o.fromModel, "--screen DIR")
	}
	if err != nil {
		return err
	}
	o.screenDir, o.cellLine, o.score = m.Dir, m.CellLine, m.Score
	fmt.Fprintf(env.Stderr, "deup campaign init: screen %s, cell line %s, score %s from %s (%s, trained on %d pairs)\n",
		screenLabel(o.screenDir), o.cellLine, o.score, o.fromModel, m.Model.Method.Name(), m.Model.Meta.Screen.Pairs)
	return nil
}

func screenLabel(s string) string {
	if s == "" {
		return fmt.Sprintf("the synthetic default screen (seed %d)", synthSeed)
	}
	return s
}

// openCampaignParts parses a command line whose one argument is a campaign
// directory and opens that campaign with its surrogate and oracle
// (campaign.Screens.OpenParts); the caller closes it.
func openCampaignParts(fs *flag.FlagSet, args []string) (string, *campaign.Opened, error) {
	pos, err := cmdline.ParseWant(fs, args, 1, 1)
	if err != nil {
		return "", nil, err
	}
	o, err := campaignScreens().OpenParts(pos[0])
	return pos[0], o, err
}

//go:embed help/campaignStep.txt
var campaignStepDesc string

func runCampaignStep(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup campaign step", "deup campaign step CAMPAIGN", campaignStepDesc)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the round to this file (go tool pprof reads it)")
	dir, o, err := openCampaignParts(fs, args)
	if err != nil {
		return err
	}
	defer o.Close()
	if *cpuProfile != "" {
		stop, err := cmdline.CPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	c, oracle := o.Campaign, o.Oracle
	open := c.Open()
	r, err := stepRound(ctx, env, o)
	if err != nil {
		return err
	}
	if open != nil {
		fmt.Fprintf(env.Stdout, "round %d: measured the %d missing results\n", r.Index, len(r.Measured))
	}
	campaign.WriteRound(env.Stdout, c, r)
	if open == nil {
		fmt.Fprintf(env.Stdout, "batch diversity: %s%s, set at campaign init\n", maxPerDrugNote(c.Config.MaxPerDrug), maxPerLineNote(c.Config.MaxPerLine))
	}
	if oracle == nil {
		fmt.Fprintf(env.Stdout, "export it: deup suggest --campaign %s --out round%d.csv\n", dir, r.Index)
	}
	return nil
}

//go:embed help/campaignResume.txt
var campaignResumeDesc string

func runCampaignResume(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup campaign resume", "deup campaign resume CAMPAIGN", campaignResumeDesc)
	dir, o, err := openCampaignParts(fs, args)
	if err != nil {
		return err
	}
	defer o.Close()
	c := o.Campaign
	switch o.Resumption() {
	case campaign.Waiting:
		r := c.Open()
		fmt.Fprintf(env.Stdout, "round %d is waiting for %d of %d results: import them with 'deup campaign import-results %s FILE'\n",
			r.Index, len(r.Suggestions)-len(r.Measured), len(r.Suggestions), dir)
		return nil
	case campaign.Complete:
		fmt.Fprintf(env.Stdout, "campaign complete: %d rounds\n", len(c.Rounds()))
		return nil
	case campaign.ProposeOne:
		r, err := stepRound(ctx, env, o)
		if err != nil {
			return err
		}
		campaign.WriteRound(env.Stdout, c, r)
		fmt.Fprintf(env.Stdout, "export it: deup suggest --campaign %s --out round%d.csv\n", dir, r.Index)
		return nil
	}
	bar := progress.New(env.Stderr, "campaign", c.Config.Rounds)
	bar.Set(len(c.Rounds()))
	err = campaign.Run(ctx, c, o.Surrogate, o.Oracle, func(r *active.Round) {
		bar.Set(len(c.Rounds()), fmt.Sprintf("best %.4g", c.Best()))
		if r.Complete() {
			campaign.WriteRound(env.Stdout, c, r)
		}
	})
	if err != nil && errors.Is(err, context.Canceled) {
		return fmt.Errorf("stopped after %d rounds, which are kept: 'deup campaign resume %s' continues (%w)", len(c.Rounds()), dir, err)
	}
	if err != nil {
		return batchHint(err)
	}
	el := bar.Finish()
	fmt.Fprintf(env.Stdout, "campaign complete: %d rounds, %d pairs measured, best %.4g (%s)\n", len(c.Rounds()), len(c.Measured()), c.Best(), el.Round(time.Millisecond))
	return nil
}

//go:embed help/campaignImport.txt
var campaignImportDesc string

func runCampaignImport(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup campaign import-results", "deup campaign import-results CAMPAIGN FILE [--close]", campaignImportDesc)
	closeRound := fs.Bool("close", false, "close the round after this import, returning unmeasured suggestions to the pool")
	plates := fs.Bool("plates", false, "FILE is a plate readout: score its blocks as deup data synergy does")
	plateScore := fs.String("plate-score", "", plateScoreUsage())
	plateUnit := fs.String("response", "", "with --plates: response unit, inhibition or viability (default: from the column name)")
	pos, err := cmdline.ParseWant(fs, args, 2, 2)
	if err != nil {
		return err
	}
	if err := cmdline.NeedFile("", pos[1], resultsWhat); err != nil {
		return err
	}
	l, c, err := campaign.Open(pos[0])
	if err != nil {
		return err
	}
	defer l.Close()
	var pl *campaign.Plates
	if *plates {
		pl = &campaign.Plates{Score: *plateScore, Unit: *plateUnit}
	}
	rd, n, err := campaign.Import(env.Stdout, c, pos[1], pl)
	if err != nil {
		return usageIfSetting(err)
	}
	fmt.Fprintf(env.Stdout, "round %d: recorded %d results (%d of %d measured)\n", rd.Index, n, len(rd.Measured), len(rd.Suggestions))
	if *closeRound && c.Open() != nil {
		if err := c.CloseRound(); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "round %d closed: %d unmeasured suggestions returned to the pool\n", rd.Index, len(rd.Suggestions)-len(rd.Measured))
	}
	return nil
}

//go:embed help/campaignReport.txt
var campaignReportDesc string

func runCampaignReport(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup campaign report", "deup campaign report CAMPAIGN [--json FILE]", campaignReportDesc)
	jsonOut := fs.String("json", "", "also write the report as JSON to FILE")
	pos, err := cmdline.ParseWant(fs, args, 1, 1)
	if err != nil {
		return err
	}
	dir := pos[0]
	l, c, err := campaign.Open(dir)
	if err != nil {
		return err
	}
	if err := cmdline.NeedOutDir("--json", *jsonOut); err != nil {
		l.Close()
		return err
	}
	defer l.Close()
	rep, err := campaignScreens().Report(c)
	if err != nil {
		return err
	}
	if err := rep.WriteText(env.Stdout, dir); err != nil {
		return err
	}
	if *jsonOut != "" {
		return rep.WriteJSON(*jsonOut)
	}
	return nil
}

//go:embed help/campaignSimulate.txt
var campaignSimulateDesc string

type simulateFlags struct {
	screenDir, cellLine, cellLines, score, out string
	cellFeatures                               string          // --cell-features, as campaign init's
	cfg                                        simulate.Config // the settings the flags give
}

func parseSimulateFlags(env Env, args []string) (*simulateFlags, error) {
	fs := newFlagSet(env, "deup campaign simulate", "deup campaign simulate [--screen DIR] [--init N] [--batch B] [--rounds R] [--acquisition LIST] [--seeds S] --out DIR", campaignSimulateDesc)
	screenDir := screenFlag(fs)
	cellLine, cellLines, perLine := campaignLineFlags(fs)
	score := scoreFlag(fs)
	initN := fs.Int("init", 0, "initial measured pairs (default: 10% of the screen)")
	batch := fs.Int("batch", 30, "pairs per round")
	rounds := fs.Int("rounds", 10, "rounds per run")
	acqs := fs.String("acquisition", "deup-ridge-ucb,deup-ridge-ei,deup-ridge-thompson,greedy,explore,random,ensemble-ucb", "comma-separated strategies")
	explore := exploreFlag(fs)
	seeds := fs.Int("seeds", 3, "runs per strategy")
	seed := cmdline.SeedFlag(fs, "seed of the first run (run s uses seed+s)")
	perDrug := maxPerDrugFlag(fs)
	feat := campaignFeaturesFlag(fs)
	cellFeatures := fs.String("cell-features", "", "with --cell-lines and network strategies (deup-net-*, ensemble-net-*, ...): as campaign init's, features of the lines that each round's network maps into its line embedding")
	topFrac := fs.Float64("top-frac", 0.01, "fraction of the best pairs counted as found (RECOVER: 0.01)")
	workers := cmdline.WorkersFlag(fs, 0, "runs")
	out := fs.String("out", "", "output directory")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return nil, err
	}
	if *out == "" {
		return nil, cmdline.UsageError(fs, "deup campaign simulate: --out is required")
	}
	// Every flag value is checked before anything is announced or written.
	if !(*topFrac > 0 && *topFrac < 1) {
		return nil, fmt.Errorf("%w: --top-frac %v: want 0 < f < 1", cmdline.ErrUsage, *topFrac)
	}
	if err := checkExploreFlag(*explore); err != nil {
		return nil, err
	}
	if err := cmdline.Check(
		cmdline.Want(*seeds >= 1, "--seeds %d: want at least 1 run per strategy", *seeds),
		cmdline.Want(*batch >= 1, "--batch %d: want at least 1 pair per round", *batch),
		cmdline.Want(*rounds >= 1, "--rounds %d: want at least 1 round", *rounds),
		cmdline.Want(*initN >= 0, "--init %d: want 0 (10%% of the screen) or more", *initN),
		cmdline.WorkersRule(*workers),
		cmdline.Want(*perLine >= 1 || !cmdline.IsSet(fs, "per-line"), "--per-line %d: want N ≥ 1 (leave the flag out for no cap)", *perLine),
	); err != nil {
		return nil, err
	}
	o := &simulateFlags{screenDir: *screenDir, cellLine: *cellLine, cellLines: *cellLines, score: *score, out: *out, cfg: simulate.Config{Init: *initN,
		Batch: *batch, Rounds: *rounds, MaxPerDrug: perDrug.resolve(*batch), MaxPerLine: *perLine, Seeds: *seeds, Seed0: *seed, TopFrac: *topFrac,
		Features: *feat, Workers: cmdline.Workers(*workers), Explore: *explore}}
	for _, n := range strings.Split(*acqs, ",") {
		st, err := simulate.ParseStrategy(strings.TrimSpace(n))
		if err != nil {
			return nil, cmdline.FlagError("--acquisition", err)
		}
		o.cfg.Strategies = append(o.cfg.Strategies, st)
	}
	if err := cmdline.NeedFile("--cell-features", *cellFeatures, cellFeaturesWhat); err != nil {
		return nil, err
	}
	if o.cellFeatures = *cellFeatures; o.cellFeatures != "" && (*cellLines == "" || !anyNetStrategy(o.cfg.Strategies)) {
		return nil, fmt.Errorf("%w: --cell-features goes with --cell-lines and a network strategy (deup-net-*, ensemble-net-*, mcdropout-net-*, twohead-net-*)", cmdline.ErrUsage)
	}
	return o, nil
}

// anyNetStrategy reports whether a strategy's model is a network (its
// name ends in -net), the models that read cell-line features.
func anyNetStrategy(sts []simulate.Strategy) bool {
	for _, st := range sts {
		if strings.HasSuffix(st.Model, "-net") {
			return true
		}
	}
	return false
}

func runCampaignSimulate(ctx context.Context, env Env, args []string) error {
	o, err := parseSimulateFlags(env, args)
	if err != nil {
		return err
	}
	start := env.Time()
	t, err := campaignTable(env, "simulate", o.screenDir, o.score, o.cellLine, o.cellLines)
	if err != nil {
		return err
	}
	cfg, err := t.SimConfig(o.cfg)
	if err != nil {
		return usageIfSetting(err)
	}
	if cfg.LineFeatures, err = campaignLineFeatures(env.Stderr, o.cellFeatures, t.Screen.CellLines); err != nil {
		return err
	}
	top := active.TopFraction(t.Oracle, cfg.TopFrac)
	fmt.Fprintf(env.Stderr, "simulating %d strategies x %d seeds x %d rounds on %s (%s, %d pairs, top %g%% = %d pairs), %d initial, batch %d, %s%s\n",
		len(cfg.Strategies), cfg.Seeds, cfg.Rounds, screenLabel(o.screenDir), t.Label, len(t.Oracle), 100*cfg.TopFrac, len(top), cfg.Init, cfg.Batch, maxPerDrugNote(cfg.MaxPerDrug), maxPerLineNote(cfg.MaxPerLine))
	if cfg.Explore > 0 {
		fmt.Fprintf(env.Stderr, "explore %g: every strategy but random ranks by (1 - %g) r(acquisition) + %g r(sigma_epistemic)\n", cfg.Explore, cfg.Explore, cfg.Explore)
	}
	bar := progress.New(env.Stderr, "simulate", len(cfg.Strategies)*cfg.Seeds*cfg.Rounds)
	done := 0
	rep, traces, err := t.Simulate(ctx, cfg, func(p simulate.Progress) {
		done++
		bar.Set(done, fmt.Sprintf("%s seed %d round %d", p.Strategy, p.Seed, p.Round))
	})
	if err != nil {
		return err
	}
	bar.Finish()
	rep.Screen, rep.TopPairs, rep.WallSeconds = screenLabel(o.screenDir), len(top), jsonfloat.Float(env.Since(start).Seconds())
	title := fmt.Sprintf("%s %s", filepath.Base(screenLabel(o.screenDir)), t.Label)
	if err := simreport.WriteAll(o.out, rep, traces, title); err != nil {
		return err
	}
	if err := rep.WriteText(env.Stdout, traces); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "(mean ± standard error over %d seeds after %d rounds; %d of %d pairs measured)\nwrote %s/{report.json,runs.csv,summary.csv,simulation.png,simulation.svg} in %s\n",
		cfg.Seeds, cfg.Rounds, rep.Measured[cfg.Rounds], len(t.Oracle), o.out, env.Since(start).Round(time.Millisecond))
	return nil
}
