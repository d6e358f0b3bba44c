package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/deup-screening/deup/internal/moments"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/tabular"
	"github.com/deup-screening/deup/uq"
)

// stat is the JSON form of one metric of one row: mean and sample sd over
// seeds and the per-seed values. Numbers are always floats (0.0, not 0);
// NaN is written as null (internal/jsonfloat).
type stat struct {
	Mean    jsonfloat.Float  `json:"mean"`
	SD      jsonfloat.Float  `json:"sd"`
	PerSeed jsonfloat.Floats `json:"per_seed"`
}

func newStat(x []float64) stat {
	m, s := uq.MeanSD(x)
	per := make(jsonfloat.Floats, len(x))
	copy(per, x)
	return stat{Mean: jsonfloat.Float(m), SD: jsonfloat.Float(s), PerSeed: per}
}

// metric returns the per-seed values of a metric of a row: a uq metric, a
// truth metric or train_seconds.
func (r *Row) metric(name string) []float64 {
	switch name {
	case "train_seconds":
		return r.TrainSeconds
	case "epi_corr", "epi_spearman", "epi_ratio", "alea_corr":
		if r.Truth == nil {
			return nil
		}
		out := make([]float64, len(r.Truth))
		for i, t := range r.Truth {
			out[i] = map[string]float64{"epi_corr": t.EpiCorr, "epi_spearman": t.EpiSpearman, "epi_ratio": t.EpiRatio, "alea_corr": t.AleaCorr}[name]
		}
		return out
	}
	out := make([]float64, len(r.PerSeed))
	for i, m := range r.PerSeed {
		out[i], _ = m.Get(name)
	}
	return out
}

// conformalStats is the JSON form of one kind of conformal interval of one
// row: each metric's mean, sd and per-seed values.
type conformalStats struct {
	Coverage              stat   `json:"coverage"`
	Width                 stat   `json:"width"`
	WorstQuintileCoverage stat   `json:"worst_quintile_coverage"`
	IntervalScore         stat   `json:"interval_score"`
	QuintileCoverage      []stat `json:"quintile_coverage"` // smallest sigma first
}

type conformalJSON struct {
	Plain      conformalStats `json:"plain"`
	Normalized conformalStats `json:"normalized"`
}

// conformalMetric returns the per-seed values of one interval metric of a
// row: kind "plain" or "normalized", name one of coverage, width,
// worst_quintile_coverage, interval_score, or q1..q5 (quintile coverage).
func (r *Row) conformalMetric(kind, name string) []float64 {
	out := make([]float64, len(r.Conformal))
	for i, c := range r.Conformal {
		m := c.Plain
		if kind == "normalized" {
			m = c.Normalized
		}
		switch name {
		case "coverage":
			out[i] = m.Coverage
		case "width":
			out[i] = m.Width
		case "worst_quintile_coverage":
			out[i] = m.WorstQuintileCoverage
		case "interval_score":
			out[i] = m.IntervalScore
		default:
			var g int
			if _, err := fmt.Sscanf(name, "q%d", &g); err != nil || g < 1 || g > uq.Quintiles {
				panic("bench: unknown conformal metric " + name)
			}
			out[i] = m.QuintileCoverage[g-1]
		}
	}
	return out
}

func (r *Row) conformalJSON() conformalJSON {
	kind := func(k string) conformalStats {
		cs := conformalStats{
			Coverage:              newStat(r.conformalMetric(k, "coverage")),
			Width:                 newStat(r.conformalMetric(k, "width")),
			WorstQuintileCoverage: newStat(r.conformalMetric(k, "worst_quintile_coverage")),
			IntervalScore:         newStat(r.conformalMetric(k, "interval_score")),
		}
		for g := 1; g <= uq.Quintiles; g++ {
			cs.QuintileCoverage = append(cs.QuintileCoverage, newStat(r.conformalMetric(k, fmt.Sprintf("q%d", g))))
		}
		return cs
	}
	return conformalJSON{Plain: kind("plain"), Normalized: kind("normalized")}
}

