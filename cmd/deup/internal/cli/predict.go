package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/internal/tabular"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/trained"
	"github.com/deup-screening/deup/scores"
	"github.com/deup-screening/deup/uq"
)

func predictCommand() *Command {
	return &Command{Name: "predict", Short: "predict synergy and its uncertainty for drug pairs with a trained model", Run: runPredict}
}

const predictDesc = `Writes, for each pair, drug_a_id, drug_b_id, drug_a_name, drug_b_name,
cell_line and score (the model's cell line and score name), mu, sigma_total,
sigma_epistemic and sigma_aleatoric (score units), measured (whether the pair
was measured in that cell line in the model's screen, or --screen's) and
measured_mean (the measured mean score; empty/null when not measured; not
looked up with --drugs), as Arrow IPC (.arrow), Parquet (.parquet) or CSV
(.csv), chosen by the extension of --out.

The drugs are, by default, the ones the model was trained on (the model file
records them, with their signatures for fp+sig models). To score other drugs,
give --screen DIR (a screen from deup data import: its drugs and, for fp+sig
models, its signatures) or --drugs FILE (a CSV catalogue: an id column such as
id, drug_id, pubchem_cid, pubchemid or cid, and a SMILES column such as
smiles, isosmiles or canonical_smiles; --drug-id-col and --smiles-col name
others; drugs whose SMILES cannot be read are skipped and counted; an fp+sig
model uses the signatures its file carries and leaves out drugs without one).

--pairs FILE is a CSV with drug_a_id and drug_b_id (or drug_a and drug_b)
columns holding drug ids, PubChem CIDs or names (matched as campaign
import-results matches them); its other columns (e.g. well, notes) are
written back after the prediction columns;
--all-pairs scores every unordered pair of distinct drugs (the tower runs once
per drug, then the combined network once per pair), in a fixed order: drugs
sorted by id (byte order), pairs (a, b) with a before b, a-major.

--shard i/N scores only the i-th (0 ≤ i < N) of N contiguous ranges of that
order (or of the --pairs file's rows): the N outputs together hold every row
of the unsharded run once, with the same values. --shard env/N takes i from
SLURM_ARRAY_TASK_ID (a Slurm array, --array=0-N-1) or JOB_COMPLETION_INDEX (a
Kubernetes Indexed Job).

--out DIR (a path without a table extension) writes hive-partitioned Parquet:
DIR/cell_line=X/part-i-of-N.parquet (part-0-of-1 without --shard), without
the cell_line column (readers take it from the directory), written under a
temporary name and renamed when complete, with the model's, the drugs' and
the program's identity in its metadata. deup scores check DIR verifies that
the parts are complete and prints a checksum equal to a one-process run's.

--coverage C (e.g. 0.9) adds the columns lower and upper: the interval that
holds the measured score with probability C, from the calibration deup train
stored in the model (split-conformal on pairs held out of training; with the
default sigma-normalized scores, mu ± q sigma_total, q the conformal quantile of
|y - mu|/sigma_total). It says on stderr which calibration it used. A model
trained with --calibration 0, or before calibrations existed, gives none:
retrain with deup train --calibration 0.1.

` + structureRule + `

A model trained on a panel (deup train on a screen with several cell lines)
scores each pair on every line it knows, one row per (pair, line) with the
line in the cell_line column; --cell-lines A,B,… keeps some of them. A
hive-partitioned output (--out DIR) gets one cell_line=X directory per line
scored, each holding that line's predictions.

Next: sort the output by mu or sigma, or let deup suggest --model MODEL pick a
batch of experiments.`

