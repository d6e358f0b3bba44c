// Package drugcomb holds drug-combination screens: the canonical in-memory
// form (Screen: a drugs table and a pairs table), its on-disk form (Arrow
// IPC and Parquet, readable by pandas, polars, DuckDB and Spark), importers
// for the public formats and for any table given a column map, and the
// train/validation/test splits.
//
// # Invariants
//
// A Screen's drug IDs are unique and non-empty; every Pair has A < B
// (indices into Drugs: the pair (a,b) and the pair (b,a) are one pair),
// N >= 1 replicate measurements, one Mean and one Var per score column,
// and (A, B, CellLine) is unique. Screen.Validate checks all of this; Save
// and Open call it.
//
// # Splits
//
// Every split is drawn from the seed with PCG on a stream of
// internal/streams: at random (SplitRandom), by drug (SplitByDrug, and
// groups of drugs: SplitByDrugGroups), by combination (SplitByCombination:
// an unordered drug pair leaves with every cell line it was measured on;
// Combinations numbers them), by cell line (SplitByCellLine), and K-fold
// cross-validation over any of these units (SplitFolds: a seeded
// permutation deals the units into K folds, every unit tested once).
// DrawOOS redraws a split's validation (out-of-sample) part by
// combination or drug, leaving its test part as it is.
//
// # Replicates and missing values
//
// Replicates of one (pair, cell line), in either drug order, are
// aggregated, never overwritten: Mean is the sample mean and Var the sample
// variance sum_i {(x_i - mean)^2} / (n - 1) over the n replicates that
// have the score (Welford's update, in input order). NaN marks a missing
// value: a Mean is NaN when no replicate had the score, a Var when fewer
// than two did. On disk NaN is a null.
//
// # On-disk layout (a screen directory)
//
//	meta.json      format "deup-screen", version 2, name, score_names, cell_lines, counts
//	drugs.arrow    Arrow IPC file; drugs.parquet the same table as Parquet
//	pairs.arrow    Arrow IPC file; pairs.parquet the same table as Parquet
//	report.json    the import's data report (written by the importers' callers)
//
// drugs: id (string), name (string), pubchem_cid (int64, null when
// unknown), smiles (string, null when unknown). pairs: drug_a_row,
// drug_b_row (int32, row numbers in drugs; version 1 called them drug_a,
// drug_b, and Open reads both), drug_a_id, drug_b_id (string, the drugs'
// ids, for joins), cell_line (string), n (int32, replicates), then per score
// column S: S (float64, null when missing), S_var (float64, null when
// n < 2), and S_n (int32) only when some replicate lacked S; synthetic
// screens add true_mean and true_noise_var (float64). Parquet files carry
// the Arrow schema, so types round-trip exactly.
//
// # Importers
//
// ImportTable reads any table (CSV, TSV or other delimited text, plain or
// gzip-compressed; Parquet; Arrow IPC file or stream, told apart by their
// first bytes) given a Columns map; ImportAlmanac and ImportDrugComb are
// ImportTable with fixed maps. A Catalogue (ReadCatalogueFile) supplies
// names, CIDs and SMILES by PubChem CID or by name, matched by one rule for
// every import (Catalogue.Match: exact, ignoring case, without a
// parenthetical alias or by it, without salt words, letters and digits
// only; the report notes each drug a fallback matched). Every import returns a
// Report: RowsRead = Measurements + the sum of the Dropped counts, each
// reason with its first MaxExamples locations.
//
// # Errors and bad input
//
// A bad file is a *ParseError naming the file, line (data row for binary
// tables), column and problem; with Options.Lenient, row-level problems
// (unparsable or infinite scores, wrong field counts, bad quoting, invalid
// UTF-8) are counted in the report instead. Input never panics: the text
// path uses encoding/csv; Arrow IPC and Parquet files are checked first by
// internal/arrowguard (the lengths arrow-go v15 trusts), Parquet columns
// are read in the calling goroutine, arrow-go panics on corrupt data are
// recovered into errors, and a binary table may hold at most
// arrowguard.Budget(size) = 64 MiB + 64 times its size in buffers. The importers are fuzzed (FuzzReadTable, FuzzCatalogue).
//
// # Ownership
//
// Functions return screens that share nothing with their inputs. Arrow
// memory is released before they return.
package drugcomb
