package vocab

import (
	"bytes"
	"math"
	"strconv"
)

// Type is a column's type: the Arrow type in Parquet and Arrow files; in
// CSV and JSON what the text reads as (see ReadFile).
type Type string

// The types of the vocabulary. Null and Mixed are only read, never
// written: a column of missing values only, and numbers written partly as
// integers and partly as floats.
const (
	String      Type = "string"
	Float64     Type = "float64"
	Int32       Type = "int32"
	Int64       Type = "int64"
	Uint64      Type = "uint64"
	Bool        Type = "bool"
	ListInt32   Type = "list<int32>"
	ListFloat   Type = "list<float64>"
	ListFloat32 Type = "list<float32>"
	Null        Type = "null"
	Mixed       Type = "mixed integers and floats"
)

// Format is a file format, named by the file's extension.
type Format string

// The formats.
const (
	CSV     Format = "csv"
	JSON    Format = "json"
	Parquet Format = "parquet"
	Arrow   Format = "arrow"
)

// Column is one column of a file (a key path of a JSON document).
type Column struct {
	// Name is the column's name. {placeholder} stands for a name taken
	// from the data ({score}: a score column of the screen; {method}: a
	// method's name). In a JSON document the name is the key path, keys
	// joined by '.', with [] for the elements of an array.
	Name     string
	Type     Type
	Nullable bool // may hold missing values (null, an empty CSV field)
	Optional bool // may be absent from a file
	Meaning  string
}

// File is one kind of file deup writes.
type File struct {
	Key     string // short name, e.g. "predictions"
	Title   string
	Writer  string // the commands that write it, and where
	Formats []Format
	// Document is set for a JSON document (one object, flattened into key
	// paths) as opposed to a table.
	Document bool
	Columns  []Column
	Notes    string
}

// Meanings of the σ columns, the same in every file.
const (
	sigmaTotal     = "predicted standard deviation of a new measurement's error, |y − μ|, in score units: sigma_total² = sigma_epistemic² + sigma_aleatoric²"
	sigmaEpistemic = "the part of sigma_total that more data would remove: the model's own error (DEUP: sqrt(sigma_total² − sigma_aleatoric²); ensembles: spread of member means)"
	sigmaAleatoric = "the measurement-noise part of sigma_total; 0.0 when the method or the screen gives no noise estimate (MSE ensemble, MC dropout; DEUP with fewer than 30 replicated pairs)"
	mu             = "predicted mean score of the pair (the model's score, in its units)"
)

