package drugcomb

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// A ParseError is bad input: it names the file, the line (text) or row
// (Arrow, Parquet), the column, and what is wrong.
type ParseError struct {
	File   string
	Line   int    // 1-based line of a text file, or 1-based data row of a binary table; 0 if unknown
	Column int    // 1-based character column in a text file; 0 if unknown
	Field  string // column name, "" if unknown
	Binary bool   // Line counts data rows of an Arrow or Parquet table
	Err    error
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	switch {
	case e.Binary && e.Line > 0:
		fmt.Fprintf(&b, ": row %d", e.Line)
	case e.Line > 0:
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": column %q", e.Field)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// Errors wrapped in a ParseError.
var (
	ErrNoHeader      = errors.New("empty file (no header line)")
	ErrMissingColumn = errors.New("missing column")
	ErrFieldCount    = errors.New("wrong number of fields")
	ErrNotNumber     = errors.New("not a number")
	ErrInfinite      = errors.New("infinite value")
	ErrType          = errors.New("unsupported column type")
	ErrUTF8          = errors.New("text is not valid UTF-8")
	ErrRecordSize    = fmt.Errorf("a record (line) longer than %d bytes", MaxRecordBytes)
)

// MaxRecordBytes bounds one record of a text table (a line, or several if
// a quoted field spans them), so that the fields of one record (at most
// this many) cannot take memory out of proportion to a real table, even
// from a small gzip-compressed file. The check counts the bytes read since
// the previous record, with up to 8 KiB of read-ahead.
const MaxRecordBytes = 1 << 20

// rowSource iterates over the data rows of a table.
type rowSource interface {
	header() []string
	// next advances to the next row; it returns false at the end. A
	// *rowError is a bad row the importer may skip in lenient mode.
	next() (bool, error)
	// field is column j of the current row; null is "".
	field(j int) (string, error)
	// loc is the current row's location for reports ("file:line").
	loc() string
	// perr builds a ParseError at column j of the current row.
	perr(j int, err error) *ParseError
	close()
}

// rowError is a bad row: the reason it would be dropped under, and the error.
type rowError struct {
	reason string
	err    *ParseError
}

func (e *rowError) Error() string { return e.err.Error() }
func (e *rowError) Unwrap() error { return e.err }

// openTable opens a table file: CSV/TSV text (optionally gzip-compressed),
// Parquet, or Arrow IPC (file or stream), told apart by their first bytes.
// delim 0 means: sniff the delimiter from the header line.
func openTable(path string, delim rune, mem memory.Allocator) (rowSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	src, err := newTableSource(path, f, delim, mem)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &closingSource{src, f}, nil
}

type closingSource struct {
	rowSource
	f *os.File
}

func (c *closingSource) close() { c.rowSource.close(); c.f.Close() }

// newTableSource reads a table from r (named name in messages).
func newTableSource(name string, r io.Reader, delim rune, mem memory.Allocator) (rowSource, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, _ := br.Peek(8)
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &ParseError{File: name, Err: fmt.Errorf("gzip: %w", err)}
		}
		// Only text is read compressed: a binary table or another gzip
		// stream inside would be read whole, or inflate without bound.
		zb := bufio.NewReaderSize(zr, 64<<10)
		inner, _ := zb.Peek(8)
		if bytes.HasPrefix(inner, []byte{0x1f, 0x8b}) || bytes.HasPrefix(inner, []byte("PAR1")) || bytes.HasPrefix(inner, []byte("ARROW1")) || bytes.HasPrefix(inner, []byte{0xff, 0xff, 0xff, 0xff}) {
			return nil, &ParseError{File: name, Err: errors.New("gzip: a gzip, Parquet or Arrow file inside: only CSV/TSV text is read compressed")}
		}
		return newCSVSource(name, zb, delim)
	case bytes.HasPrefix(magic, []byte("FEA1")):
		return nil, &ParseError{File: name, Err: errors.New("a Feather v1 file: not supported; write Feather v2 (Arrow IPC), Parquet or CSV")}
	case bytes.HasPrefix(magic, []byte("PK\x03\x04")):
		return nil, &ParseError{File: name, Err: errors.New("a zip archive (an Excel workbook?): export the sheet to CSV, or unzip it")}
	case bytes.HasPrefix(magic, []byte("PAR1")), bytes.HasPrefix(magic, []byte("ARROW1")), bytes.HasPrefix(magic, []byte{0xff, 0xff, 0xff, 0xff}):
		b, err := io.ReadAll(br)
		if err != nil {
			return nil, &ParseError{File: name, Err: err}
		}
		return newBinarySource(name, b, mem)
	}
	return newCSVSource(name, br, delim)
}

// csvSource reads delimited text with encoding/csv.
type csvSource struct {
	name string
	r    *csv.Reader
	lim  *recordLimiter
	hdr  []string
	rec  []string
	line int
}

