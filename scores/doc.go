// Package scores is a directory of scored pairs that many processes write
// in shards and that any Parquet reader reads as one table.
//
// Shards. A run scores an ordered list of rows: with all pairs, the pairs
// (a, b), a < b, of the n drugs sorted by id (byte order), row k being the
// k-th pair in the order (0,1), (0,2), …, (0,n−1), (1,2), …; with a pairs
// file, its rows in file order. Shard i of N (0 ≤ i < N) is the contiguous
// range [floor(total·i/N), floor(total·(i+1)/N)): the N ranges are
// disjoint, cover every row once, differ in size by at most one, and are
// empty only when N > total. Shard.Index may come from a scheduler's
// array index (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX): ParseShard.
//
// Layout (hive partitioning, as DuckDB, Spark, polars and pyarrow read it):
//
//	DIR/cell_line=X/part-i-of-N.parquet
//
// X is the cell line, escaped as a URL path segment (PC-3 stays PC-3). The
// files carry every prediction column except cell_line, which readers take
// from the directory name; every file of a directory has one schema. Each
// file is written under a temporary name beside it and renamed when
// complete (internal/atomicfile), so a file under its final name is whole.
// A run that scores several lines (a model trained on a panel) writes one
// part per line through Parts, which routes each record's rows to their
// line's part; a Part refuses a row of another line.
// Its key-value metadata (Identity) names the model (SHA-256 of the model
// file), the drugs scored (SHA-256 of their ids and SMILES), the pairs
// (all, or the SHA-256 of the pairs file), the program that wrote it, the
// shard and its row range.
//
// Check verifies a directory: per cell line every part 0..N−1 present
// once, one model, one drug list, one schema, ranges as the shard
// arithmetic gives them and row counts to match; with all pairs, the pairs
// strictly increasing across the parts and exactly n(n−1)/2 of them over n
// distinct drugs, which is every pair once. Its checksum is the count of
// rows and, for each of two 64-bit lanes, the sum modulo 2^64 of the
// SHA-256 of each row's canonical bytes (cell line, then every column's
// value: strings length-prefixed, floats as IEEE bits, booleans, nulls
// marked): independent of row order and of how the rows were sharded, so
// the N parts of a run and a one-process run give the same checksum.
package scores