func runPredict(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup predict", "deup predict --model MODEL (--pairs FILE | --all-pairs) [--screen DIR | --drugs FILE] [--shard i/N] --out FILE|DIR", predictDesc)
	modelPath := fs.String("model", "", "model file written by deup train --out (any method)")
	pairsPath := fs.String("pairs", "", "CSV of pairs (drug_a_id, drug_b_id: ids, PubChem CIDs or names; other columns passed through)")
	all := fs.Bool("all-pairs", false, "score every unordered pair of the drugs")
	screenDir := fs.String("screen", "", "screen directory whose drugs to score instead of the model's")
	drugsPath := fs.String("drugs", "", "CSV catalogue of drugs (id, smiles) to score instead of the model's")
	idCol := fs.String("drug-id-col", "", "with --drugs: the id column (default: the first of id, drug_id, pubchem_cid, pubchemid, cid, ...)")
	smilesCol := fs.String("smiles-col", "", "with --drugs: the SMILES column (default: the first of smiles, isosmiles, canonical_smiles, ...)")
	out := fs.String("out", "", "output file: .arrow, .parquet or .csv; or a directory for hive-partitioned Parquet (DIR/cell_line=X/part-i-of-N.parquet)")
	shardFlag := fs.String("shard", "", "score only shard i of N of the pairs: i/N (0 ≤ i < N), or env/N for i from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX (default: all)")
	cellLines := fs.String("cell-lines", "", "with a model trained on a panel: the cell lines to score every pair on, all or A,B,… (default: all; one row per pair and line)")
	coverage := fs.Float64("coverage", 0, "add lower and upper columns: the calibrated interval at this coverage in (0, 1), e.g. 0.9 (default: none)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 0, 0); err != nil {
		return err
	}
	switch {
	case *modelPath == "" || *out == "":
		fs.Usage()
		return fmt.Errorf("%w: deup predict: --model and --out are required", ErrUsage)
	case (*pairsPath == "") == !*all:
		fs.Usage()
		return fmt.Errorf("%w: deup predict: give exactly one of --pairs and --all-pairs", ErrUsage)
	case *screenDir != "" && *drugsPath != "":
		return fmt.Errorf("%w: deup predict: give at most one of --screen and --drugs", ErrUsage)
	}
	shard := scores.Whole
	if *shardFlag != "" {
		if shard, err = scores.ParseShard(*shardFlag, os.Getenv); err != nil {
			return fmt.Errorf("%w: --shard: %v", ErrUsage, err)
		}
	}
	var outCheck error // a hive directory (--out without an extension) is created as needed
	if filepath.Ext(*out) != "" {
		if _, err := outputFormat(*out); err != nil {
			return err
		}
		outCheck = needOutDir("--out", *out)
	}
	for _, err := range []error{needFile("--pairs", *pairsPath, pairsWhat), needFile("--drugs", *drugsPath, catalogueWhat), outCheck} {
		if err != nil {
			return err
		}
	}
	if isSet(fs, "coverage") {
		if err := checkCoverage(*coverage); err != nil {
			return err
		}
	}
	start := env.now()
	tm, err := openModel(*modelPath)
	if err != nil {
		return err
	}
	m := tm.Method
	var cal *uq.Calibrator
	if isSet(fs, "coverage") {
		if cal, err = modelCalibration(*modelPath, tm, *coverage); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "deup predict: lower and upper at %g%% coverage from the calibration stored in %s: %s held out of training\n", 100**coverage, *modelPath, cal)
	}
	var drugs []drugcomb.Drug
	sigDir := ""
	switch {
	case *drugsPath != "":
		if drugs, err = readDrugsCSV(env, "predict", *drugsPath, *idCol, *smilesCol); err != nil {
			return err
		}
	case *screenDir != "":
		sc, err := openScreen(*screenDir)
		if err != nil {
			return err
		}
		drugs, sigDir = sc.Drugs, *screenDir
	default:
		if tm.Meta == nil {
			return errNoMeta(*modelPath, "--screen DIR or --drugs FILE")
		}
		drugs = tm.Meta.ScreenDrugs()
		fmt.Fprintf(env.Stderr, "deup predict: the %d drugs %s was trained on (%s, %s); --screen or --drugs scores others\n", len(drugs), *modelPath, screenName(tm.Meta.Screen), tm.Meta.Screen.CellLine)
	}
	f, kept, err := modelFeatures(env, "predict", "and are skipped", tm, drugs, sigDir)
	if err != nil {
		return err
	}
	row := make(map[string]int, len(kept))
	for r, i := range kept {
		row[drugs[i].ID] = r
	}
	featTime := env.since(start)
	lines, err := predictLines(tm, *cellLines)
	if err != nil {
		return err
	}
	var pairs []model.Pair
	var pf *pairsFile
	var total int
	if *all {
		n := len(kept)
		total = n * (n - 1) / 2
	} else {
		if pf, err = readPairsCSV(*pairsPath, row, drugs); err != nil {
			return err
		}
		pairs = pf.pairs
		total = len(pairs)
	}
	pw := &predWriter{cal: cal, coverage: *coverage, names: make([]string, len(kept))}
	for r, i := range kept {
		pw.names[r] = drugs[i].Name
	}
	if pf != nil {
		pw.extraNames = pf.extraNames
	}
	if tm.Meta != nil {
		pw.cellLine, pw.score = tm.Meta.Screen.CellLine, tm.Meta.Screen.Score
		pw.lineNames = tm.Meta.Screen.CellLines
		if len(pw.lineNames) > 1 && len(lines) == 1 {
			pw.cellLine = pw.lineNames[lines[0]] // the hive partition's line
		}
		if *drugsPath == "" {
			sc, _, err := modelScreen(env, "predict", *modelPath, tm, *screenDir)
			switch {
			case err == nil:
				pw.measured = measuredMeans(sc, pw.cellLine, pw.score)
				for _, name := range tm.Meta.Screen.CellLines {
					pw.measuredBy = append(pw.measuredBy, measuredMeans(sc, name, pw.score))
				}
			case *screenDir != "":
				return err
			default:
				fmt.Fprintf(env.Stderr, "deup predict: note: measured values not looked up (%v): measured is false for every pair; give --screen DIR to look them up\n", err)
			}
		}
	}
	lo, hi := shard.Range(total)
	hive := filepath.Ext(*out) == ""
	if hive {
		id, err := predIdentity(env.Stamp, *modelPath, *pairsPath, tm, f.IDs, kept, drugs, shard, lo, hi, total)
		if err != nil {
			return err
		}
		// one partition per line scored: DIR/cell_line=X/part-i-of-N.parquet
		partLines := []string{pw.cellLine}
		if len(pw.lineNames) > 1 {
			partLines = partLines[:0]
			for _, l := range lines {
				partLines = append(partLines, pw.lineNames[l])
			}
		}
		if pw.part, err = scores.CreateParts(*out, id, partLines, predSchema(cal != nil, pw.extraNames)); err != nil {
			return err
		}
	}
	w, err := newPredWriter(*out, pw)
	if err != nil {
		return err
	}
	bar := progress.New(env.Stderr, "predict", (hi-lo)*len(lines))
	const chunk = 1 << 16
	buf := make([]model.Pair, 0, chunk)
	var bufSrc []int // --pairs: the file row of each buffered pair
	var ex [][]string
	done := 0
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		pred, err := m.Predict(f, buf)
		if err != nil {
			return err
		}
		var rowEx [][]string
		if pf != nil {
			ex = ex[:0]
			for _, k := range bufSrc {
				ex = append(ex, pf.extra[k])
			}
			bufSrc = bufSrc[:0]
			rowEx = ex
		}
		if err := w.write(f.IDs, buf, pred, rowEx); err != nil {
			return err
		}
		done += len(buf)
		bar.Set(done)
		buf = buf[:0]
		return nil
	}
	predStart := env.now()
	// A file holds each pair's lines together; a hive directory gets its
	// lines one after the other, so each line's part has its pairs in
	// order in long row groups.
	lineRuns := [][]int{lines}
	if hive {
		lineRuns = nil
		for _, l := range lines {
			lineRuns = append(lineRuns, []int{l})
		}
	}
	if *all {
		order := scores.SortedByID(f.IDs)
	allPairs:
		for _, ls := range lineRuns {
			for a, b := range scores.Pairs(len(kept), lo, hi) {
				for _, l := range ls {
					buf = append(buf, model.Pair{A: order[a], B: order[b], Line: l})
					if len(buf) == chunk {
						if err = flush(); err != nil {
							break allPairs
						}
					}
				}
			}
		}
	} else {
	filePairs:
		for _, ls := range lineRuns {
			for k, p := range pairs[lo:hi] {
				for _, l := range ls {
					p.Line = l
					buf = append(buf, p)
					bufSrc = append(bufSrc, lo+k)
					if len(buf) == chunk {
						if err = flush(); err != nil {
							break filePairs
						}
					}
				}
			}
		}
	}
	if err == nil {
		err = flush()
	}
	if err == nil {
		err = ctx.Err() // Ctrl-C during the last chunk: no file either
	}
	if err != nil {
		w.abort()
		return err
	}
	if err := w.commit(); err != nil {
		return err
	}
	bar.Finish()
	el := env.since(predStart)
	dest := *out
	if pw.part != nil {
		dest = strings.Join(pw.part.Paths(), ", ")
	}
	if shard != scores.Whole {
		dest += fmt.Sprintf(" (shard %s: pairs [%d, %d) of %d)", shard, lo, hi, total)
	}
	fmt.Fprintf(env.Stdout, "wrote %d pairs of %d drugs to %s in %s (features %s, prediction %s, %.0f pairs/s)\n",
		done, len(kept), dest, env.since(start).Round(time.Millisecond), featTime.Round(time.Millisecond), el.Round(time.Millisecond), float64(done)/el.Seconds())
	fmt.Fprintf(env.Stdout, "%s\n", m.AleatoricNote())
	return nil
}

