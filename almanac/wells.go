package almanac

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unsafe"
)

// ErrFormat is wrapped by every error about the layout or content of a
// wells file.
var ErrFormat = errors.New("almanac: not a ComboDrugGrowth wells file")

// ParseError names the file, line (1-based, the header is line 1), column
// and problem of a malformed wells row.
type ParseError struct {
	File   string
	Line   int
	Column string // the header name, or "" for the whole line
	Err    error
}

func (e *ParseError) Error() string {
	if e.Column == "" {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: column %s: %v", e.File, e.Line, e.Column, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// the columns read, by their ComboDrugGrowth names
const (
	colScreener = iota
	colStudy
	colPlate
	colNSC1
	colConc1
	colUnit1
	colNSC2
	colConc2
	colUnit2
	colPG
	colEG
	colScore
	colValid
	colCell
	nCols
)

var colNames = [nCols]string{"SCREENER", "STUDY", "PLATE", "NSC1", "CONC1", "CONCUNIT1", "NSC2", "CONC2", "CONCUNIT2",
	"PERCENTGROWTH", "EXPECTEDGROWTH", "SCORE", "VALID", "CELLNAME"}

// Well is one row of a wells file, as the importer uses it. Byte-slice
// fields are valid only until the next call of wellReader.next.
type Well struct {
	Line       int
	Study      []byte
	Plate      []byte
	Cell       []byte
	NSC1, NSC2 int // NSC2 == 0: a single-agent well
	Conc1      float64
	Conc2      float64
	Unit1      []byte // "M" or "u" (micrograms per millilitre)
	Unit2      []byte
	Growth     float64 // PERCENTGROWTH (can be below 0: cells died)
	FileEG     float64 // EXPECTEDGROWTH, NaN when empty
	FileScore  float64 // SCORE, NaN when empty
	Valid      byte    // 'Y', 'N' or 0 when empty
	HasGrowth  bool
	Screener   []byte
}

// wellReader reads the rows of a ComboDrugGrowth CSV file: a header line
// naming the columns (any order, case-insensitive; other columns ignored),
// then one line per well. Fields are split on commas; a line holding a
// double quote is split with CSV quoting rules.
type wellReader struct {
	name  string
	r     *bufio.Reader
	line  int
	idx   [nCols]int // field index of each column read
	width int        // fields per line

}

func newWellReader(r io.Reader, name string) (*wellReader, error) {
	wr := &wellReader{name: name, r: bufio.NewReaderSize(r, 1<<20)}
	hdr, err := wr.readLine()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &ParseError{File: name, Line: 1, Err: fmt.Errorf("%w: empty file, want a header line", ErrFormat)}
		}
		return nil, err
	}
	hdr = bytes.TrimPrefix(hdr, []byte("\ufeff"))
	var sp splitter
	fields := sp.split(hdr)
	wr.width = len(fields)
	for c := range wr.idx {
		wr.idx[c] = -1
	}
	for i, f := range fields {
		h := strings.ToUpper(strings.TrimSpace(string(f)))
		for c, n := range colNames {
			if h == n && wr.idx[c] < 0 {
				wr.idx[c] = i
			}
		}
	}
	var missing []string
	for c, i := range wr.idx {
		if i < 0 && c != colScreener && c != colStudy && c != colValid && c != colEG && c != colScore {
			missing = append(missing, colNames[c])
		}
	}
	if len(missing) > 0 {
		return nil, &ParseError{File: name, Line: 1, Err: fmt.Errorf("%w: the header lacks %s (it has %d columns: %s)", ErrFormat, strings.Join(missing, ", "), len(fields), fpTrunc(string(hdr), 200))}
	}
	return wr, nil
}

func fpTrunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// readLine returns the next line without its end of line; io.EOF at the end.
func (wr *wellReader) readLine() ([]byte, error) {
	l, err := wr.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		// a line longer than the buffer: assemble it
		buf := append([]byte(nil), l...)
		for errors.Is(err, bufio.ErrBufferFull) {
			l, err = wr.r.ReadSlice('\n')
			buf = append(buf, l...)
			if len(buf) > 1<<24 {
				return nil, &ParseError{File: wr.name, Line: wr.line + 1, Err: fmt.Errorf("%w: a line longer than 16 MiB", ErrFormat)}
			}
		}
		l = buf
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s:%d: %w", wr.name, wr.line+1, err)
	}
	if len(l) == 0 && err != nil {
		return nil, io.EOF
	}
	wr.line++
	l = bytes.TrimSuffix(l, []byte("\n"))
	l = bytes.TrimSuffix(l, []byte("\r"))
	return l, nil
}