// ConformalCalibration says where the conformal intervals' calibration
// pairs come from (written into results.json and under the table).
const ConformalCalibration = "cross-conformal on the test split: a seeded permutation halves the test pairs, each half is calibrated on the other; no scored pair is in its own calibration set, and none trained mu or sigma"

// TruthNames lists the truth metrics (present only for screens with a truth).
func TruthNames() []string { return []string{"epi_corr", "epi_spearman", "epi_ratio", "alea_corr"} }

// WriteJSON writes results.json: {"methods": {name: {metric: {"mean", "sd",
// "per_seed"}, ..., "train_seconds": {...}, "conformal": {"plain" |
// "normalized": {"coverage" | "width" | "worst_quintile_coverage" |
// "interval_score": {"mean", "sd", "per_seed"}, "quintile_coverage":
// [5 × {...}]}}}}, "wall_seconds", "seeds", "test_pairs"} plus "rows"
// (table order), "seed_values", "screen", "notes", "conformal_alpha" and
// "conformal_calibration". Coverages are percentages.
func (r *Result) WriteJSON(w io.Writer) error {
	if len(r.Rows) == 0 {
		return ErrNoRows
	}
	methods := map[string]map[string]any{}
	notes := map[string]string{}
	floored := map[string][]int{}
	var order []string
	for i := range r.Rows {
		row := &r.Rows[i]
		ms := map[string]any{}
		names := append(uq.Names(), "train_seconds")
		if r.HasTruth {
			names = append(names, TruthNames()...)
		}
		for _, n := range names {
			ms[n] = newStat(row.metric(n))
		}
		ms["conformal"] = row.conformalJSON()
		if row.Lines != nil {
			ms["per_line"] = row.perLineJSON(r.LineNames)
		}
		epi := map[string]stat{}
		for _, n := range EpiNames() {
			epi[n] = newStat(finite(row.epiMetric(n)))
		}
		ms["sigma_epistemic"] = epi
		if r.HasTruth {
			ms["epi_excess_spearman"] = newStat(row.epiMetric("excess_spearman"))
		}
		methods[row.Method] = ms
		notes[row.Method] = row.Note
		floored[row.Method] = row.Floored
		order = append(order, row.Method)
	}
	out := results{
		methods, jsonfloat.Float(r.WallSeconds), len(r.Seeds), r.TestPairs, order, r.Seeds, r.Screen, notes, floored, jsonfloat.Float(SigmaFloor), jsonfloat.Float(r.Alpha), ConformalCalibration}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if r.Folds == 0 {
		return enc.Encode(out)
	}
	return enc.Encode(struct {
		results
		Folds    []foldJSON   `json:"folds"`
		Protocol protocolJSON `json:"protocol"`
	}{out, r.foldsJSON(), protocolJSON{r.Protocol.SplitBy, r.Folds, r.Seeds[0], r.Seeds, r.Protocol.OOSBy}})
}

// foldJSON is one run of K-fold cross-validation in results.json: its
// fold (0-based), seed and test pairs, and each row's metrics on it.
type foldJSON struct {
	Fold    int                                   `json:"fold"`
	Seed    uint64                                `json:"seed"`
	NTest   int                                   `json:"n_test"`
	Methods map[string]map[string]jsonfloat.Float `json:"methods"`
}

// protocolJSON is results.json's "protocol": the split's unit, K, the
// first seed (of the folds' permutation; every seed in seeds), and the
// out-of-sample draw.
type protocolJSON struct {
	SplitBy string   `json:"split_by"`
	Folds   int      `json:"folds"`
	Seed    uint64   `json:"seed"`
	Seeds   []uint64 `json:"seeds"`
	OOSBy   string   `json:"oos_by,omitempty"`
}