// predIdentity is what a hive part file records about its run: the model
// file's and the pairs file's digests, the scored drugs' (feature rows kept
// of drugs, ids in row order), the program, the model's cell line and the
// shard's rows [lo, hi) of total.
func predIdentity(st Stamp, modelPath, pairsPath string, tm *trained.Model, ids []string, kept []int, drugs []drugcomb.Drug, shard scores.Shard, lo, hi, total int) (scores.Identity, error) {
	if tm.Meta == nil || tm.Meta.Screen.CellLine == "" {
		return scores.Identity{}, fmt.Errorf("%w: --out DIR: %s does not record its cell line (a model file from an older deup): retrain it, or write one file (--out FILE.parquet)", ErrUsage, modelPath)
	}
	md, err := scores.FileDigest(modelPath)
	if err != nil {
		return scores.Identity{}, err
	}
	pd := scores.AllPairs
	if pairsPath != "" {
		if pd, err = scores.FileDigest(pairsPath); err != nil {
			return scores.Identity{}, err
		}
	}
	smiles := make([]string, len(kept))
	for r, i := range kept {
		smiles[r] = drugs[i].SMILES
	}
	bi, ok := debug.ReadBuildInfo()
	return scores.Identity{
		Model: md, Drugs: scores.DrugsDigest(ids, smiles), NDrugs: len(kept), Pairs: pd,
		Program: versionLine(bi, ok, st), CellLine: tm.Meta.Screen.CellLine,
		Shard: shard, Lo: lo, Hi: hi, Total: total,
	}, nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// checkCoverage checks a --coverage value.
func checkCoverage(c float64) error {
	if !(c > 0 && c < 1) {
		return fmt.Errorf("%w: --coverage %v: want a probability in (0, 1), e.g. 0.9 for a 90%% interval", ErrUsage, c)
	}
	return nil
}

// modelCalibration returns the calibration stored in model tm (read from
// path) if it can give intervals at coverage, or an error saying what to
// do: a model without calibration is retrained with --calibration, one
// with too few calibration pairs for the coverage with a larger fraction
// (or a lower coverage is asked).
func modelCalibration(path string, tm *trained.Model, coverage float64) (*uq.Calibrator, error) {
	if tm.Meta == nil || tm.Meta.Calibration == nil {
		return nil, fmt.Errorf("%w: --coverage: %s holds no calibration (trained with --calibration 0, or by an older deup): retrain it with deup train --calibration 0.1 to get intervals, or leave out --coverage", ErrUsage, path)
	}
	cal := tm.Meta.Calibration
	if need := uq.MinCalibration(1 - coverage); cal.N < need {
		return nil, fmt.Errorf("%w: --coverage %v: %s was calibrated on %d pairs, and a %g%% conformal interval needs at least %d: retrain it with a larger deup train --calibration fraction (%d pairs or more held out), or ask a lower --coverage", ErrUsage, coverage, path, cal.N, 100*coverage, need, need)
	}
	return cal, nil
}

func outputFormat(path string) (tabular.Format, error) {
	f, err := tabular.FormatOf(path)
	if err != nil {
		return 0, fmt.Errorf("%w: output %s: extension must be .arrow, .parquet or .csv", ErrUsage, path)
	}
	return f, nil
}

// readDrugsCSV reads a drug catalogue (the importer's catalogue reader:
// any table format, the common spellings of the id, CID and SMILES columns,
// or the columns idCol and smilesCol name). Rows it leaves out (duplicates,
// rows without a key) are counted on stderr; a catalogue without a SMILES
// column, or whose SMILES column is empty, is an error naming its columns.
func readDrugsCSV(env Env, cmd, path, idCol, smilesCol string) ([]drugcomb.Drug, error) {
	cat, err := drugcomb.ReadCatalogueFileWith(path, drugcomb.CatalogueColumns{ID: idCol, SMILES: smilesCol})
	if err != nil {
		return nil, fmt.Errorf("%w (name the columns with --drug-id-col and --smiles-col)", err)
	}
	n := 0
	for _, d := range cat.Drugs {
		if d.SMILES != "" {
			n++
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: %s: no drug has a SMILES (SMILES column: %s; the file's columns: %s): name the SMILES column with --smiles-col",
			ErrUsage, path, orNone(cat.SMILESColumn), strings.Join(cat.Header, ", "))
	}
	for _, t := range cat.Notes {
		fmt.Fprintf(env.Stderr, "deup %s: %s: %d rows left out: %s\n", cmd, path, t.Count, t.Reason)
	}
	return cat.Drugs, nil
}

func orNone(s string) string {
	if s == "" {
		return "none found"
	}
	return s
}

// pairsFile is a --pairs file: its pairs (feature rows) and the columns
// other than the two drug columns, passed through to the output.
type pairsFile struct {
	pairs      []model.Pair
	extraNames []string
	extra      [][]string // per pair, the values of extraNames
}

// readPairsCSV reads a --pairs CSV: two drug columns (drug_a_id/drug_b_id,
// drug_a/drug_b or drug_a_cid/drug_b_cid) holding drug ids, PubChem CIDs or
// names, matched as campaign import-results matches them
// (active.DrugIndex), mapped to feature rows; every other column is kept.
func readPairsCSV(path string, row map[string]int, drugs []drugcomb.Drug) (*pairsFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	r := csv.NewReader(bufio.NewReader(fh))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	ac, bc := -1, -1
	for i, h := range head {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "drug_a", "drug_a_cid", "drug_a_id":
			if ac < 0 {
				ac = i
			}
		case "drug_b", "drug_b_cid", "drug_b_id":
			if bc < 0 {
				bc = i
			}
		}
	}
	if ac < 0 || bc < 0 {
		return nil, fmt.Errorf("%s: header %v: need drug_a_id and drug_b_id columns (or drug_a and drug_b): drug ids, PubChem CIDs or names", path, head)
	}
	pf := &pairsFile{}
	var keep []int
	for i, h := range head {
		if i != ac && i != bc {
			keep = append(keep, i)
			pf.extraNames = append(pf.extraNames, strings.TrimSpace(h))
		}
	}
	for _, n := range pf.extraNames {
		if slices.Contains(predColumns(true), n) || slices.Contains(predStringColumns, n) || n == "measured" || n == "measured_mean" {
			return nil, fmt.Errorf("%s: header: column %q is also a prediction column: rename it", path, n)
		}
	}
	index := active.DrugIndex(drugs)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) <= max(ac, bc) {
			return nil, fmt.Errorf("%s:%d: %d fields, want at least %d", path, line, len(rec), max(ac, bc)+1)
		}
		var p [2]int
		for k, c := range []int{ac, bc} {
			v := strings.TrimSpace(rec[c])
			i, ok := index[strings.ToLower(v)]
			rr, kept := 0, false
			if ok {
				rr, kept = row[drugs[i].ID]
			}
			if !kept {
				why := "not among the drugs scored (by id, PubChem CID or name)"
				if ok {
					why = fmt.Sprintf("drug %s has no usable structure or signature", drugs[i].ID)
				}
				return nil, fmt.Errorf("%s:%d: column %s: unknown drug %q: %s", path, line, head[c], v, why)
			}
			p[k] = rr
		}
		pf.pairs = append(pf.pairs, model.Pair{A: p[0], B: p[1]})
		ex := make([]string, len(keep))
		for k, c := range keep {
			if c < len(rec) {
				ex[k] = rec[c]
			}
		}
		pf.extra = append(pf.extra, ex)
	}
	return pf, nil
}

