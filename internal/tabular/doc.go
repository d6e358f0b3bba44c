// Package tabular is the one writer of the project's tables: CSV, Arrow IPC
// (file format) or Parquet, chosen by the output's extension, written from
// Arrow records.
//
// One policy for every command:
//   - Parquet: Snappy compression, a REQUIRED root (as Arrow C++/pyarrow
//     writes it; arrow-go's default, REPEATED, makes other readers such as
//     parquet-go expect repetition levels in every column and fail), the
//     Arrow schema stored in the file. Each Write is written at once as
//     its own row groups (of at most RowGroupRows rows): nothing is held
//     in memory beyond the record being written, so a table of millions of
//     rows streams in records of tens of thousands.
//   - Arrow: the IPC file format ("ARROW1" magic, footer), one record batch
//     per Write, uncompressed.
//   - CSV: a header line of the field names, RFC 4180 quoting (a field is
//     quoted when it holds a comma, a quote, a line break or starts with a
//     space), nulls as empty fields, booleans as true/false, lists of
//     integers as space-separated numbers, float64 values in the shortest
//     form that reads back exactly, or with Options.Digits significant
//     digits, always with a decimal point or exponent (0.0, not 0: pandas
//     and DuckDB then read a float column).
//
// File (Create) writes through internal/atomicfile: the table is written to
// a temporary name beside its path and renamed into place by Commit, after
// a sync; a run killed at any moment leaves the previous file or none
// under the final name. Writer writes to any io.Writer (an in-memory
// buffer, a file the caller owns).
//
// Ownership: Write does not retain or release the record it is given.
package tabular