// Files lists every kind of file deup writes, in the order of
// docs/vocabulary.md.
func Files() []File {
	return []File{
		{
			Key: "screen-drugs", Title: "Screen: drugs table", Formats: []Format{Arrow, Parquet},
			Writer: "`deup data import`, `deup data synth`: `DIR/drugs.arrow` and `DIR/drugs.parquet`",
			Columns: []Column{
				{Name: "id", Type: String, Meaning: "the drug's id: its PubChem CID as text when it has one, else its name"},
				{Name: "name", Type: String, Meaning: "the drug's name"},
				{Name: "pubchem_cid", Type: Int64, Nullable: true, Meaning: "PubChem CID; null when unknown"},
				{Name: "smiles", Type: String, Nullable: true, Meaning: "SMILES; null when unknown"},
			},
		},
		{
			Key: "screen-pairs", Title: "Screen: pairs table", Formats: []Format{Arrow, Parquet},
			Writer: "`deup data import`, `deup data synth`: `DIR/pairs.arrow` and `DIR/pairs.parquet`",
			Columns: []Column{
				{Name: "drug_a_row", Type: Int32, Meaning: "row number (from 0) of the first drug in the drugs table; `drug_a` in version 1 screens, which still open"},
				{Name: "drug_b_row", Type: Int32, Meaning: "row number of the second drug"},
				{Name: "drug_a_id", Type: String, Meaning: "the first drug's id (join on this)"},
				{Name: "drug_b_id", Type: String, Meaning: "the second drug's id"},
				{Name: "cell_line", Type: String, Meaning: "cell line"},
				{Name: "n", Type: Int32, Meaning: "replicate measurements of the pair"},
				{Name: "{score}", Type: Float64, Nullable: true, Meaning: "mean of score column {score} over the replicates; null when none had it"},
				{Name: "{score}_var", Type: Float64, Nullable: true, Meaning: "sample variance (n − 1) of the replicates; null when fewer than two"},
				{Name: "{score}_n", Type: Int32, Optional: true, Meaning: "replicates that had the score; only when some replicate lacked it"},
				{Name: "true_mean", Type: Float64, Optional: true, Meaning: "synthetic screens: the noise-free mean"},
				{Name: "true_noise_var", Type: Float64, Optional: true, Meaning: "synthetic screens: the noise variance of one measurement"},
			},
		},
		{
			Key: "screen-meta", Title: "Screen: meta.json", Formats: []Format{JSON}, Document: true,
			Writer: "`deup data import`, `deup data synth`: `DIR/meta.json`",
			Columns: []Column{
				{Name: "format", Type: String, Meaning: `"deup-screen"`},
				{Name: "version", Type: Int64, Meaning: "2 (1: row numbers named drug_a, drug_b)"},
				{Name: "name", Type: String, Meaning: "the screen's name"},
				{Name: "score_names[]", Type: String, Meaning: "the score columns"},
				{Name: "cell_lines[]", Type: String, Meaning: "the cell lines"},
				{Name: "drugs", Type: Int64, Meaning: "rows of the drugs table"},
				{Name: "pairs", Type: Int64, Meaning: "rows of the pairs table"},
				{Name: "measurements", Type: Int64, Meaning: "replicate measurements in all"},
				{Name: "truth", Type: Bool, Meaning: "the pairs table has true_mean and true_noise_var"},
				{Name: "files[]", Type: String, Meaning: "the table files of the directory"},
			},
		},
		{
			Key: "screen-inspect", Title: "Screen: data inspect --json", Formats: []Format{JSON}, Document: true,
			Writer: "`deup data inspect DIR --json` (on standard output)",
			Columns: []Column{
				{Name: "name", Type: String, Meaning: "the screen's name"},
				{Name: "drugs", Type: Int64, Meaning: "drugs"},
				{Name: "pairs", Type: Int64, Meaning: "pairs (drug, drug, cell line)"},
				{Name: "measurements", Type: Int64, Meaning: "replicate measurements"},
				{Name: "cell_lines", Type: Int64, Meaning: "number of cell lines"},
				{Name: "cell_line_names[]", Type: String, Meaning: "their names"},
				{Name: "replicated_pairs", Type: Int64, Meaning: "pairs measured more than once"},
				{Name: "truth", Type: Bool, Meaning: "the screen is synthetic and carries its noise-free means"},
				{Name: "scores[].name", Type: String, Meaning: "a score column"},
				{Name: "scores[].pairs", Type: Int64, Meaning: "pairs with a value"},
				{Name: "scores[].missing", Type: Int64, Meaning: "pairs without"},
				{Name: "scores[].mean", Type: Float64, Nullable: true, Meaning: "mean over the pairs' means; null when no pair has a value"},
				{Name: "scores[].sd", Type: Float64, Nullable: true, Meaning: "sample standard deviation (n − 1); null for fewer than two"},
				{Name: "scores[].min", Type: Float64, Nullable: true, Meaning: "smallest pair mean"},
				{Name: "scores[].median", Type: Float64, Nullable: true, Meaning: "median pair mean"},
				{Name: "scores[].max", Type: Float64, Nullable: true, Meaning: "largest pair mean"},
				{Name: "drugs_without_smiles[]", Type: String, Meaning: "ids of drugs without a SMILES"},
				{Name: "drugs_with_unusable_smiles[]", Type: String, Meaning: "ids of drugs whose SMILES cannot be fingerprinted (left out by train and predict)"},
				{Name: "signatures", Type: Bool, Meaning: "L1000 signatures are stored beside the screen"},
				{Name: "drugs_without_signatures", Type: Null, Nullable: true, Optional: true, Meaning: "null when no signatures are stored"},
				{Name: "drugs_without_signatures[]", Type: String, Meaning: "ids of drugs without a signature"},
			},
		},
		{
			Key: "predictions", Title: "Predictions", Formats: []Format{CSV, Parquet, Arrow},
			Writer: "`deup predict --out FILE` (.csv, .parquet, .arrow)",
			Columns: []Column{
				{Name: "drug_a_id", Type: String, Meaning: "the first drug's id"},
				{Name: "drug_b_id", Type: String, Meaning: "the second drug's id"},
				{Name: "drug_a_name", Type: String, Meaning: "the first drug's name; empty when it has none of its own (see above)"},
				{Name: "drug_b_name", Type: String, Meaning: "the second drug's name"},
				{Name: "cell_line", Type: String, Meaning: "the model's cell line"},
				{Name: "score", Type: String, Meaning: "the model's score column"},
				{Name: "mu", Type: Float64, Meaning: mu},
				{Name: "sigma_total", Type: Float64, Meaning: sigmaTotal},
				{Name: "sigma_epistemic", Type: Float64, Meaning: sigmaEpistemic},
				{Name: "sigma_aleatoric", Type: Float64, Meaning: sigmaAleatoric},
				{Name: "lower", Type: Float64, Optional: true, Meaning: "lower end of the calibrated prediction interval (only with --coverage)"},
				{Name: "upper", Type: Float64, Optional: true, Meaning: "upper end of the interval"},
				{Name: "measured", Type: Bool, Meaning: "the pair has a mean of the score in the cell line in the model's screen (or --screen's)"},
				{Name: "measured_mean", Type: Float64, Nullable: true, Meaning: "that mean; missing when not measured"},
				{Name: "{pairs_column}", Type: String, Optional: true, Meaning: "every other column of the --pairs file, in its order, as text"},
			},
		},
		{
			Key: "suggestions", Title: "Suggestions", Formats: []Format{CSV, JSON, Parquet},
			Writer: "`deup suggest --out FILE` (.csv, .json, .parquet), the TUI's export (x)",
			Columns: []Column{
				{Name: "rank", Type: Int64, Meaning: "1 for the first suggestion"},
				{Name: "drug_a_id", Type: String, Meaning: "the first drug's id"},
				{Name: "drug_a_name", Type: String, Meaning: "its name, empty when it has none of its own (`drug_a` in files written before; still read)"},
				{Name: "drug_a_pubchem_cid", Type: Int64, Nullable: true, Meaning: "its PubChem CID; missing when unknown"},
				{Name: "drug_a_smiles", Type: String, Meaning: "its SMILES; empty when unknown"},
				{Name: "drug_b_id", Type: String, Meaning: "the second drug's id"},
				{Name: "drug_b_name", Type: String, Meaning: "its name"},
				{Name: "drug_b_pubchem_cid", Type: Int64, Nullable: true, Meaning: "its PubChem CID"},
				{Name: "drug_b_smiles", Type: String, Meaning: "its SMILES"},
				{Name: "cell_line", Type: String, Meaning: "cell line"},
				{Name: "mu", Type: Float64, Nullable: true, Meaning: mu},
				{Name: "sigma_total", Type: Float64, Nullable: true, Meaning: sigmaTotal},
				{Name: "sigma_epistemic", Type: Float64, Nullable: true, Meaning: sigmaEpistemic},
				{Name: "sigma_aleatoric", Type: Float64, Nullable: true, Meaning: sigmaAleatoric},
				{Name: "lower", Type: Float64, Nullable: true, Optional: true, Meaning: "calibrated prediction interval; missing without a calibration"},
				{Name: "upper", Type: Float64, Nullable: true, Optional: true, Meaning: "its upper end"},
				{Name: "acquisition", Type: Float64, Nullable: true, Meaning: "the acquisition value that ranked the pair (ucb: mu + κ·sigma_epistemic)"},
				{Name: "reason", Type: String, Meaning: "why the pair was suggested"},
			},
		},
		{
			Key: "bench-predictions", Title: "Bench: predictions.parquet", Formats: []Format{Parquet},
			Writer: "`deup bench --out DIR`: `DIR/predictions.parquet`, one row per seed, method and test pair",
			Columns: []Column{
				{Name: "seed", Type: Uint64, Meaning: "the run's seed"},
				{Name: "method", Type: String, Meaning: "the method"},
				{Name: "pair", Type: Int64, Meaning: "the pair's row number in the screen's pairs table"},
				{Name: "drug_a_id", Type: String, Meaning: "the first drug's id"},
				{Name: "drug_b_id", Type: String, Meaning: "the second drug's id"},
				{Name: "y", Type: Float64, Meaning: "the measured mean score"},
				{Name: "mu", Type: Float64, Meaning: mu},
				{Name: "sigma_total", Type: Float64, Meaning: sigmaTotal},
				{Name: "sigma_epistemic", Type: Float64, Meaning: sigmaEpistemic},
				{Name: "sigma_aleatoric", Type: Float64, Meaning: sigmaAleatoric},
				{Name: "true_mean", Type: Float64, Nullable: true, Meaning: "the noise-free mean (synthetic screens); null otherwise"},
			},
		},
		{
			Key: "bench-results", Title: "Bench: results.json", Formats: []Format{JSON}, Document: true,
			Writer: "`deup bench --out DIR`: `DIR/results.json`",
			Columns: []Column{
				{Name: "methods.{method}.{metric}.mean", Type: Float64, Nullable: true, Meaning: "mean over seeds of a metric (docs/METRICS.md; train_seconds; truth metrics and epi_excess_spearman, the Spearman correlation of σ_epistemic with |y − μ| − true noise sd, on synthetic screens); null when undefined"},
				{Name: "methods.{method}.{metric}.sd", Type: Float64, Nullable: true, Meaning: "its sample standard deviation over seeds"},
				{Name: "methods.{method}.{metric}.per_seed[]", Type: Float64, Nullable: true, Meaning: "its value for each seed"},
				{Name: "methods.{method}.sigma_epistemic.{epi_key}.mean", Type: Float64, Nullable: true, Meaning: "σ_epistemic by unseen drugs (docs/epistemic.md): epi_key unseen0, unseen1, unseen2 (mean σ_epistemic over the test pairs with 0, 1, 2 drugs in no training pair; unseen0 over the validation pairs under a split by drug) zero_fraction (share of test pairs with σ_epistemic = 0) or small_fraction (share with σ_epistemic below 0.1 σ_total); mean over the seeds that have such pairs"},
				{Name: "methods.{method}.sigma_epistemic.{epi_key}.sd", Type: Float64, Nullable: true, Meaning: "its sample standard deviation over those seeds"},
				{Name: "methods.{method}.sigma_epistemic.{epi_key}.per_seed[]", Type: Float64, Nullable: true, Meaning: "its value for each of those seeds"},
				{Name: "methods.{method}.conformal.{kind}.{interval_metric}.mean", Type: Float64, Nullable: true, Meaning: "conformal interval metrics, kind plain or normalized (coverage, width, worst_quintile_coverage, interval_score; coverages in percent)"},
				{Name: "methods.{method}.conformal.{kind}.{interval_metric}.sd", Type: Float64, Nullable: true, Meaning: "its sample standard deviation over seeds"},
				{Name: "methods.{method}.conformal.{kind}.{interval_metric}.per_seed[]", Type: Float64, Nullable: true, Meaning: "its value for each seed"},
				{Name: "methods.{method}.conformal.{kind}.quintile_coverage[].mean", Type: Float64, Nullable: true, Meaning: "coverage in each σ quintile, smallest σ first"},
				{Name: "methods.{method}.conformal.{kind}.quintile_coverage[].sd", Type: Float64, Nullable: true, Meaning: "its sample standard deviation over seeds"},
				{Name: "methods.{method}.conformal.{kind}.quintile_coverage[].per_seed[]", Type: Float64, Nullable: true, Meaning: "its value for each seed"},
				{Name: "wall_seconds", Type: Float64, Meaning: "the run's wall time"},
				{Name: "seeds", Type: Int64, Meaning: "number of seeds"},
				{Name: "test_pairs", Type: Int64, Meaning: "test pairs per seed"},
				{Name: "rows[]", Type: String, Meaning: "the methods in table order"},
				{Name: "seed_values[]", Type: Uint64, Meaning: "the seeds"},
				{Name: "screen", Type: String, Optional: true, Meaning: "the screen"},
				{Name: "notes.{method}", Type: String, Meaning: "what a method's σ means in this run"},
				{Name: "sigma_floored.{method}", Type: Null, Nullable: true, Optional: true, Meaning: "null when no seed had σ floored"},
				{Name: "sigma_floored.{method}[]", Type: Int64, Meaning: "test pairs whose σ was raised to the floor, per seed"},
				{Name: "sigma_floor_fraction_of_sd", Type: Float64, Meaning: "the σ floor as a fraction of the training targets' sd"},
				{Name: "conformal_alpha", Type: Float64, Meaning: "1 − the intervals' nominal coverage"},
				{Name: "conformal_calibration", Type: String, Meaning: "where the intervals' calibration pairs come from"},
			},
		},
		{
			Key: "campaign-json", Title: "Campaign: campaign.json", Formats: []Format{JSON}, Document: true,
			Writer:  "`deup campaign init DIR`: `DIR/campaign.json` (a readable copy of the ledger's init event)",
			Columns: configColumns(""),
		},
		{
			Key: "campaign-report", Title: "Campaign: report --json", Formats: []Format{JSON}, Document: true,
			Writer: "`deup campaign report DIR --json FILE`",
			Columns: append(configColumns("config."), []Column{
				{Name: "initial", Type: Int64, Meaning: "measured pairs before round 1"},
				{Name: "rounds[].round", Type: Int64, Meaning: "the round"},
				{Name: "rounds[].model_version", Type: String, Meaning: "the model that chose its batch"},
				{Name: "rounds[].suggested", Type: Int64, Meaning: "pairs suggested"},
				{Name: "rounds[].measured", Type: Int64, Meaning: "of them measured"},
				{Name: "rounds[].best_in_round", Type: Float64, Nullable: true, Meaning: "best measured score of the round; null before results"},
				{Name: "rounds[].best_so_far", Type: Float64, Meaning: "best measured score so far"},
				{Name: "rounds[].mean_abs_error", Type: Float64, Nullable: true, Meaning: "mean |y − mu| over the round's measured pairs"},
				{Name: "rounds[].mean_sigma_total", Type: Float64, Nullable: true, Meaning: "mean predicted sigma_total of the same pairs (compare with mean_abs_error)"},
				{Name: "rounds[].top1_found", Type: Float64, Nullable: true, Optional: true, Meaning: "retrospective campaigns: fraction of the screen's top-1 % pairs found so far"},
			}...),
			Notes: "`config` is the campaign's configuration, keyed as campaign.json.",
		},
		{
			Key: "campaign-ledger", Title: "Campaign: ledger events", Formats: []Format{Arrow},
			Writer: "every campaign command that changes a campaign: `DIR/ledger/NNNNNNNN-KIND.arrow`, one file per event (init, suggest, measure, …; package active/ledger); the event's header is in the schema metadata",
			Columns: []Column{
				{Name: "drug_a_row", Type: Int32, Meaning: "position (from 0) of the first drug in campaign.json's drugs; `drug_a` in version 1 events, which still read"},
				{Name: "drug_b_row", Type: Int32, Meaning: "position of the second drug"},
				{Name: "cell_line_row", Type: Int32, Meaning: "position of the cell line in campaign.json's cell_lines"},
				{Name: "candidate", Type: Bool, Meaning: "init events: the pair is a candidate (unmeasured), not a measured one"},
				{Name: "y", Type: Float64, Nullable: true, Meaning: "measured score; null when the event does not set it"},
				{Name: "mu", Type: Float64, Nullable: true, Meaning: mu},
				{Name: "sigma_total", Type: Float64, Nullable: true, Meaning: sigmaTotal},
				{Name: "sigma_epistemic", Type: Float64, Nullable: true, Meaning: sigmaEpistemic},
				{Name: "sigma_aleatoric", Type: Float64, Nullable: true, Meaning: sigmaAleatoric},
				{Name: "score", Type: Float64, Nullable: true, Meaning: "the acquisition value that ranked a suggestion"},
				{Name: "rank", Type: Int32, Meaning: "a suggestion's rank (1 = first); 0 otherwise"},
				{Name: "reason", Type: String, Meaning: "why the pair was suggested"},
				{Name: "phi", Type: ListFloat, Nullable: true, Meaning: "the stationarizing features of a suggestion (DEUP's error-predictor inputs); null when the surrogate has none"},
			},
		},
		{
			Key: "simulate-report", Title: "Campaign simulate: report.json", Formats: []Format{JSON}, Document: true,
			Writer: "`deup campaign simulate --out DIR`: `DIR/report.json`",
			Columns: []Column{
				{Name: "acquisitions.{strategy}.{series}.mean[]", Type: Float64, Nullable: true, Meaning: "per round (0 = the initial set), mean over seeds of top1_found (fraction of the top pairs found), best (best score so far), test_rmse (error on the unmeasured pairs), sigma_corr (Pearson correlation of sigma_total with |y - mu| there) or rare_share (share of the round's picks with a drug measured in at most 2 pairs before it); the last three null at round 0"},
				{Name: "acquisitions.{strategy}.{series}.se[]", Type: Float64, Nullable: true, Meaning: "its standard error over seeds"},
				{Name: "differences[].strategy", Type: String, Meaning: "a deup-* strategy"},
				{Name: "differences[].reference", Type: String, Meaning: "the greedy strategy it is compared with: deup-net-greedy when listed, else greedy"},
				{Name: "differences[].seeds", Type: Int64, Meaning: "runs paired by seed"},
				{Name: "differences[].{metric}.mean[]", Type: Float64, Nullable: true, Meaning: "per round, mean over seeds of the strategy's top1_found or best minus the reference's, paired by seed"},
				{Name: "differences[].{metric}.se[]", Type: Float64, Nullable: true, Meaning: "the standard error of the paired differences"},
				{Name: "rounds", Type: Int64, Meaning: "rounds per run"},
				{Name: "seeds", Type: Int64, Meaning: "runs per strategy"},
				{Name: "order[]", Type: String, Meaning: "the strategies in the order given"},
				{Name: "screen", Type: String, Meaning: "the screen"},
				{Name: "cell_line", Type: String, Optional: true, Meaning: "the cell line"},
				{Name: "pairs", Type: Int64, Meaning: "measured pairs in the screen"},
				{Name: "top_pairs", Type: Int64, Meaning: "pairs in the top fraction"},
				{Name: "top_frac", Type: Float64, Meaning: "the top fraction"},
				{Name: "init", Type: Int64, Meaning: "initial pairs"},
				{Name: "batch", Type: Int64, Meaning: "pairs per round"},
				{Name: "max_per_drug", Type: Int64, Meaning: "per-drug cap; 0: none"},
				{Name: "features", Type: String, Meaning: "drug features"},
				{Name: "measured[]", Type: Int64, Meaning: "pairs measured after each round"},
				{Name: "wall_seconds", Type: Float64, Meaning: "wall time"},
			},
		},
		{
			Key: "simulate-runs", Title: "Campaign simulate: runs.csv", Formats: []Format{CSV},
			Writer: "`deup campaign simulate --out DIR`: `DIR/runs.csv`, one row per strategy, seed and round",
			Columns: []Column{
				{Name: "strategy", Type: String, Meaning: "the strategy"},
				{Name: "seed", Type: Int64, Meaning: "the run's seed"},
				{Name: "round", Type: Int64, Meaning: "the round (0: the initial set)"},
				{Name: "measured", Type: Int64, Meaning: "pairs measured"},
				{Name: "best", Type: Float64, Meaning: "best score so far"},
				{Name: "top1_found", Type: Float64, Meaning: "fraction of the top pairs found"},
				{Name: "test_rmse", Type: Float64, Nullable: true, Meaning: "RMSE of mu on the unmeasured pairs; missing at round 0"},
				{Name: "sigma_corr", Type: Float64, Nullable: true, Meaning: "Pearson correlation of sigma_total with |y - mu| on the unmeasured pairs; missing at round 0 and for a constant sigma"},
				{Name: "rare_share", Type: Float64, Nullable: true, Meaning: "share of the round's picks with a drug measured in at most 2 pairs before it; missing at round 0"},
				{Name: "model_version", Type: String, Meaning: "the model that chose the round"},
			},
		},
		{
			Key: "simulate-summary", Title: "Campaign simulate: summary.csv", Formats: []Format{CSV},
			Writer: "`deup campaign simulate --out DIR`: `DIR/summary.csv`, one row per strategy and round, then one per deup-* strategy and round of its difference from greedy (strategy `A-B`, the difference in the top1_found and best columns, the others missing)",
			Columns: []Column{
				{Name: "strategy", Type: String, Meaning: "the strategy"},
				{Name: "round", Type: Int64, Meaning: "the round"},
				{Name: "measured", Type: Int64, Meaning: "pairs measured"},
				{Name: "top1_found_mean", Type: Float64, Meaning: "mean over seeds"},
				{Name: "top1_found_se", Type: Float64, Meaning: "standard error over seeds"},
				{Name: "best_mean", Type: Float64, Meaning: "mean over seeds of the best score so far"},
				{Name: "best_se", Type: Float64, Meaning: "its standard error"},
				{Name: "test_rmse_mean", Type: Float64, Nullable: true, Meaning: "missing at round 0"},
				{Name: "test_rmse_se", Type: Float64, Nullable: true, Meaning: "its standard error"},
				{Name: "sigma_corr_mean", Type: Float64, Nullable: true, Meaning: "mean over seeds of sigma_corr (runs.csv); missing at round 0"},
				{Name: "sigma_corr_se", Type: Float64, Nullable: true, Meaning: "its standard error"},
				{Name: "rare_share_mean", Type: Float64, Nullable: true, Meaning: "mean over seeds of rare_share (runs.csv); missing at round 0"},
				{Name: "rare_share_se", Type: Float64, Nullable: true, Meaning: "its standard error"},
			},
		},
		{
			Key: "fingerprints", Title: "Fingerprints", Formats: []Format{CSV, Parquet},
			Writer: "`deup fingerprint --out FILE` (.csv, .parquet)",
			Columns: []Column{
				{Name: "id", Type: String, Meaning: "the drug's id"},
				{Name: "name", Type: String, Nullable: true, Meaning: "its name; missing for id<TAB>smiles input"},
				{Name: "bits", Type: ListInt32, Meaning: "the fingerprint's on-bits in increasing order (CSV: space-separated)"},
			},
		},
		{
			Key: "signatures", Title: "Screen: L1000 signatures", Formats: []Format{Parquet, Arrow},
			Writer: "`deup data signatures --screen DIR`: `DIR/signatures.parquet`, `DIR/signatures.arrow` (gene ids in the schema metadata key lincs.genes)",
			Columns: []Column{
				{Name: "drug_id", Type: String, Nullable: true, Meaning: "the drug's id (as in the drugs table); never null in practice, nullable because a non-nullable list does not survive Parquet in arrow-go v15"},
				{Name: "signature", Type: String, Nullable: true, Meaning: "the GCT column used; null when the drug has no signature"},
				{Name: "matched_by", Type: String, Nullable: true, Meaning: "how it matched: pubchem_cid, name or parent_name; null when none"},
				{Name: "values", Type: ListFloat32, Nullable: true, Meaning: "the signature's z-scores, one per gene; null when none"},
			},
		},
		{
			Key: "almanac-comboscore", Title: "Screen: comboscore.csv of an NCI-ALMANAC wells import", Formats: []Format{CSV},
			Writer: "`deup data import --format almanac-wells --out DIR`: `DIR/comboscore.csv`",
			Columns: []Column{
				{Name: "nsc1", Type: Int64, Meaning: "NSC number of the first drug, in the wells file's order (NCI keeps both orders apart)"},
				{Name: "nsc2", Type: Int64, Meaning: "NSC number of the second drug"},
				{Name: "cell_line", Type: String, Meaning: "the wells file's CELLNAME"},
				{Name: "combo_score", Type: Float64, Meaning: "NCI's ComboScore: the sum of the block's well scores (expected − observed percent growth, NCI's rule) per plate, averaged over plates"},
				{Name: "n_wells", Type: Int64, Meaning: "combination wells scored, all plates"},
			},
		},
		{
			Key: "import-report", Title: "Screen: report.json of data import", Formats: []Format{JSON}, Document: true,
			Writer: "`deup data import --out DIR`: `DIR/report.json`",
			Columns: []Column{
				{Name: "format", Type: String, Meaning: "the input format (almanac, drugcomb, …; almanac-wells counts wells as its rows)"},
				{Name: "inputs[]", Type: String, Meaning: "the files read"},
				{Name: "score_columns[]", Type: String, Meaning: "the score columns imported"},
				{Name: "rows_read", Type: Int64, Meaning: "data rows read: measurements + every dropped count"},
				{Name: "measurements", Type: Int64, Meaning: "rows used"},
				{Name: "pairs", Type: Int64, Meaning: "pairs (drug, drug, cell line) kept"},
				{Name: "replicated_pairs", Type: Int64, Meaning: "pairs measured more than once"},
				{Name: "drugs", Type: Int64, Meaning: "drugs kept"},
				{Name: "cell_lines", Type: Int64, Meaning: "cell lines kept"},
				{Name: "dropped[].reason", Type: String, Optional: true, Meaning: "why rows were not used (absent when none were dropped)"},
				{Name: "dropped[].count", Type: Int64, Optional: true, Meaning: "how many"},
				{Name: "dropped[].examples[].where", Type: String, Optional: true, Meaning: "file:line of an example"},
				{Name: "dropped[].examples[].detail", Type: String, Optional: true, Meaning: "what was wrong there"},
				{Name: "notes[].reason", Type: String, Optional: true, Meaning: "something worth knowing that dropped no row"},
				{Name: "notes[].count", Type: Int64, Optional: true, Meaning: "how many"},
				{Name: "notes[].examples[].where", Type: String, Optional: true, Meaning: "where"},
				{Name: "notes[].examples[].detail", Type: String, Optional: true, Meaning: "what"},
				{Name: "unusable_structures[].id", Type: String, Optional: true, Meaning: "a drug left out because its SMILES cannot be fingerprinted (absent when none): its id"},
				{Name: "unusable_structures[].name", Type: String, Optional: true, Meaning: "its name"},
				{Name: "unusable_structures[].smiles", Type: String, Optional: true, Meaning: "its SMILES"},
				{Name: "unusable_structures[].error", Type: String, Optional: true, Meaning: "the parser's message, with the position in the SMILES"},
			},
		},
		{
			Key: "smo-results-csv", Title: "SMO: results.csv", Formats: []Format{CSV},
			Writer: "`deup smo --out DIR`: `DIR/results.csv`",
			Columns: []Column{
				{Name: "method", Type: String, Meaning: "the acquisition method"},
				{Name: "seed", Type: Int64, Meaning: "the run's seed"},
				{Name: "step", Type: Int64, Meaning: "the acquisition step; 0 is the initial design"},
				{Name: "value", Type: Float64, Meaning: "the function's value at the point acquired"},
				{Name: "best_so_far", Type: Float64, Meaning: "the best value found up to this step"},
			},
		},
		{
			Key: "smo-results-json", Title: "SMO: results.json", Formats: []Format{JSON}, Document: true,
			Writer: "`deup smo --out DIR`: `DIR/results.json`",
			Columns: []Column{
				{Name: "function", Type: String, Meaning: "the test function"},
				{Name: "dim", Type: Int64, Meaning: "its dimension"},
				{Name: "global_max", Type: Float64, Meaning: "its global maximum"},
				{Name: "steps", Type: Int64, Meaning: "acquisition steps per run"},
				{Name: "init", Type: Int64, Meaning: "points of the initial design"},
				{Name: "seeds[]", Type: Int64, Meaning: "the seeds"},
				{Name: "tolerance", Type: Float64, Meaning: "a run reaches the optimum within this of global_max"},
				{Name: "method_order[]", Type: String, Meaning: "the methods in the order asked for"},
				{Name: "methods.{method}.best_so_far[][]", Type: Float64, Meaning: "per seed, the best value after each step"},
				{Name: "methods.{method}.steps_to_optimum[]", Type: Int64, Nullable: true, Meaning: "per seed, the first step within tolerance; null when never"},
				{Name: "methods.{method}.initial_best[]", Type: Float64, Meaning: "per seed, the best value of the initial design"},
				{Name: "methods.{method}.reached_optimum", Type: Int64, Meaning: "runs that reached the optimum"},
				{Name: "methods.{method}.final_mean", Type: Float64, Meaning: "mean over seeds of the final best value"},
				{Name: "methods.{method}.final_sd", Type: Float64, Nullable: true, Meaning: "its sample standard deviation; null for one seed"},
				{Name: "methods.{method}.wall_seconds[]", Type: Float64, Meaning: "per seed, the run's wall time"},
			},
		},
		{
			Key: "ood-results", Title: "OOD rejection: results.json", Formats: []Format{JSON}, Document: true,
			Writer: "`deup ood --out DIR`: `DIR/results.json`",
			Columns: []Column{
				{Name: "methods.{method}.{metric}.mean", Type: Float64, Nullable: true, Meaning: "mean over seeds of a metric: srcc (Spearman of σ with the realized loss), auroc (in- vs out-of-distribution), rejection_auc, their one/two-unseen versions, rmse, train_seconds, and srcc_excess_risk on the synthetic screen; null when undefined"},
				{Name: "methods.{method}.{metric}.sd", Type: Float64, Nullable: true, Meaning: "its sample standard deviation over seeds; null for one seed"},
				{Name: "methods.{method}.sigma_epistemic.{epi_key}.mean", Type: Float64, Nullable: true, Meaning: "σ_epistemic by held-out drugs (docs/epistemic.md), as deup bench's: epi_key unseen0, unseen1, unseen2 (mean σ_epistemic over the test pairs with 0, 1, 2 held-out drugs), zero_fraction (share of test pairs with σ_epistemic = 0) or small_fraction (share with σ_epistemic below 0.1 σ_total); deup-<features> has no aleatoric estimate: the root of its predicted loss; absent for density; mean over the seeds that have such pairs"},
				{Name: "methods.{method}.sigma_epistemic.{epi_key}.sd", Type: Float64, Nullable: true, Meaning: "its sample standard deviation over those seeds"},
				{Name: "method_order[]", Type: String, Meaning: "the methods in the order asked for"},
				{Name: "n_in", Type: Int64, Meaning: "in-distribution test pairs, summed over seeds"},
				{Name: "n_out", Type: Int64, Meaning: "out-of-distribution test pairs (one or two held-out drugs), summed over seeds"},
				{Name: "n_one_unseen", Type: Int64, Meaning: "test pairs with one held-out drug, summed over seeds"},
				{Name: "n_two_unseen", Type: Int64, Meaning: "test pairs with two held-out drugs, summed over seeds"},
				{Name: "seeds[]", Type: Int64, Meaning: "the seeds"},
				{Name: "screen", Type: String, Meaning: "the screen (directory, or the synthetic default and its seed)"},
				{Name: "wall_seconds", Type: Float64, Meaning: "wall time of the whole run"},
			},
		},
		{
			Key: "rl-results", Title: "RL: results.json", Formats: []Format{JSON}, Document: true,
			Writer: "`deup rl --out DIR`: `DIR/results.json`",
			Columns: []Column{
				{Name: "env", Type: String, Meaning: "the environment (cartpole)"},
				{Name: "episodes", Type: Int64, Meaning: "episodes per run"},
				{Name: "seeds", Type: Int64, Meaning: "runs per agent"},
				{Name: "wall_seconds", Type: Float64, Meaning: "wall time of the whole table"},
				{Name: "agents.{agent}.average_regret.mean", Type: Float64, Meaning: "mean over seeds of the average regret after the last episode (total regret / episodes; bsuite's BASE_REGRET 1000 per episode)"},
				{Name: "agents.{agent}.average_regret.sd", Type: Float64, Nullable: true, Meaning: "its sample standard deviation; null for one seed"},
				{Name: "agents.{agent}.score.mean", Type: Float64, Meaning: "mean bsuite score: ½(average-regret score + share of runs with a best episode over 500)"},
				{Name: "agents.{agent}.score.sd", Type: Float64, Nullable: true, Meaning: "its sample standard deviation; null for one seed"},
				{Name: "agents.{agent}.per_seed[].seed", Type: Int64, Meaning: "the run's seed"},
				{Name: "agents.{agent}.per_seed[].total_regret", Type: Float64, Meaning: "1000·episodes − total return"},
				{Name: "agents.{agent}.per_seed[].best_episode", Type: Float64, Meaning: "the run's best episode return"},
				{Name: "agents.{agent}.per_seed[].wall_seconds", Type: Float64, Meaning: "the run's wall time"},
				{Name: "agents.{agent}.regret_curve[]", Type: Float64, Meaning: "average regret after each episode, mean over seeds"},
			},
		},
		{
			Key: "rl-runs", Title: "RL: runs.csv", Formats: []Format{CSV},
			Writer: "`deup rl --out DIR`: `DIR/runs.csv`",
			Columns: []Column{
				{Name: "agent", Type: String, Meaning: "the agent"},
				{Name: "seed", Type: Int64, Meaning: "the run's seed"},
				{Name: "episode", Type: Int64, Meaning: "the episode, from 1"},
				{Name: "return", Type: Int64, Meaning: "the episode's return (steps with reward)"},
				{Name: "total_regret", Type: Int64, Meaning: "1000·episode − the run's total return so far"},
			},
		},
	}
}