// sniffDelimiter picks the delimiter of a header line: the most frequent of
// tab, comma, semicolon and pipe outside double quotes; a tie or none falls
// back to the file extension (.tsv, .tab: tab; otherwise comma).
func sniffDelimiter(name string, header []byte) rune {
	counts := map[rune]int{}
	inQ := false
	for _, c := range string(header) {
		if c == '"' {
			inQ = !inQ
		}
		if !inQ && (c == '\t' || c == ',' || c == ';' || c == '|') {
			counts[c]++
		}
	}
	def := ','
	switch strings.ToLower(filepath.Ext(strings.TrimSuffix(name, ".gz"))) {
	case ".tsv", ".tab":
		def = '\t'
	}
	best, bestN := def, counts[def]
	for _, c := range []rune{'\t', ',', ';', '|'} {
		if counts[c] > bestN {
			best, bestN = c, counts[c]
		}
	}
	return best
}

func newCSVSource(name string, br *bufio.Reader, delim rune) (*csvSource, error) {
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte{0xef, 0xbb, 0xbf}) {
		br.Discard(3)
	}
	if delim == 0 {
		peek, _ := br.Peek(64 << 10)
		if i := bytes.IndexByte(peek, '\n'); i >= 0 {
			peek = peek[:i]
		}
		delim = sniffDelimiter(name, peek)
	}
	if delim == '"' || delim == '\r' || delim == '\n' || delim == utf8.RuneError || delim < 0 {
		return nil, &ParseError{File: name, Err: fmt.Errorf("invalid delimiter %q", delim)}
	}
	lim := &recordLimiter{r: br, left: MaxRecordBytes + 8<<10}
	r := csv.NewReader(lim)
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	hdr, err := r.Read()
	if err == io.EOF {
		return nil, &ParseError{File: name, Line: 1, Err: ErrNoHeader}
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	s := &csvSource{name: name, r: r, lim: lim, hdr: make([]string, len(hdr)), line: 1}
	for i, h := range hdr {
		s.hdr[i] = strings.TrimSpace(h)
	}
	return s, nil
}

// recordLimiter fails a read once more than left bytes have been read
// since the reader reset left (at each record).
type recordLimiter struct {
	r    io.Reader
	left int
}

func (l *recordLimiter) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, ErrRecordSize
	}
	if len(p) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= n
	return n, err
}

func csvErr(name string, err error) *ParseError {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: name, Line: pe.Line, Column: pe.Column, Err: pe.Err}
	}
	return &ParseError{File: name, Err: err}
}

func (s *csvSource) header() []string { return s.hdr }

func (s *csvSource) next() (bool, error) {
	s.lim.left = MaxRecordBytes + 8<<10
	rec, err := s.r.Read()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) && pe.Err != nil && !errors.Is(pe.Err, io.ErrUnexpectedEOF) {
			s.line = pe.StartLine
			s.rec = nil
			return true, &rowError{ReasonMalformed, csvErr(s.name, err)}
		}
		if errors.Is(err, ErrRecordSize) {
			return false, &ParseError{File: s.name, Line: s.line + 1, Err: fmt.Errorf("%w (the record after line %d)", err, s.line)}
		}
		// Read errors (and a quoted field the file ends inside) stop the import.
		return false, csvErr(s.name, err)
	}
	s.rec = rec
	s.line, _ = s.r.FieldPos(0)
	if len(rec) != len(s.hdr) {
		e := &ParseError{File: s.name, Line: s.line, Err: fmt.Errorf("%w: %d fields, the header has %d", ErrFieldCount, len(rec), len(s.hdr))}
		if len(rec) > 0 { // the column just after the last field
			l, c := s.r.FieldPos(len(rec) - 1)
			if l == s.line {
				e.Column = c + len(rec[len(rec)-1])
			}
		}
		if len(rec) == 1 && len(s.hdr) > 1 {
			e.Err = fmt.Errorf("%w (a truncated or blank-padded line?)", e.Err)
		}
		return true, &rowError{ReasonFieldCount, e}
	}
	return true, nil
}

func (s *csvSource) field(j int) (string, error) { return s.rec[j], nil }

func (s *csvSource) loc() string { return fmt.Sprintf("%s:%d", s.name, s.line) }

func (s *csvSource) perr(j int, err error) *ParseError {
	e := &ParseError{File: s.name, Line: s.line, Err: err}
	if j >= 0 && j < len(s.rec) {
		e.Line, e.Column = s.r.FieldPos(j)
	}
	if j >= 0 && j < len(s.hdr) {
		e.Field = s.hdr[j]
	}
	return e
}

func (s *csvSource) close() {}

// binarySource reads an Arrow IPC (file or stream) or Parquet table held in
// memory. Columns keep their own chunking (no concatenation: arrow-go v15
// leaks when it concatenates dictionary arrays); each column has a cursor
// that moves forward with the rows.
type binarySource struct {
	name string
	tbl  arrow.Table
	hdr  []string
	cols []*colCursor
	row  int // 1-based data row
	n    int64
}

