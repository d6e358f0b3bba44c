// Package vocab is deup's vocabulary, written once: every kind of file the
// commands write (screen tables, predictions, suggestions, the bench's
// outputs, campaign exports, fingerprints), each column's name, type,
// whether it may be missing, and what it means. docs/vocabulary.md's
// "Files and columns" section is generated from Files (Markdown) and a test
// keeps the two equal.
//
// ReadFile is the one reader the vocabulary is checked with. It reads a
// file by its extension and reports each column's name and type as a
// reader without a schema would see it:
//
//   - .parquet and .arrow: the Arrow schema (Parquet through its stored
//     Arrow schema), through internal/arrowguard;
//   - .csv: types inferred from the text as pandas and DuckDB infer them:
//     a column whose values all look like integers is Int64, like numbers
//     with a decimal point or an exponent (or NaN, Inf) is Float64, true
//     and false are Bool, anything else String; empty fields are missing
//     values and a column of only empty fields is Null;
//   - .json: an array of objects is a table (keys are columns); any other
//     document is flattened into dotted paths (a.b.c, with [] for the
//     elements of an array: rows[], methods.deup.rmse.per_seed[]). A number
//     written without a decimal point or exponent is Int64, with one
//     Float64; null is a missing value.
//
// A column whose numbers are written partly as integers and partly as
// floats reads as Mixed, which matches no vocabulary type: the rule is that
// a float column is written as floats in every row (0.0, not 0), because
// pandas and DuckDB type a column by its values, and a column of zeros
// written as 0 becomes an integer column. AppendFloat is the text form that
// keeps the rule.
//
// File.Check compares a read table with the vocabulary: every column of
// the file must be in the vocabulary with a compatible type (the Arrow type
// exactly for Parquet and Arrow; in CSV, which carries no types, a string
// column may read as anything, and ids that are all digits read as
// numbers), missing values only where the vocabulary allows them, and
// every column the vocabulary does not mark optional must be present.
package vocab
