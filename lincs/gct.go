package lincs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Matrix is a GCT matrix: Rows (genes) by Cols (signatures) of float32
// values, with optional per-row and per-column metadata fields.
//
// Invariants (kept by ReadGCT and FromRecord, and checked by Validate):
// len(Values) == len(Rows)*len(Cols), every Field of RowMeta has len(Rows)
// values, every Field of ColMeta has len(Cols) values, and row ids and column
// ids are each unique.
type Matrix struct {
	// Version is the GCT version the matrix was read from: "1.2" or "1.3".
	Version string
	Rows    []string // row ids (for L1000: gene ids or symbols)
	Cols    []string // column ids (for L1000 consensus signatures: pert_iname)
	// RowMeta are the row metadata fields, in file order. A GCT 1.2 file has
	// exactly one, "Description".
	RowMeta []Field
	// ColMeta are the column metadata fields (GCT 1.3 only), in file order.
	ColMeta []Field
	// Values holds the matrix row-major: the value of row i, column j is
	// Values[i*len(Cols)+j]. Missing values are NaN.
	Values []float32
}

// Field is one named metadata field with one string per row or column.
type Field struct {
	Name   string
	Values []string
}

// At returns the value at row i, column j.
func (m *Matrix) At(i, j int) float32 { return m.Values[i*len(m.Cols)+j] }

// Col copies column j into dst (grown if needed) and returns it.
func (m *Matrix) Col(dst []float32, j int) []float32 {
	if cap(dst) < len(m.Rows) {
		dst = make([]float32, len(m.Rows))
	}
	dst = dst[:len(m.Rows)]
	for i := range m.Rows {
		dst[i] = m.Values[i*len(m.Cols)+j]
	}
	return dst
}

// Validate checks the invariants of m.
func (m *Matrix) Validate() error {
	if m.Version != "1.2" && m.Version != "1.3" {
		return fmt.Errorf("lincs: matrix: unknown GCT version %q", m.Version)
	}
	if len(m.Values) != len(m.Rows)*len(m.Cols) {
		return fmt.Errorf("lincs: matrix: %d values for %d rows x %d columns", len(m.Values), len(m.Rows), len(m.Cols))
	}
	if m.Version == "1.2" && (len(m.RowMeta) != 1 || len(m.ColMeta) != 0) {
		return fmt.Errorf("lincs: matrix: GCT 1.2 has exactly one row metadata field and no column metadata (have %d, %d)", len(m.RowMeta), len(m.ColMeta))
	}
	for _, f := range m.RowMeta {
		if len(f.Values) != len(m.Rows) {
			return fmt.Errorf("lincs: matrix: row metadata %q has %d values for %d rows", f.Name, len(f.Values), len(m.Rows))
		}
	}
	for _, f := range m.ColMeta {
		if len(f.Values) != len(m.Cols) {
			return fmt.Errorf("lincs: matrix: column metadata %q has %d values for %d columns", f.Name, len(f.Values), len(m.Cols))
		}
	}
	if i, j := firstDuplicate(m.Rows); j >= 0 {
		return fmt.Errorf("lincs: matrix: duplicate row id %q (rows %d and %d)", m.Rows[j], i+1, j+1)
	}
	if i, j := firstDuplicate(m.Cols); j >= 0 {
		return fmt.Errorf("lincs: matrix: duplicate column id %q (columns %d and %d)", m.Cols[j], i+1, j+1)
	}
	return nil
}

// firstDuplicate returns the indices of the first repeated string, or -1, -1.
func firstDuplicate(ids []string) (int, int) {
	seen := make(map[string]int, len(ids))
	for j, id := range ids {
		if i, ok := seen[id]; ok {
			return i, j
		}
		seen[id] = j
	}
	return -1, -1
}

// ParseError is a syntax or shape error in a GCT file. Line and Column are
// 1-based; Column counts tab-separated fields (0 when the error concerns the
// whole line).
type ParseError struct {
	File   string
	Line   int
	Column int
	Err    error
}