// configColumns are the keys of a campaign's configuration (campaign.json,
// and under prefix in campaign report --json).
func configColumns(prefix string) []Column {
	cols := []Column{
		{Name: "mode", Type: String, Meaning: "live or retrospective"},
		{Name: "screen", Type: String, Optional: true, Meaning: "the screen directory"},
		{Name: "score", Type: String, Meaning: "the score column"},
		{Name: "acquisition", Type: String, Meaning: "the acquisition (ucb:κ, ei, thompson, …)"},
		{Name: "model", Type: String, Meaning: "the surrogate (deup-net, deup-ridge, …)"},
		{Name: "features", Type: String, Meaning: "drug features"},
		{Name: "batch", Type: Int64, Meaning: "suggestions per round"},
		{Name: "rounds", Type: Int64, Meaning: "rounds to run; 0: no limit"},
		{Name: "max_per_drug", Type: Int64, Meaning: "per-drug cap of a batch; 0: none"},
		{Name: "seed", Type: Int64, Meaning: "the campaign's seed"},
		{Name: "drugs[].id", Type: String, Meaning: "a drug's id"},
		{Name: "drugs[].name", Type: String, Meaning: "its name"},
		{Name: "drugs[].pubchem_cid", Type: Int64, Meaning: "its PubChem CID; 0 when unknown"},
		{Name: "drugs[].smiles", Type: String, Meaning: "its SMILES"},
		{Name: "cell_lines[]", Type: String, Meaning: "the campaign's cell lines"},
	}
	for i := range cols {
		cols[i].Name = prefix + cols[i].Name
	}
	return cols
}

// Lookup returns the file with the given key.
func Lookup(key string) (File, bool) {
	for _, f := range Files() {
		if f.Key == key {
			return f, true
		}
	}
	return File{}, false
}

// AppendFloat appends v to b as text for CSV: strconv's 'g' form with prec
// significant digits (-1: the shortest that reads back exactly), with ".0"
// added when that form would read as an integer (0 is 0.0, 3 is 3.0), so
// that pandas and DuckDB read a float column. NaN and infinities are
// written as strconv writes them (NaN, +Inf, -Inf).
func AppendFloat(b []byte, v float64, prec int) []byte {
	n := len(b)
	b = strconv.AppendFloat(b, v, 'g', prec, 64)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return b
	}
	if bytes.IndexAny(b[n:], ".e") < 0 {
		b = append(b, ".0"...)
	}
	return b
}
