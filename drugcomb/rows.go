package drugcomb

import (
	"io"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Rows reads the data rows of a table with the importer's own reader (CSV/TSV
// text, optionally gzip-compressed, Parquet or Arrow IPC, told apart by their
// first bytes), for packages that read tables of another shape (doseresp's
// plate tables). Fields are strings; a null is "".
type Rows struct{ src rowSource }

// OpenRows reads a table from r, named name in errors. delim 0 sniffs the
// delimiter of a text table from its header line.
func OpenRows(name string, r io.Reader, delim rune) (*Rows, error) {
	src, err := newTableSource(name, r, delim, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	return &Rows{src}, nil
}

// Header returns the column names (trimmed).
func (r *Rows) Header() []string { return r.src.header() }

// Next advances to the next row and returns false at the end. A row of the
// wrong width or with bad quoting returns true with a *ParseError naming it.
func (r *Rows) Next() (bool, error) {
	ok, err := r.src.next()
	if re, isRow := err.(*rowError); isRow {
		return ok, re.err
	}
	return ok, err
}

// Field returns column j of the current row.
func (r *Rows) Field(j int) (string, error) { return r.src.field(j) }

// Loc names the current row ("file:line", or "file:row N").
func (r *Rows) Loc() string { return r.src.loc() }

// Error builds a ParseError at column j of the current row.
func (r *Rows) Error(j int, err error) *ParseError { return r.src.perr(j, err) }

// Close releases the reader (not r's underlying reader).
func (r *Rows) Close() { r.src.close() }

// ParseNumber parses a numeric field: NaN and no error for an empty or NA
// field (na, nan, null, none, #n/a), ErrNotNumber or ErrInfinite otherwise.
func ParseNumber(v string) (float64, error) { return parseScore(v) }