// measuredKey is an unordered pair of drug ids.
type measuredKey struct{ a, b string }

func newMeasuredKey(a, b string) measuredKey {
	if b < a {
		a, b = b, a
	}
	return measuredKey{a, b}
}

// measuredMeans returns the measured mean of score in cell line of every
// pair of sc that has one, by drug ids.
func measuredMeans(sc *drugcomb.Screen, cellLine, score string) map[measuredKey]float64 {
	ci, si := indexFold(sc.CellLines, cellLine), indexFold(sc.ScoreNames, score)
	m := map[measuredKey]float64{}
	if ci < 0 || si < 0 {
		return m
	}
	for _, p := range sc.Pairs {
		if p.CellLine == ci && !math.IsNaN(p.Mean[si]) {
			m[newMeasuredKey(sc.Drugs[p.A].ID, sc.Drugs[p.B].ID)] = p.Mean[si]
		}
	}
	return m
}

// predWriter writes prediction rows to CSV, Arrow IPC or Parquet through
// the one table writer, under a temporary name until commit.
type predWriter struct {
	file     *tabular.File
	schema   *arrow.Schema
	builder  *array.RecordBuilder
	cal      *uq.Calibrator // nil: no interval columns
	coverage float64
	vals     []float64 // one row's float columns

	// what every row carries besides the prediction
	names           []string // drug names by feature row
	cellLine, score string
	measured        map[measuredKey]float64
	extraNames      []string

	part *scores.Parts // hive output (format "hive"): records go to their line's part

	// A panel model's cell lines (model.Pair.Line indexes them) and the
	// measured means on each; nil for a one-line model.
	lineNames  []string
	measuredBy []map[measuredKey]float64
}