// foldsJSON lists the runs (Runs) with each row's uq metrics and
// train_seconds on that run.
func (r *Result) foldsJSON() []foldJSON {
	out := make([]foldJSON, len(r.Runs))
	for k, run := range r.Runs {
		out[k] = foldJSON{Fold: run.Fold, Seed: run.Seed, NTest: run.NTest, Methods: map[string]map[string]jsonfloat.Float{}}
		for i := range r.Rows {
			row := &r.Rows[i]
			ms := map[string]jsonfloat.Float{}
			for _, n := range append(uq.Names(), "train_seconds") {
				ms[n] = jsonfloat.Float(row.metric(n)[k])
			}
			out[k].Methods[row.Method] = ms
		}
	}
	return out
}

// results is results.json's object (WriteJSON).
type results struct {
	Methods      map[string]map[string]any `json:"methods"`
	WallSeconds  jsonfloat.Float           `json:"wall_seconds"`
	Seeds        int                       `json:"seeds"`
	TestPairs    int                       `json:"test_pairs"`
	Rows         []string                  `json:"rows"`
	SeedValues   []uint64                  `json:"seed_values"`
	Screen       string                    `json:"screen,omitempty"`
	Notes        map[string]string         `json:"notes"`
	Floored      map[string][]int          `json:"sigma_floored"`
	SigmaFloor   jsonfloat.Float           `json:"sigma_floor_fraction_of_sd"`
	Alpha        jsonfloat.Float           `json:"conformal_alpha"`
	ConformalCal string                    `json:"conformal_calibration"`
}

// tableMetrics are the columns of the markdown table with their precision.
var tableMetrics = []struct {
	name string
	prec int
}{
	{"corr", 2}, {"upper_bound", 2}, {"ratio", 2}, {"loglik", 2}, {"coverage", 1}, {"ci_width", 1},
	{"spearman", 2}, {"rmse", 1}, {"pearson_mu", 2}, {"crps", 1}, {"miscal_area", 3}, {"sharpness", 1},
}

// SaveJSON writes results.json into dir (created if needed) and returns
// its path.
func (r *Result) SaveJSON(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, "results.json")
	return p, atomicfile.WriteNamed(p, r.WriteJSON)
}

// Save writes the outputs of a run into dir: results.json,
// predictions.parquet (drugIDs names each pair's drugs) and, with figs,
// the figures (WriteFigures); it returns the paths written.
func (r *Result) Save(dir string, drugIDs func(pair int) (string, string), figs bool) ([]string, error) {
	jsonPath, err := r.SaveJSON(dir)
	if err != nil {
		return nil, err
	}
	predPath := filepath.Join(dir, "predictions.parquet")
	if err := atomicfile.WriteNamed(predPath, func(w io.Writer) error {
		return r.WritePredictions(w, drugIDs, memory.DefaultAllocator)
	}); err != nil {
		return nil, err
	}
	written := []string{jsonPath, predPath}
	if figs {
		f, err := r.WriteFigures(dir)
		if err != nil {
			return nil, err
		}
		written = append(written, f...)
	}
	return written, nil
}

