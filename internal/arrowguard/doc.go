// Package arrowguard checks Arrow IPC and Parquet files before arrow-go
// (apache/arrow/go/v15) reads them, and bounds the memory the reading may
// take. Every Arrow and Parquet reader of the project goes through it:
// drugcomb (screen tables, saved screens), lincs (signature matrices),
// suggest, tui/pairs (prediction files) and active/ledger.
//
// arrow-go trusts lengths it reads from a file: flatbuffer vector lengths
// (schema fields, record batch nodes and buffers, variadic buffer counts),
// array lengths, the uncompressed size of a compressed buffer, Thrift list
// and string lengths in a Parquet footer. A corrupt length makes it
// allocate terabytes, a fatal error that no recover can catch, or loop for
// hours. CheckIPC and CheckParquet vet those lengths against the file's
// size before any reader sees the file:
//
//   - every vector, string and list length fits in the bytes that hold it;
//   - every message, body and buffer lies inside the file;
//   - an Arrow record batch declares at most 8 rows per byte of its
//     (uncompressed) body plus 1024, and each of its array nodes as many
//     (so an array of N rows needs about N/8 bytes: a bitmap's worth);
//     a variadic buffer count is at most the batch's number of buffers;
//   - the declared uncompressed sizes of compressed buffers, and the rows
//     of a Parquet file, stay within Budget(size);
//   - a Parquet file's column chunks do not overlap, and every page of
//     every chunk, walked as arrow-go will walk it, has a well-formed
//     header of a type arrow-go reads (data or dictionary: on other types
//     its page reader loops without end) and sizes within the chunk and
//     the budget (see pages.go).
//
// Budget(size) = 64 MiB + 64 × size is the most bytes of Arrow buffers a
// reader may hold for a file of size bytes; Allocator enforces it by
// panicking with a *BudgetError that Recover turns into an error. Recover
// also turns arrow-go's panics on inconsistent input (it does not validate
// offsets) into errors; it must be deferred in the goroutine that reads,
// so readers read in the calling goroutine.
//
// These are limits of the project's readers, not of the formats: a valid
// file whose arrays hold more than 8 rows per byte (Null-typed or run-end
// encoded columns only), or that expands to more than Budget(size), is
// refused with an error that says so.
package arrowguard