// split splits a line into fields (reusing wr.fields), in one pass over
// its bytes (faster than a search per field on these short fields).
func (sp *splitter) split(l []byte) [][]byte {
	f := sp.fields[:0]
	start := 0
	for i, c := range l {
		switch c {
		case ',':
			f = append(f, l[start:i])
			start = i + 1
		case '"':
			return sp.splitQuoted(l)
		}
	}
	f = append(f, l[start:])
	sp.fields = f
	return f
}

// splitQuoted splits a line with CSV quoting ("a,b" and "" inside quotes).
// The unquoted fields are written over l itself (never longer than what
// they are read from), so that they stay valid as long as the line.
func (sp *splitter) splitQuoted(l []byte) [][]byte {
	q := l[:0]
	type span struct{ from, to int }
	var spans []span
	in := false
	start := 0
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case in && c == '"' && i+1 < len(l) && l[i+1] == '"':
			q = append(q, '"')
			i++
		case c == '"':
			in = !in
		case !in && c == ',':
			spans = append(spans, span{start, len(q)})
			start = len(q)
		default:
			q = append(q, c)
		}
	}
	spans = append(spans, span{start, len(q)})
	f := sp.fields[:0]
	for _, s := range spans {
		f = append(f, q[s.from:s.to])
	}
	sp.fields = f
	return f
}

// str views b as a string without copying, for parsing only: the string
// must not outlive b.
func str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// parse parses line l (line number line) into w, whose byte fields then
// point into l, or into sp's scratch for a quoted line. It only reads wr,
// so parsers on several goroutines may share it.
func (wr *wellReader) parse(sp *splitter, l []byte, line int, w *Well) error {
	f := sp.split(l)
	if len(f) != wr.width {
		return &ParseError{File: wr.name, Line: line, Err: fmt.Errorf("%w: %d fields, the header has %d", ErrFormat, len(f), wr.width)}
	}
	*w = Well{Line: line}
	get := func(c int) []byte {
		if i := wr.idx[c]; i >= 0 {
			return trimSpace(f[i])
		}
		return nil
	}
	bad := func(c int, what string) error {
		return &ParseError{File: wr.name, Line: line, Column: colNames[c], Err: fmt.Errorf("%w: %q is not %s", ErrFormat, fpTrunc(string(get(c)), 40), what)}
	}
	w.Study, w.Plate, w.Cell, w.Screener = get(colStudy), get(colPlate), get(colCell), get(colScreener)
	w.Unit1, w.Unit2 = get(colUnit1), get(colUnit2)
	if v := get(colValid); len(v) > 0 {
		w.Valid = v[0]
	}
	var ok bool
	if w.NSC1, ok = parseNSC(get(colNSC1)); !ok || w.NSC1 == 0 {
		return bad(colNSC1, "an NSC number")
	}
	if w.NSC2, ok = parseNSC(get(colNSC2)); !ok {
		return bad(colNSC2, "an NSC number or empty")
	}
	var err error
	if w.Conc1, err = parseNum(get(colConc1)); err != nil {
		return bad(colConc1, "a concentration")
	}
	if w.NSC2 != 0 {
		if w.Conc2, err = parseNum(get(colConc2)); err != nil {
			return bad(colConc2, "a concentration")
		}
	}
	if g := get(colPG); len(g) > 0 {
		if w.Growth, err = parseNum(g); err != nil {
			return bad(colPG, "a percent growth")
		}
		w.HasGrowth = true
	}
	w.FileEG, w.FileScore = nan, nan
	if g := get(colEG); len(g) > 0 {
		if w.FileEG, err = parseNum(g); err != nil {
			return bad(colEG, "an expected growth")
		}
	}
	if g := get(colScore); len(g) > 0 {
		if w.FileScore, err = parseNum(g); err != nil {
			return bad(colScore, "a score")
		}
	}
	return nil
}

// parseNSC parses a positive NSC number; empty is 0.
func parseNSC(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, true
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' || n > 1e9 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseNum parses a finite decimal number.
func parseNum(b []byte) (float64, error) {
	if len(b) == 0 {
		return 0, errors.New("empty")
	}
	v, err := strconv.ParseFloat(str(b), 64)
	if err != nil || v-v != 0 {
		return 0, errors.New("not a finite number")
	}
	return v, nil
}

// trimSpace is bytes.TrimSpace for ASCII blanks, cheap when there are none.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}