// WriteNotes writes, under the tables, each row's aleatoric note and how
// many of its test predictions were scored at the sigma floor
// (SigmaFloor), one line each, indented.
func (r *Result) WriteNotes(w io.Writer) error {
	var b strings.Builder
	for i := range r.Rows {
		row := &r.Rows[i]
		fmt.Fprintf(&b, "  %s: %s\n", row.Method, row.Note)
		if n := row.FlooredTotal(); n > 0 {
			fmt.Fprintf(&b, "  %s: %d test predictions had sigma below %g × sd(y) and were scored at that floor\n", row.Method, n, SigmaFloor)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the table: one row per method, one column per
// metric, mean ± sd over seeds; then, for screens with a truth, a second
// table of the truth metrics.
func (r *Result) WriteMarkdown(w io.Writer) error {
	if len(r.Rows) == 0 {
		return ErrNoRows
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| method |")
	for _, m := range tableMetrics {
		fmt.Fprintf(&b, " %s |", m.name)
	}
	fmt.Fprintf(&b, " train s |\n|---|")
	for range tableMetrics {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	for i := range r.Rows {
		row := &r.Rows[i]
		fmt.Fprintf(&b, "| %s |", row.Method)
		for _, m := range tableMetrics {
			v := pm(row.metric(m.name), m.prec)
			if m.name == "ratio" && v == "n/a" {
				v = "—"
			}
			fmt.Fprintf(&b, " %s |", v)
		}
		fmt.Fprintf(&b, " %s |\n", pm(row.TrainSeconds, 1))
	}
	if r.Folds > 0 {
		lo, hi := r.foldSizes()
		fmt.Fprintf(&b, "\n%d-fold cross-validation by %s × %d seeds (mean ± sample sd over the %d folds), %d–%d test pairs per fold, %d per seed; wall time %.1f s\n", r.Folds, r.Protocol.SplitBy, len(r.Seeds), len(r.Runs), lo, hi, r.TestPairs, r.WallSeconds)
	} else {
		fmt.Fprintf(&b, "\n%d seeds (mean ± sample sd), %d test pairs per seed; wall time %.1f s\n", len(r.Seeds), r.TestPairs, r.WallSeconds)
	}
	r.writeRatioNote(&b)
	r.writeFoldTable(&b)
	r.writeConformalTable(&b)
	if r.HasTruth {
		b.WriteString("\nAgainst the known truth (epistemic: |mu - true mean|; aleatoric: true noise sd):\n\n| method |")
		for _, n := range TruthNames() {
			fmt.Fprintf(&b, " %s |", n)
		}
		b.WriteString("\n|---|---|---|---|---|\n")
		for i := range r.Rows {
			row := &r.Rows[i]
			fmt.Fprintf(&b, "| %s |", row.Method)
			for _, n := range TruthNames() {
				fmt.Fprintf(&b, " %s |", pm(row.metric(n), 2))
			}
			b.WriteString("\n")
		}
	}
	r.writeEpiTable(&b)
	r.writeLineTable(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeEpiTable writes the table of σ_epistemic by the number of a test
// pair's drugs that no training pair has (EpiSummary).
func (r *Result) writeEpiTable(b *strings.Builder) {
	fromVal := false
	for i := range r.Rows {
		for _, e := range r.Rows[i].Epi {
			fromVal = fromVal || e.FromVal
		}
	}
	b.WriteString("\nsigma_epistemic by unseen drugs (mean over test pairs with 0, 1, 2 drugs in no training pair; zero: share of test pairs with sigma_epistemic = 0; small: below 0.1 sigma_total")
	if r.HasTruth {
		b.WriteString("; excess spearman: with |y - mu| - true noise sd")
	}
	b.WriteString("):\n\n| method | unseen0 | unseen1 | unseen2 | zero % | small % |")
	if r.HasTruth {
		b.WriteString(" excess spearman |")
	}
	b.WriteString("\n|---|---|---|---|---|---|")
	if r.HasTruth {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for i := range r.Rows {
		row := &r.Rows[i]
		zf, sf := row.epiMetric("zero_fraction"), row.epiMetric("small_fraction")
		for k := range zf {
			zf[k] *= 100
			sf[k] *= 100
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |", row.Method, pm(finite(row.epiMetric("unseen0")), 2), pm(finite(row.epiMetric("unseen1")), 2), pm(finite(row.epiMetric("unseen2")), 2), pm(zf, 1), pm(sf, 1))
		if r.HasTruth {
			fmt.Fprintf(b, " %s |", pm(row.epiMetric("excess_spearman"), 2))
		}
		b.WriteString("\n")
	}
	if fromVal {
		b.WriteString("\nunseen0: no test pair has two training drugs (split by drug); taken over the validation pairs whose two drugs are in training pairs.\n")
	}
}

// writeRatioNote says, under the table, why a ratio is "—": on some seed
// upper_bound was below uq.RatioMinUpperBound (sigma barely varies; the
// quotient would be noise) or undefined (constant sigma).
func (r *Result) writeRatioNote(b *strings.Builder) {
	var notes []string
	for i := range r.Rows {
		row := &r.Rows[i]
		undefined, low := 0, []string{}
		for _, m := range row.PerSeed {
			if !math.IsNaN(m.Ratio) {
				continue
			}
			undefined++
			if !math.IsNaN(m.UpperBound) {
				low = append(low, fmt.Sprintf("%.3f", m.UpperBound))
			}
		}
		switch {
		case undefined == 0:
		case len(low) > 0:
			notes = append(notes, fmt.Sprintf("%s on %d of %d seeds (upper_bound %s)", row.Method, undefined, len(row.PerSeed), strings.Join(low, ", ")))
		default:
			notes = append(notes, fmt.Sprintf("%s (sigma constant: no upper_bound)", row.Method))
		}
	}
	if len(notes) == 0 {
		return
	}
	n := r.TestPairs
	if r.Folds > 0 {
		n, _ = r.foldSizes()
	}
	fmt.Fprintf(b, "ratio — (undefined, null in results.json) where upper_bound < 2/sqrt(n) = %.3f for n = %d test pairs: sigma barely varies there and corr/upper_bound is noise (docs/metrics.md): %s\n",
		uq.RatioMinUpperBound(n), n, strings.Join(notes, "; "))
}

// foldSizes returns the fewest and most test pairs of a run.
func (r *Result) foldSizes() (lo, hi int) {
	for k, run := range r.Runs {
		if k == 0 || run.NTest < lo {
			lo = run.NTest
		}
		hi = max(hi, run.NTest)
	}
	return lo, hi
}

// foldMetrics are the per-fold table's columns: Pearson r of mu, RMSE,
// corr(sigma, |y − mu|) and ±1 sigma coverage (%).
var foldMetrics = []struct {
	name, label string
	prec        int
}{{"pearson_mu", "r", 3}, {"rmse", "rmse", 2}, {"corr", "corr", 3}, {"coverage", "coverage", 1}}

// writeFoldTable writes, under K-fold cross-validation, one line per run
// (seed and fold) with each row's foldMetrics on it.
func (r *Result) writeFoldTable(b *strings.Builder) {
	if r.Folds == 0 {
		return
	}
	b.WriteString("\nPer fold (r: Pearson r of mu; rmse; corr: corr(sigma, |y - mu|); coverage: ±1 sigma, %):\n\n| seed | fold | n_test | method | r | rmse | corr | coverage |\n|---|---|---|---|---|---|---|---|\n")
	for k, run := range r.Runs {
		for i := range r.Rows {
			row := &r.Rows[i]
			fmt.Fprintf(b, "| %d | %d | %d | %s |", run.Seed, run.Fold+1, run.NTest, row.Method)
			for _, m := range foldMetrics {
				fmt.Fprintf(b, " %s |", moments.Format(row.metric(m.name)[k], math.NaN(), m.prec, "n/a"))
			}
			b.WriteString("\n")
		}
	}
}

// writeConformalTable writes the table of conformal intervals: coverage
// (%), mean width, worst sigma-quintile coverage (%) and interval score,
// plain and sigma-normalized.
func (r *Result) writeConformalTable(b *strings.Builder) {
	fmt.Fprintf(b, "\nConformal intervals at %g %% (plain: mu ± q; normalized: mu ± q sigma; coverages in %%, worst q: the lowest coverage over the five sigma quintiles; IS: interval score):\n\n", 100*(1-r.Alpha))
	b.WriteString("| method | plain coverage | plain width | plain worst q | plain IS | normalized coverage | normalized width | normalized worst q | normalized IS |\n|---|---|---|---|---|---|---|---|---|\n")
	for i := range r.Rows {
		row := &r.Rows[i]
		fmt.Fprintf(b, "| %s |", row.Method)
		for _, k := range []string{"plain", "normalized"} {
			fmt.Fprintf(b, " %s | %s | %s | %s |", pm(row.conformalMetric(k, "coverage"), 1), pm(row.conformalMetric(k, "width"), 1),
				pm(row.conformalMetric(k, "worst_quintile_coverage"), 1), pm(row.conformalMetric(k, "interval_score"), 1))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "\nCalibration: %s.\n", ConformalCalibration)
}

func pm(x []float64, prec int) string {
	m, sd := uq.MeanSD(x)
	return moments.Format(m, sd, prec, "n/a")
}

// PredictionsSchema is the schema of predictions.parquet, in the
// vocabulary of docs/vocabulary.md: drug_a_id and drug_b_id are the drugs'
// ids (strings, as in every file a user joins on); pair is the pair's row
// number in the screen's pairs.parquet; the σ columns are sigma_total,
// sigma_epistemic and sigma_aleatoric.
func PredictionsSchema() *arrow.Schema {
	f64 := arrow.PrimitiveTypes.Float64
	return arrow.NewSchema([]arrow.Field{
		{Name: "seed", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "method", Type: arrow.BinaryTypes.String},
		{Name: "pair", Type: arrow.PrimitiveTypes.Int64},
		{Name: "drug_a_id", Type: arrow.BinaryTypes.String},
		{Name: "drug_b_id", Type: arrow.BinaryTypes.String},
		{Name: "y", Type: f64},
		{Name: "mu", Type: f64},
		{Name: "sigma_total", Type: f64},
		{Name: "sigma_epistemic", Type: f64},
		{Name: "sigma_aleatoric", Type: f64},
		{Name: "true_mean", Type: f64, Nullable: true},
	}, nil)
}

// FoldField is the column predictions.parquet adds under K-fold
// cross-validation, after PredictionsSchema's: the test pair's fold
// (0-based, results.json's folds[].fold).
var FoldField = arrow.Field{Name: "fold", Type: arrow.PrimitiveTypes.Int64}

// WritePredictions writes every test prediction as Parquet (one row per
// seed, method and test pair; under K-fold cross-validation per seed,
// fold, method and test pair, with the column FoldField last). drugIDs
// maps a pair index to its two drug ids.
func (r *Result) WritePredictions(w io.Writer, drugIDs func(pair int) (string, string), mem memory.Allocator) error {
	schema := PredictionsSchema()
	if r.Folds > 0 {
		schema = arrow.NewSchema(append(schema.Fields(), FoldField), nil)
	}
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, p := range r.Predictions {
		a, bb := drugIDs(p.Pair)
		b.Field(0).(*array.Uint64Builder).Append(p.Seed)
		b.Field(1).(*array.StringBuilder).Append(p.Method)
		b.Field(2).(*array.Int64Builder).Append(int64(p.Pair))
		b.Field(3).(*array.StringBuilder).Append(a)
		b.Field(4).(*array.StringBuilder).Append(bb)
		b.Field(5).(*array.Float64Builder).Append(p.Y)
		b.Field(6).(*array.Float64Builder).Append(p.Mu)
		b.Field(7).(*array.Float64Builder).Append(p.SigmaTotal)
		b.Field(8).(*array.Float64Builder).Append(p.SigmaEpistemic)
		b.Field(9).(*array.Float64Builder).Append(p.SigmaAleatoric)
		if math.IsNaN(p.Truth) {
			b.Field(10).AppendNull()
		} else {
			b.Field(10).(*array.Float64Builder).Append(p.Truth)
		}
		if r.Folds > 0 {
			b.Field(11).(*array.Int64Builder).Append(int64(p.Fold))
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	if err := tabular.Encode(w, tabular.Parquet, rec, tabular.Options{Mem: mem}); err != nil {
		return fmt.Errorf("bench: predictions: %w", err)
	}
	return nil
}
