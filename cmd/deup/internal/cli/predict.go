package cli

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/buildinfo"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/internal/tabular"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/predict"
	"github.com/deup-screening/deup/scores"
	"github.com/deup-screening/deup/trained"
)

func predictCommand(reg *methods.Registry) *cmdline.Command {
	return &cmdline.Command{Name: "predict", Short: "predict synergy and its uncertainty for drug pairs with a trained model", Run: withMethods(reg, runPredict)}
}

//go:embed help/predict.txt
var predictDesc string

type predictArgs struct {
	model, pairs, screen, drugs, idCol, smilesCol, out, cellLines string
	cellFeatures                                                  string
	all, hive, interval                                           bool
	shard                                                         scores.Shard
	coverage                                                      float64
}

func parsePredict(env Env, args []string) (*predictArgs, error) {
	fs := newFlagSet(env, "deup predict", "deup predict --model MODEL (--pairs FILE | --all-pairs) [--screen DIR | --drugs FILE] [--shard i/N] --out FILE|DIR", predictDesc)
	a := &predictArgs{}
	fs.StringVar(&a.model, "model", "", modelUsage)
	fs.StringVar(&a.pairs, "pairs", "", "CSV of pairs (drug_a_id, drug_b_id: ids, PubChem CIDs or names; a cell_line column scores each row on its own line; other columns passed through)")
	fs.BoolVar(&a.all, "all-pairs", false, "score every unordered pair of the drugs")
	fs.StringVar(&a.screen, "screen", "", "screen directory whose drugs to score instead of the model's")
	fs.StringVar(&a.drugs, "drugs", "", "CSV catalogue of drugs (id, smiles) to score instead of the model's")
	fs.StringVar(&a.idCol, "drug-id-col", "", "with --drugs: the id column (default: the first of id, drug_id, pubchem_cid, pubchemid, cid, ...)")
	fs.StringVar(&a.smilesCol, "smiles-col", "", "with --drugs: the SMILES column (default: the first of smiles, isosmiles, canonical_smiles, ...)")
	fs.StringVar(&a.out, "out", "", "output file: .arrow, .parquet or .csv; or a directory for hive-partitioned Parquet (DIR/cell_line=X/part-i-of-N.parquet)")
	shardFlag := fs.String("shard", "", "score only shard i of N of the pairs: i/N (0 ≤ i < N), or env/N for i from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX (default: all)")
	fs.StringVar(&a.cellLines, "cell-lines", "", "with a model trained on a panel: the cell lines to score every pair on, all or A,B,… (default: all; one row per pair and line)")
	fs.StringVar(&a.cellFeatures, "cell-features", "", cellFeaturesPredictUsage)
	fs.Float64Var(&a.coverage, "coverage", 0, "add lower and upper columns: the calibrated interval at this coverage in (0, 1), e.g. 0.9 (default: none)")
	_, err := cmdline.ParseWant(fs, args, 0, 0)
	if err != nil {
		return nil, err
	}
	switch {
	case a.model == "" || a.out == "":
		return nil, cmdline.UsageError(fs, "deup predict: --model and --out are required")
	case (a.pairs == "") == !a.all:
		return nil, cmdline.UsageError(fs, "deup predict: give exactly one of --pairs and --all-pairs")
	case a.screen != "" && a.drugs != "":
		return nil, fmt.Errorf("%w: deup predict: give at most one of --screen and --drugs", cmdline.ErrUsage)
	}
	a.shard = scores.Whole
	if *shardFlag != "" {
		if a.shard, err = scores.ParseShard(*shardFlag, os.Getenv); err != nil {
			return nil, fmt.Errorf("%w: --shard: %v", cmdline.ErrUsage, err)
		}
	}
	var outCheck error // a hive directory (--out without an extension) is created as needed
	if a.hive = filepath.Ext(a.out) == ""; !a.hive {
		if _, err := tabular.FormatOf(a.out); err != nil {
			return nil, fmt.Errorf("%w: output %s: extension must be .arrow, .parquet or .csv", cmdline.ErrUsage, a.out)
		}
		outCheck = cmdline.NeedOutDir("--out", a.out)
	}
	for _, err := range []error{cmdline.NeedFile("--pairs", a.pairs, pairsWhat), cmdline.NeedFile("--drugs", a.drugs, catalogueWhat), cmdline.NeedFile("--cell-features", a.cellFeatures, cellFeaturesWhat), outCheck} {
		if err != nil {
			return nil, err
		}
	}
	if a.interval = cmdline.IsSet(fs, "coverage"); a.interval {
		if err := checkCoverage(a.coverage); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func runPredict(ctx context.Context, env Env, reg *methods.Registry, args []string) error {
	a, err := parsePredict(env, args)
	if err != nil {
		return err
	}
	start := env.Time()
	tm, err := readModel(reg, a.model)
	if err != nil {
		return err
	}
	if _, err := addCellLines(env, "predict", a.cellFeatures, a.model, tm); err != nil {
		return err
	}
	t := &predict.Table{}
	if a.interval {
		if t.Cal, err = predict.Calibration(tm, a.model, a.coverage); err != nil {
			return fmt.Errorf("%w: %v", cmdline.ErrUsage, hint(err))
		}
		t.Coverage = a.coverage
		fmt.Fprintf(env.Stderr, "deup predict: lower and upper at %g%% coverage from the calibration stored in %s: %s held out of training\n", 100*a.coverage, a.model, t.Cal)
	}
	drugs, sigDir, err := predictDrugs(env, a, tm)
	if err != nil {
		return err
	}
	f, kept, err := modelFeatures(env, "predict", "and are skipped", tm, drugs, sigDir)
	if err != nil {
		return err
	}
	featTime := env.Since(start)
	job, w, err := a.open(env, tm, drugs, kept, t)
	if err != nil {
		return err
	}
	bar := progress.New(env.Stderr, "predict", job.Rows())
	predStart := env.Time()
	done, err := predict.Run(ctx, tm.Method, f, job, w, func(n int) { bar.Set(n) })
	if err != nil {
		return err
	}
	bar.Finish()
	el := env.Since(predStart)
	dest := a.out
	if a.hive {
		dest = w.Path()
	}
	if a.shard != scores.Whole {
		dest += fmt.Sprintf(" (shard %s: pairs [%d, %d) of %d)", a.shard, job.Lo, job.Hi, predict.Total(job.Pairs, len(kept)))
	}
	fmt.Fprintf(env.Stdout, "wrote %d pairs of %d drugs to %s in %s (features %s, prediction %s, %.0f pairs/s)\n",
		done, len(kept), dest, env.Since(start).Round(time.Millisecond), featTime.Round(time.Millisecond), el.Round(time.Millisecond), float64(done)/el.Seconds())
	fmt.Fprintf(env.Stdout, "%s\n", tm.Method.AleatoricNote())
	return nil
}

// predictDrugs returns the drugs predict scores (--drugs, else
// predict.ModelDrugs: --screen or the model's own) and the directory of
// their signatures ("" for the model's).
func predictDrugs(env Env, a *predictArgs, tm *trained.Bundle) ([]drugcomb.Drug, string, error) {
	if a.drugs != "" {
		drugs, err := readDrugsCSV(env, "predict", a.drugs, a.idCol, a.smilesCol)
		return drugs, "", err
	}
	drugs, own, err := predict.ModelDrugs(tm, a.screen)
	if err != nil {
		return nil, "", modelError(a.model, "--screen DIR or --drugs FILE", err)
	}
	if own {
		fmt.Fprintf(env.Stderr, "deup predict: the %d drugs %s was trained on (%s, %s); --screen or --drugs scores others\n", len(drugs), a.model, tm.Meta.Screen, modelLines(tm.Meta.Screen.CellLine, tm.Meta.Screen.CellLines))
	}
	return drugs, a.screen, nil
}

// open fills t (the drugs, lines, measured values and pairs-file columns
// of the rows) and returns the rows to score and the writer of --out.
func (a *predictArgs) open(env Env, tm *trained.Bundle, drugs []drugcomb.Drug, kept []int, t *predict.Table) (predict.Job, *predict.Writer, error) {
	lines, one, err := t.ForModel(tm, a.cellLines)
	if err != nil {
		return predict.Job{}, nil, fmt.Errorf("%w: %v", cmdline.ErrUsage, hint(err))
	}
	bi, ok := debug.ReadBuildInfo()
	p := predict.Plan{Out: a.out, Hive: a.hive, Pairs: a.pairs, Lines: lines, LinesGiven: a.cellLines != "", Shard: a.shard, Model: a.model, Program: buildinfo.Line(bi, ok, env.Stamp)}
	job, w, err := predict.Open(p, drugs, kept, one, t)
	var ul *predict.UnknownLineError
	switch {
	case errors.Is(err, predict.ErrNoCellLine):
		err = fmt.Errorf("%w: --out DIR: %s does not record its cell line (a model file from an older deup): retrain it, or write one file (--out FILE.parquet)", cmdline.ErrUsage, a.model)
	case errors.Is(err, predict.ErrLinesTwice):
		err = fmt.Errorf("%w: --cell-lines %s: %s %v: drop --cell-lines, or the column", cmdline.ErrUsage, a.cellLines, a.pairs, err)
	case errors.As(err, &ul) && ul.Name != "" && a.cellFeatures != "":
		err = fmt.Errorf("%w: %v; --cell-features %s has no row for it", cmdline.ErrUsage, err, a.cellFeatures)
	case errors.As(err, &ul) && ul.Name != "":
		err = fmt.Errorf("%w: %v: score the model's lines, or give --cell-features FILE with the line's features (for a model trained with cell-line features)", cmdline.ErrUsage, err)
	}
	if err != nil {
		return job, w, err
	}
	// With --drugs the measured values are the model's screen's, matched by
	// drug id or PubChem CID (Table.MatchScreen).
	changed, missing, err := t.LookUpMeasured(tm, a.screen)
	switch {
	case err != nil:
		w.Abort()
		return job, nil, err
	case missing != nil && a.drugs != "":
		fmt.Fprintf(env.Stderr, "deup predict: note: measured values not looked up (%v): measured is false for every pair\n", missing)
	case missing != nil:
		fmt.Fprintf(env.Stderr, "deup predict: note: measured values not looked up (%v): measured is false for every pair; give --screen DIR to look them up\n", hint(modelError(a.model, "--screen DIR", missing)))
	case changed:
		pairsChangedNote(env, "predict", a.model, tm)
	}
	return job, w, nil
}

// readDrugsCSV reads a drug catalogue (the importer's catalogue reader:
// any table format, the common spellings of the id, CID and SMILES columns,
// or the columns idCol and smilesCol name). Rows it leaves out (duplicates,
// rows without a key) are counted on stderr; a catalogue without a SMILES
// column, or whose SMILES column is empty, is an error naming its columns.
func readDrugsCSV(env Env, cmd, path, idCol, smilesCol string) ([]drugcomb.Drug, error) {
	cat, err := readCatalogue(path, idCol, smilesCol)
	if err != nil {
		return nil, err
	}
	if err := cat.CheckSMILES(); err != nil {
		return nil, fmt.Errorf("%w: %v: name the SMILES column with --smiles-col", cmdline.ErrUsage, err)
	}
	for _, t := range cat.Notes {
		fmt.Fprintf(env.Stderr, "deup %s: %s: %d rows left out: %s\n", cmd, path, t.Count, t.Reason)
	}
	return cat.Drugs, nil
}

// linesPhrase names the cell lines a model was trained on, for a message:
// "cell line X" for one line, and for a panel its count and first few
// lines, "43 cell lines (786-0, A498, …)".
func linesPhrase(lines []string) string {
	if len(lines) < 2 {
		return "cell line " + strings.Join(lines, "")
	}
	const shown = 5
	names := strings.Join(lines[:min(shown, len(lines))], ", ")
	if len(lines) > shown {
		names += ", …"
	}
	return fmt.Sprintf("%d cell lines (%s)", len(lines), names)
}

// modelLines is linesPhrase of a model's lines: its panel, or its one line.
func modelLines(one string, panel []string) string {
	if len(panel) < 2 {
		return linesPhrase([]string{one})
	}
	return linesPhrase(panel)
}

// cellFeaturesPredictUsage is the usage of --cell-features in predict,
// suggest and campaign (train's and bench's train on the features).
const cellFeaturesPredictUsage = "table (.csv, .parquet, .arrow) with a cell_line column and the numeric columns the model was trained with (deup train --cell-features): its lines the model does not know are scored from their features; it must hold the model's lines too, with the values trained on"

// cellFeaturesWhat says what --cell-features names, for a missing file.
const cellFeaturesWhat = "a cell-line feature table (cell_line and numeric columns)"

// addCellLines applies --cell-features path (predict.AddLines) to the
// model tm read from modelPath, says on stderr which lines it added and
// returns them; nothing for "".
func addCellLines(env Env, cmd, path, modelPath string, tm *trained.Bundle) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	cf, err := drugcomb.ReadCellFeatures(path)
	if err != nil {
		return nil, err
	}
	added, err := predict.AddLines(tm, cf)
	switch {
	case errors.Is(err, predict.ErrNoFeatures), errors.Is(err, predict.ErrNotLineAdder):
		return nil, fmt.Errorf("%w: %s: %v", cmdline.ErrUsage, modelPath, err)
	case errors.Is(err, trained.ErrNoMeta):
		return nil, modelError(modelPath, "--cell-features", err)
	case err != nil:
		return nil, fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	case len(added) == 0:
		fmt.Fprintf(env.Stderr, "deup %s: --cell-features %s: every line of it is one of %s's; none added\n", cmd, path, modelPath)
	default:
		fmt.Fprintf(env.Stderr, "deup %s: --cell-features %s: %d line(s) %s was not trained on, scored from their features alone: %s\n", cmd, path, len(added), modelPath, strings.Join(added, ", "))
	}
	return added, nil
}

// withLines is sc with the lines of added it lacks appended (no pairs
// measured on them): the lines a model given --cell-features scores.
func withLines(sc *drugcomb.Screen, added []string) *drugcomb.Screen {
	lines := slices.Clone(sc.CellLines)
	for _, l := range added {
		if drugcomb.IndexName(lines, l) < 0 {
			lines = append(lines, l)
		}
	}
	if len(lines) == len(sc.CellLines) {
		return sc
	}
	c := *sc
	c.CellLines = lines
	return &c
}