// lineOf is the cell_line column of pair p.
func (w *predWriter) lineOf(p model.Pair) string {
	if len(w.lineNames) > 1 {
		return w.lineNames[p.Line]
	}
	return w.cellLine
}

// measuredOf is the measured mean of pair p on its cell line, if any.
func (w *predWriter) measuredOf(ids []string, p model.Pair) (float64, bool) {
	m := w.measured
	if len(w.lineNames) > 1 {
		m = nil
		if p.Line < len(w.measuredBy) {
			m = w.measuredBy[p.Line]
		}
	}
	y, ok := m[newMeasuredKey(ids[p.A], ids[p.B])]
	return y, ok
}

// predictLines returns the cell lines (indices of the model's cell-line
// embedding) that predict scores each pair on: --cell-lines all (the
// default) or A,B,… of a panel model; line 0 for a one-line model.
func predictLines(tm *trained.Model, spec string) ([]int, error) {
	var names []string
	if tm.Meta != nil {
		names = tm.Meta.Screen.CellLines
	}
	if len(names) < 2 {
		if spec != "" && spec != "all" && (tm.Meta == nil || !strings.EqualFold(spec, tm.Meta.Screen.CellLine)) {
			return nil, fmt.Errorf("%w: --cell-lines %s: the model was trained on one cell line", ErrUsage, spec)
		}
		return []int{0}, nil
	}
	if spec == "" || spec == "all" {
		out := make([]int, len(names))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, n := range strings.Split(spec, ",") {
		n = strings.TrimSpace(n)
		i := indexFold(names, n)
		if i < 0 {
			return nil, fmt.Errorf("%w: --cell-lines: the model knows no cell line %q (it has %s)", ErrUsage, n, strings.Join(names, ", "))
		}
		out = append(out, i)
	}
	return out, nil
}

// predStringColumns are the leading string columns of a prediction file.
var predStringColumns = []string{"drug_a_id", "drug_b_id", "drug_a_name", "drug_b_name", "cell_line", "score"}

// predColumns are the float columns of a prediction file; lower and upper
// only with an interval (--coverage).
func predColumns(interval bool) []string {
	c := []string{"mu", "sigma_total", "sigma_epistemic", "sigma_aleatoric"}
	if interval {
		c = append(c, "lower", "upper")
	}
	return c
}

// predSchema is the prediction file's schema: the string columns, the float
// columns, measured (bool) and measured_mean (float64, null when not
// measured), then the --pairs file's extra columns (strings).
func predSchema(interval bool, extra []string) *arrow.Schema {
	var fields []arrow.Field
	for _, c := range predStringColumns {
		fields = append(fields, arrow.Field{Name: c, Type: arrow.BinaryTypes.String})
	}
	for _, c := range predColumns(interval) {
		fields = append(fields, arrow.Field{Name: c, Type: arrow.PrimitiveTypes.Float64})
	}
	fields = append(fields, arrow.Field{Name: "measured", Type: arrow.FixedWidthTypes.Boolean},
		arrow.Field{Name: "measured_mean", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	for _, c := range extra {
		fields = append(fields, arrow.Field{Name: c, Type: arrow.BinaryTypes.String})
	}
	return arrow.NewSchema(fields, nil)
}

// newPredWriter starts the prediction file at path (in the format of its
// extension), or feeds w.part (hive output) when it is set; with w.cal
// non-nil it adds lower and upper, the interval of cal at coverage. Nothing
// is under path until commit.
func newPredWriter(path string, w *predWriter) (*predWriter, error) {
	w.schema = predSchema(w.cal != nil, w.extraNames)
	mem := memory.DefaultAllocator
	if w.part != nil {
		w.builder = array.NewRecordBuilder(mem, w.schema)
		return w, nil
	}
	digits := map[string]int{}
	for _, c := range predColumns(w.cal != nil) {
		digits[c] = 7 // measured_mean keeps every digit: it is a measurement
	}
	f, err := tabular.Create(path, w.schema, tabular.Options{Mem: mem, Digits: digits})
	if err != nil {
		return nil, err
	}
	w.file = f
	w.builder = array.NewRecordBuilder(mem, w.schema)
	return w, nil
}

// row returns the float columns of one prediction (with its interval when
// the writer has a calibration).
func (w *predWriter) row(ids []string, p model.Pair, pr model.Prediction) ([]float64, error) {
	w.vals = append(w.vals[:0], pr.Mu, pr.SigmaTotal, pr.SigmaEpistemic, pr.SigmaAleatoric)
	if w.cal != nil {
		lo, hi, err := w.cal.Interval(pr.Mu, pr.SigmaTotal, w.coverage)
		if err != nil {
			return nil, fmt.Errorf("pair %s, %s: %w", ids[p.A], ids[p.B], err)
		}
		w.vals = append(w.vals, lo, hi)
	}
	return w.vals, nil
}

// write writes pairs and their predictions; extra holds, per pair, the
// values of the extra columns (nil without extra columns).
func (w *predWriter) write(ids []string, pairs []model.Pair, pred []model.Prediction, extra [][]string) error {
	b := w.builder
	ns := len(predStringColumns)
	strs := make([]*array.StringBuilder, ns)
	for k := range strs {
		strs[k] = b.Field(k).(*array.StringBuilder)
	}
	nf := len(predColumns(w.cal != nil))
	cols := make([]*array.Float64Builder, nf)
	for k := range cols {
		cols[k] = b.Field(ns + k).(*array.Float64Builder)
		cols[k].Reserve(len(pairs))
	}
	mb := b.Field(ns + nf).(*array.BooleanBuilder)
	mm := b.Field(ns + nf + 1).(*array.Float64Builder)
	for i, p := range pairs {
		vals, err := w.row(ids, p, pred[i])
		if err != nil {
			return err
		}
		for k, s := range []string{ids[p.A], ids[p.B], w.names[p.A], w.names[p.B], w.lineOf(p), w.score} {
			strs[k].Append(s)
		}
		for k, v := range vals {
			cols[k].UnsafeAppend(v)
		}
		if y, ok := w.measuredOf(ids, p); ok {
			mb.Append(true)
			mm.Append(y)
		} else {
			mb.Append(false)
			mm.AppendNull()
		}
		for k := range w.extraNames {
			b.Field(ns + nf + 2 + k).(*array.StringBuilder).Append(extra[i][k])
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	if w.part != nil {
		return w.part.Write(rec)
	}
	return w.file.Write(rec)
}

// commit puts the complete file in place.
func (w *predWriter) commit() error {
	w.builder.Release()
	if w.part != nil {
		return w.part.Commit()
	}
	return w.file.Commit()
}

// abort removes the partial file.
func (w *predWriter) abort() {
	w.builder.Release()
	if w.part != nil {
		w.part.Abort()
		return
	}
	w.file.Abort()
}