func (e *ParseError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("lincs: %s:%d: column %d: %v", e.File, e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("lincs: %s:%d: %v", e.File, e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Sentinel errors wrapped by ParseError.
var (
	ErrVersion    = errors.New("not a GCT file: first line must be #1.2 or #1.3")
	ErrFieldCount = errors.New("wrong number of fields")
	ErrNumber     = errors.New("not a number")
	ErrTruncated  = errors.New("file ends early")
	ErrExtra      = errors.New("more lines than the header declares")
	ErrDuplicate  = errors.New("duplicate id")
)

// maxPrealloc bounds the values (float32s) and maxPreallocRows the rows
// (ids, metadata values, the id index) that the reader allocates on the
// word of the header alone, so that a corrupt header cannot make it
// allocate out of proportion to the file (4 MiB of values, 64 Ki rows:
// about 8 MB in all); past them, slices grow as the data lines confirm the
// dimensions. Fuzzing found a 30-byte file declaring 144,444,444 rows that
// made the former single cap of 2^24 rows cost about 1 GB (the id index).
const (
	maxPrealloc     = 1 << 20
	maxPreallocRows = 1 << 16
)

// ReadGCTFile reads a GCT 1.2 or 1.3 file; a name ending in ".gz" is
// decompressed.
func ReadGCTFile(path string) (*Matrix, error) {
	return readFile(path, ReadGCT)
}

// readFile opens path, decompressing a name ending in ".gz", and reads it
// with read (which takes the path as the name for its errors).
func readFile[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, fmt.Errorf("lincs: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return zero, fmt.Errorf("lincs: %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	return read(r, path)
}

// ReadGCT reads a GCT 1.2 or 1.3 text file from r; name is used in errors.
// Values "NaN", "nan", "-nan", "NA", "N/A", "#N/A", "NULL" (any case) and
// empty fields are missing values and read as NaN. Lines may end in "\n" or
// "\r\n"; a final line without a newline is accepted. Any other deviation
// (wrong field count, unparsable number, fewer or more data lines than the
// header declares, duplicate row or column ids) is a *ParseError.
func ReadGCT(r io.Reader, name string) (*Matrix, error) {
	p := &gctParser{br: bufio.NewReaderSize(r, 1<<16), name: name}
	m, err := p.parse()
	if err != nil {
		return nil, err
	}
	return m, nil
}

type gctParser struct {
	br     *bufio.Reader
	name   string
	line   int
	fields [][]byte
}

func (p *gctParser) errf(col int, err error, format string, args ...any) error {
	if format != "" {
		err = fmt.Errorf("%w: "+format, append([]any{err}, args...)...)
	}
	return &ParseError{File: p.name, Line: p.line, Column: col, Err: err}
}

// next reads the next line, split on tabs into p.fields. It returns io.EOF at
// the end of input.
func (p *gctParser) next() error {
	b, err := p.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		long := append([]byte(nil), b...)
		for err == bufio.ErrBufferFull {
			b, err = p.br.ReadSlice('\n')
			long = append(long, b...)
		}
		b = long
	}
	if err != nil && err != io.EOF {
		return &ParseError{File: p.name, Line: p.line + 1, Err: err}
	}
	if len(b) == 0 && err == io.EOF {
		return io.EOF
	}
	p.line++
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	p.fields = p.fields[:0]
	for {
		i := bytes.IndexByte(b, '\t')
		if i < 0 {
			p.fields = append(p.fields, b)
			break
		}
		p.fields = append(p.fields, b[:i])
		b = b[i+1:]
	}
	return nil
}

func (p *gctParser) mustNext(what string) error {
	err := p.next()
	if err == io.EOF {
		p.line++
		return p.errf(0, ErrTruncated, "expected %s", what)
	}
	return err
}

func (p *gctParser) wantFields(n int, what string) error {
	if len(p.fields) != n {
		col := 0
		if len(p.fields) > n {
			col = n + 1
		}
		return p.errf(col, ErrFieldCount, "%s has %d tab-separated fields, want %d", what, len(p.fields), n)
	}
	return nil
}

func (p *gctParser) dim(col int, what string) (int, error) {
	s := string(p.fields[col-1])
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > math.MaxInt32 {
		return 0, p.errf(col, ErrNumber, "%s %q is not an integer in [0, 2^31)", what, s)
	}
	return n, nil
}

func (p *gctParser) parse() (*Matrix, error) {
	if err := p.next(); err != nil {
		if err == io.EOF {
			p.line = 1
			return nil, p.errf(0, ErrVersion, "empty input")
		}
		return nil, err
	}
	m := &Matrix{}
	switch v := strings.TrimSpace(string(bytes.TrimPrefix(p.fields[0], []byte("\xef\xbb\xbf")))); {
	case len(p.fields) == 1 && v == "#1.2":
		m.Version = "1.2"
	case len(p.fields) == 1 && v == "#1.3":
		m.Version = "1.3"
	default:
		return nil, p.errf(0, ErrVersion, "got %.20q", string(bytes.Join(p.fields, []byte("\t"))))
	}

	// Dimensions line.
	if err := p.mustNext("the dimensions line"); err != nil {
		return nil, err
	}
	var nRows, nCols, nRowMeta, nColMeta int
	var err error
	if m.Version == "1.2" {
		if err := p.wantFields(2, "the dimensions line (rows, columns)"); err != nil {
			return nil, err
		}
		nRowMeta = 1
	} else {
		if err := p.wantFields(4, "the dimensions line (rows, columns, row metadata, column metadata)"); err != nil {
			return nil, err
		}
		if nRowMeta, err = p.dim(3, "row metadata count"); err != nil {
			return nil, err
		}
		if nColMeta, err = p.dim(4, "column metadata count"); err != nil {
			return nil, err
		}
	}
	if nRows, err = p.dim(1, "row count"); err != nil {
		return nil, err
	}
	if nCols, err = p.dim(2, "column count"); err != nil {
		return nil, err
	}
	width := 1 + nRowMeta + nCols

	// Header line: id, row metadata names, column ids.
	if err := p.mustNext("the header line"); err != nil {
		return nil, err
	}
	if err := p.wantFields(width, "the header line"); err != nil {
		return nil, err
	}
	m.RowMeta = make([]Field, nRowMeta)
	for k := range m.RowMeta {
		m.RowMeta[k].Name = string(p.fields[1+k])
		m.RowMeta[k].Values = make([]string, 0, min(nRows, maxPreallocRows))
	}
	m.Cols = make([]string, nCols)
	colAt := make(map[string]int, nCols)
	for j := range m.Cols {
		id := string(p.fields[1+nRowMeta+j])
		if first, dup := colAt[id]; dup {
			return nil, p.errf(2+nRowMeta+j, ErrDuplicate, "column id %q repeats column %d", id, 2+nRowMeta+first)
		}
		colAt[id] = j
		m.Cols[j] = id
	}

	// Column metadata lines (GCT 1.3).
	m.ColMeta = make([]Field, 0, min(nColMeta, 64))
	for k := 0; k < nColMeta; k++ {
		if err := p.mustNext(fmt.Sprintf("column metadata line %d of %d", k+1, nColMeta)); err != nil {
			return nil, err
		}
		if err := p.wantFields(width, "a column metadata line"); err != nil {
			return nil, err
		}
		vals := make([]string, nCols)
		for j := range vals {
			vals[j] = string(p.fields[1+nRowMeta+j])
		}
		m.ColMeta = append(m.ColMeta, Field{Name: string(p.fields[0]), Values: vals})
	}

	// Data lines.
	if nCols > 0 && nRows > maxPrealloc/nCols {
		m.Values = make([]float32, 0, maxPrealloc)
	} else {
		m.Values = make([]float32, 0, nRows*nCols)
	}
	m.Rows = make([]string, 0, min(nRows, maxPreallocRows))
	rowAt := make(map[string]int, min(nRows, maxPreallocRows))
	for i := 0; i < nRows; i++ {
		if err := p.mustNext(fmt.Sprintf("data line %d of %d", i+1, nRows)); err != nil {
			return nil, err
		}
		if err := p.wantFields(width, "a data line"); err != nil {
			return nil, err
		}
		id := string(p.fields[0])
		if first, dup := rowAt[id]; dup {
			return nil, p.errf(1, ErrDuplicate, "row id %q repeats the row of line %d", id, first)
		}
		rowAt[id] = p.line
		m.Rows = append(m.Rows, id)
		for k := range m.RowMeta {
			m.RowMeta[k].Values = append(m.RowMeta[k].Values, string(p.fields[1+k]))
		}
		for j, f := range p.fields[1+nRowMeta:] {
			v, ok := parseValue(f)
			if !ok {
				return nil, p.errf(2+nRowMeta+j, ErrNumber, "%.40q (column %q)", string(f), m.Cols[j])
			}
			m.Values = append(m.Values, v)
		}
	}
	// Only blank lines may follow.
	for {
		err := p.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(p.fields) == 1 && len(bytes.TrimSpace(p.fields[0])) == 0 {
			continue
		}
		return nil, p.errf(0, ErrExtra, "header declares %d data lines", nRows)
	}
	return m, nil
}

// parseValue parses one matrix value. Missing-value spellings give NaN.
func parseValue(b []byte) (float32, bool) {
	b = bytes.TrimSpace(b)
	if v, ok := parseSmallInt(b); ok {
		return v, true
	}
	if isMissing(b) {
		return float32(math.NaN()), true
	}
	v, err := strconv.ParseFloat(string(b), 32)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			// Out of float32 range: ParseFloat returned ±Inf or a
			// denormal-rounded value, which is what a float32 reader
			// gives; accept it.
			return float32(v), true
		}
		return 0, false
	}
	return float32(v), true
}

// parseSmallInt is the fast path for the integers that discretized L1000
// z-scores are: an optional '-' and 1 to 7 digits, exact in float32.
func parseSmallInt(b []byte) (float32, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 7 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	v := float32(n)
	if neg {
		v = -v
	}
	return v, true
}

var missing = [][]byte{[]byte("na"), []byte("nan"), []byte("n/a"), []byte("#na"), []byte("-nan"), []byte("#n/a"), []byte("null")}

func isMissing(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	for _, m := range missing {
		if bytes.EqualFold(b, m) {
			return true
		}
	}
	return false
}

// WriteGCT writes m as a GCT file of m.Version. Values are written with the
// shortest representation that reads back to the same float32; NaN is
// written as "NaN". It fails if m breaks an invariant or if an id or
// metadata value contains a tab, newline or carriage return, which GCT
// cannot represent.
func WriteGCT(w io.Writer, m *Matrix) error {
	if err := m.Validate(); err != nil {
		return err
	}
	check := func(s, what string) error {
		if strings.ContainsAny(s, "\t\n\r") {
			return fmt.Errorf("lincs: write gct: %s %q contains a tab or line break", what, s)
		}
		return nil
	}
	bw := bufio.NewWriter(w)
	if m.Version == "1.2" {
		fmt.Fprintf(bw, "#1.2\n%d\t%d\n", len(m.Rows), len(m.Cols))
	} else {
		fmt.Fprintf(bw, "#1.3\n%d\t%d\t%d\t%d\n", len(m.Rows), len(m.Cols), len(m.RowMeta), len(m.ColMeta))
	}
	if m.Version == "1.2" {
		bw.WriteString("Name")
	} else {
		bw.WriteString("id")
	}
	for _, f := range m.RowMeta {
		if err := check(f.Name, "row metadata name"); err != nil {
			return err
		}
		bw.WriteByte('\t')
		bw.WriteString(f.Name)
	}
	for _, c := range m.Cols {
		if err := check(c, "column id"); err != nil {
			return err
		}
		bw.WriteByte('\t')
		bw.WriteString(c)
	}
	bw.WriteByte('\n')
	for _, f := range m.ColMeta {
		if err := check(f.Name, "column metadata name"); err != nil {
			return err
		}
		bw.WriteString(f.Name)
		for range m.RowMeta {
			bw.WriteString("\tna")
		}
		for _, v := range f.Values {
			if err := check(v, "column metadata value"); err != nil {
				return err
			}
			bw.WriteByte('\t')
			bw.WriteString(v)
		}
		bw.WriteByte('\n')
	}
	var buf []byte
	for i, r := range m.Rows {
		if err := check(r, "row id"); err != nil {
			return err
		}
		bw.WriteString(r)
		for _, f := range m.RowMeta {
			if err := check(f.Values[i], "row metadata value"); err != nil {
				return err
			}
			bw.WriteByte('\t')
			bw.WriteString(f.Values[i])
		}
		for _, v := range m.Values[i*len(m.Cols) : (i+1)*len(m.Cols)] {
			bw.WriteByte('\t')
			if v != v {
				bw.WriteString("NaN")
				continue
			}
			buf = strconv.AppendFloat(buf[:0], float64(v), 'g', -1, 32)
			bw.Write(buf)
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("lincs: write gct: %w", err)
	}
	return nil
}