type colCursor struct {
	chunks []arrow.Array
	k      int // current chunk
	start  int // first row (0-based) of chunk k
}

// at returns the chunk holding 0-based row i and i's offset in it.
func (c *colCursor) at(i int) (arrow.Array, int, bool) {
	for c.k < len(c.chunks) && i >= c.start+c.chunks[c.k].Len() {
		c.start += c.chunks[c.k].Len()
		c.k++
	}
	if c.k >= len(c.chunks) || i < c.start {
		return nil, 0, false
	}
	return c.chunks[c.k], i - c.start, true
}

func newBinarySource(name string, b []byte, mem memory.Allocator) (rowSource, error) {
	var (
		tbl arrow.Table
		err error
	)
	// The readers check the file with arrowguard and hold at most
	// arrowguard.Budget(len(b)) bytes of buffers.
	switch {
	case bytes.HasPrefix(b, []byte("PAR1")):
		tbl, err = readParquet(bytes.NewReader(b), int64(len(b)), name, mem)
	default:
		tbl, err = readIPCBytes(b, name, mem)
	}
	if err != nil {
		return nil, err // names the file
	}
	s := &binarySource{name: name, tbl: tbl, n: tbl.NumRows()}
	sc := tbl.Schema()
	for i := 0; i < int(tbl.NumCols()); i++ {
		s.hdr = append(s.hdr, sc.Field(i).Name)
		s.cols = append(s.cols, &colCursor{chunks: tbl.Column(i).Data().Chunks()})
	}
	return s, nil
}

func (s *binarySource) header() []string { return s.hdr }

func (s *binarySource) next() (bool, error) {
	if int64(s.row) >= s.n {
		return false, nil
	}
	s.row++
	return true, nil
}

func (s *binarySource) field(j int) (v string, err error) {
	defer func() {
		if p := recover(); p != nil { // arrow-go does not validate offsets it read
			v, err = "", s.perr(j, fmt.Errorf("corrupt value: %v", p))
		}
	}()
	a, i, ok := s.cols[j].at(s.row - 1)
	if !ok {
		return "", s.perr(j, errors.New("column shorter than the table"))
	}
	v, err = valueString(a, i)
	if err != nil {
		return "", s.perr(j, err)
	}
	return v, nil
}

// valueString formats element i of a as text: integers in decimal, floats
// in the shortest form that parses back to the same value, null as "".
func valueString(a arrow.Array, i int) (string, error) {
	if a.IsNull(i) {
		return "", nil
	}
	switch a := a.(type) {
	case *array.String:
		return a.Value(i), nil
	case *array.LargeString:
		return a.Value(i), nil
	case *array.Binary:
		return string(a.Value(i)), nil
	case *array.LargeBinary:
		return string(a.Value(i)), nil
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10), nil
	case *array.Uint8:
		return strconv.FormatUint(uint64(a.Value(i)), 10), nil
	case *array.Uint16:
		return strconv.FormatUint(uint64(a.Value(i)), 10), nil
	case *array.Uint32:
		return strconv.FormatUint(uint64(a.Value(i)), 10), nil
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10), nil
	case *array.Float16:
		return strconv.FormatFloat(float64(a.Value(i).Float32()), 'g', -1, 32), nil
	case *array.Float32:
		return strconv.FormatFloat(float64(a.Value(i)), 'g', -1, 32), nil
	case *array.Float64:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64), nil
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i)), nil
	case *array.Null:
		return "", nil
	case *array.Dictionary:
		return valueString(a.Dictionary(), a.GetValueIndex(i))
	}
	return "", fmt.Errorf("%w %s", ErrType, a.DataType())
}

func (s *binarySource) loc() string { return fmt.Sprintf("%s:row %d", s.name, s.row) }

func (s *binarySource) perr(j int, err error) *ParseError {
	e := &ParseError{File: s.name, Line: s.row, Binary: true, Err: err}
	if j >= 0 && j < len(s.hdr) {
		e.Field = s.hdr[j]
	}
	return e
}

func (s *binarySource) close() {
	s.cols = nil
	if s.tbl != nil {
		s.tbl.Release()
		s.tbl = nil
	}
}

// missingTokens are the spellings of "no value" in the public tables.
var missingTokens = map[string]bool{"": true, "na": true, "n/a": true, "nan": true, "null": true, "none": true, `\n`: true, "#n/a": true}

// isMissing reports whether a field is empty or an NA spelling.
func isMissing(v string) bool { return missingTokens[strings.ToLower(strings.TrimSpace(v))] }

// parseScore parses a score field: NaN (and no error) when missing.
func parseScore(v string) (float64, error) {
	if isMissing(v) {
		return math.NaN(), nil
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, fmt.Errorf("%w: %q", ErrInfinite, v)
		}
		return 0, fmt.Errorf("%w: %q", ErrNotNumber, v)
	}
	if math.IsInf(x, 0) {
		return 0, fmt.Errorf("%w: %q", ErrInfinite, v)
	}
	return x, nil
}
