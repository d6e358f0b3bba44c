package plate

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
)

// Read is one well's raw reading (counts, RFU, OD: whatever the reader
// exports) and where it came from.
type Read struct {
	Plate        string
	Row, Col     int // 0-based
	Value        float64
	File         string
	Line, Column int // 1-based line and character column of the value
}

func (r Read) loc() string { return fmt.Sprintf("%s:%d:%d", r.File, r.Line, r.Column) }

// Reasons a reading or a plate is left out under ReadOptions.Lenient, and
// the plate flags.
const (
	ReasonNotNumber  = "non-numeric value"
	ReasonNoMapPlate = "plate not on the map"
	ReasonNoMapWell  = "read without a map entry"
	ReasonDuplicate2 = "well read twice"
	ReasonNoRead     = "map well without a read"
	ReasonNoReads    = "map plate without reads"
	ReasonLowZ       = "Z′ below the threshold"
	ReasonFewCtrl    = "fewer than two readings of a control"
)

// ReadOptions configures ParseReads and Normalize. The zero value stops
// at the first problem.
type ReadOptions struct {
	// Lenient skips a reading, a well or a plate with a problem and
	// counts it (ReadReport.Skipped) instead of returning its error.
	Lenient bool
}

// ParseReads reads one plate-reader export (see the package documentation
// for the two layouts, told apart by the first non-blank line): a grid per
// plate under a plate line, or the long table plate,well,value. name names
// it in errors; skips under opt.Lenient and the lines outside any plate of
// a grid file (reader metadata) are counted in rep.
func ParseReads(name string, r io.Reader, opt ReadOptions, rep *ReadReport) ([]Read, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rep.Files = append(rep.Files, name)
	if isLong(b) {
		return parseLong(name, b, opt, rep)
	}
	return parseGrid(name, b, opt, rep)
}

// longNames are the spellings of the long layout's columns.
var longNames = map[string][]string{
	"plate": {"plate", "barcode", "plate_name", "plate name", "plate_id", "plate barcode"},
	"well":  {"well", "well_name", "well name", "position"},
	"value": {"value", "signal", "counts", "rfu", "od", "luminescence", "fluorescence", "absorbance", "read"},
}

func isLong(b []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" {
			continue
		}
		fs := splitLine(l)
		return findField(fs, longNames["plate"]) >= 0 && findField(fs, longNames["well"]) >= 0 && findField(fs, longNames["value"]) >= 0
	}
	return false
}

func findField(fs []field, names []string) int {
	for j, f := range fs {
		for _, n := range names {
			if strings.EqualFold(f.s, n) {
				return j
			}
		}
	}
	return -1
}

func parseLong(name string, b []byte, opt ReadOptions, rep *ReadReport) ([]Read, error) {
	rows, err := drugcomb.OpenRows(name, bytes.NewReader(b), 0)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	hdr := make([]field, len(rows.Header()))
	for j, h := range rows.Header() {
		hdr[j] = field{s: strings.TrimSpace(h)}
	}
	jp, jw, jv := findField(hdr, longNames["plate"]), findField(hdr, longNames["well"]), findField(hdr, longNames["value"])
	var out []Read
	for {
		more, err := rows.Next()
		if !more {
			if err != nil {
				return nil, err
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		rep.Reads++
		get := func(j int) string { v, _ := rows.Field(j); return strings.TrimSpace(v) }
		pe := rows.Error(jv, nil)
		rd := Read{Plate: get(jp), File: name, Line: pe.Line, Column: pe.Column}
		r, c, err := Plate1536.ParseWell(get(jw))
		if err != nil {
			if opt.Lenient {
				drugcomb.AddTally(&rep.Skipped, ReasonNoMapWell, rows.Loc(), err.Error())
				continue
			}
			return nil, rows.Error(jw, err)
		}
		rd.Row, rd.Col = r, c
		v, err := parseValue(get(jv))
		if err != nil {
			if opt.Lenient {
				drugcomb.AddTally(&rep.Skipped, ReasonNotNumber, rows.Loc(), fmt.Sprintf("%q", get(jv)))
				continue
			}
			return nil, rows.Error(jv, err)
		}
		rd.Value = v
		out = append(out, rd)
	}
}

func parseValue(s string) (float64, error) {
	v, err := drugcomb.ParseNumber(s)
	if err != nil || v != v {
		return 0, fmt.Errorf("value %q is not a number", s)
	}
	return v, nil
}

// field is one field of a text line and its 1-based character column.
type field struct {
	s   string
	col int
}

// splitLine splits a reader-export line at tabs, else commas, else
// semicolons, trimming spaces and surrounding quotes.
func splitLine(l string) []field {
	sep := ","
	switch {
	case strings.Contains(l, "\t"):
		sep = "\t"
	case !strings.Contains(l, ",") && strings.Contains(l, ";"):
		sep = ";"
	}
	var out []field
	pos := 0
	for _, part := range strings.Split(l, sep) {
		s := strings.TrimSpace(part)
		lead := strings.Index(part, s)
		if lead < 0 {
			lead = 0
		}
		s = strings.Trim(s, `"`)
		out = append(out, field{s: s, col: len([]rune(l[:pos])) + lead + 1})
		pos += len(part) + len(sep)
	}
	return out
}

// plateLine is a grid's plate line: the keyword, then ":", "=" or "#" and
// the name, or the name in the next field.
var plateLine = regexp.MustCompile(`(?i)^(plate[ _]?(name|id|barcode)?|barcode)\s*(?:[:=#]\s*(.*))?$`)

// parseGrid reads grids: a plate line (Plate: NAME, Barcode: NAME, or
// Plate,NAME), an optional header of column numbers 1…C, then the rows
// A… each with C values. Lines outside a plate are counted as metadata.
func parseGrid(name string, b []byte, opt ReadOptions, rep *ReadReport) ([]Read, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	var out []Read
	perr := func(line, col int, err error) error {
		return &drugcomb.ParseError{File: name, Line: line, Column: col, Err: err}
	}
	var (
		plate     string
		plateAt   int
		cols      int // 0: not known yet
		f         Format
		rowsSeen  map[int]bool
		inPlate   bool
		lineNo    int
		platesHdr int
	)
	finish := func() error {
		if inPlate && len(rowsSeen) < f.Rows {
			if cols == 0 {
				return perr(plateAt, 0, fmt.Errorf("plate %q: no grid rows under its plate line", plate))
			}
			return perr(lineNo, 0, fmt.Errorf("plate %q: %d of the %d rows of a %d-well grid", plate, len(rowsSeen), f.Rows, f.Wells()))
		}
		inPlate = false
		return nil
	}
	for sc.Scan() {
		lineNo++
		raw := sc.Text()
		l := strings.TrimRight(raw, "\r")
		if strings.TrimSpace(l) == "" {
			if inPlate && cols > 0 {
				if err := finish(); err != nil {
					return nil, err
				}
			}
			continue
		}
		fs := splitLine(l)
		if m := plateLine.FindStringSubmatch(fs[0].s); m != nil && !(inPlate && cols > 0 && len(rowsSeen) < f.Rows) {
			if err := finish(); err != nil {
				return nil, err
			}
			plate = strings.TrimSpace(m[3])
			if plate == "" && len(fs) > 1 {
				plate = fs[1].s
			}
			if plate == "" {
				return nil, perr(lineNo, fs[0].col, fmt.Errorf("plate line without a plate name (want Plate: NAME)"))
			}
			inPlate, plateAt, cols, rowsSeen = true, lineNo, 0, map[int]bool{}
			platesHdr++
			continue
		}
		if !inPlate {
			rep.OtherLines++
			continue
		}
		// A header of column numbers.
		if fs[0].s == "" || fs[0].s == "<>" {
			n := 0
			for _, x := range fs[1:] {
				if x.s == "" {
					continue
				}
				if x.s != fmt.Sprint(n+1) {
					return nil, perr(lineNo, x.col, fmt.Errorf("plate %q: header %q: want the column numbers 1, 2, …", plate, x.s))
				}
				n++
			}
			g, ok := gridFormat(n)
			if !ok {
				return nil, perr(lineNo, 0, fmt.Errorf("plate %q: %d columns: want 12, 24 or 48 (a 96-, 384- or 1536-well grid)", plate, n))
			}
			cols, f = n, g
			continue
		}
		r, ok := ParseRow(fs[0].s)
		if !ok {
			return nil, perr(lineNo, fs[0].col, fmt.Errorf("plate %q: %q is not a row letter (a grid row starts with its letter, A…)", plate, fs[0].s))
		}
		vals := fs[1:]
		for len(vals) > 0 && vals[len(vals)-1].s == "" && (cols == 0 || len(vals) > cols) {
			vals = vals[:len(vals)-1]
		}
		if cols == 0 {
			g, ok := gridFormat(len(vals))
			if !ok {
				return nil, perr(lineNo, 0, fmt.Errorf("plate %q: row %s has %d values: want 12, 24 or 48", plate, fs[0].s, len(vals)))
			}
			cols, f = len(vals), g
		}
		if len(vals) != cols {
			return nil, perr(lineNo, 0, fmt.Errorf("plate %q: row %s has %d values, want %d", plate, fs[0].s, len(vals), cols))
		}
		if r >= f.Rows {
			return nil, perr(lineNo, fs[0].col, fmt.Errorf("plate %q: row %s is not on a %d-well grid", plate, fs[0].s, f.Wells()))
		}
		if rowsSeen[r] {
			return nil, perr(lineNo, fs[0].col, fmt.Errorf("plate %q: row %s twice", plate, fs[0].s))
		}
		rowsSeen[r] = true
		for c, x := range vals {
			rep.Reads++
			v, err := parseValue(x.s)
			if err != nil {
				if opt.Lenient {
					drugcomb.AddTally(&rep.Skipped, ReasonNotNumber, fmt.Sprintf("%s:%d:%d", name, lineNo, x.col), fmt.Sprintf("%q", x.s))
					continue
				}
				return nil, perr(lineNo, x.col, err)
			}
			out = append(out, Read{Plate: plate, Row: r, Col: c, Value: v, File: name, Line: lineNo, Column: x.col})
		}
		if len(rowsSeen) == f.Rows {
			inPlate = false
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if platesHdr == 0 {
		return nil, perr(0, 0, fmt.Errorf("no plate line (Plate: NAME) and no plate,well,value header: not a reader export this tool reads"))
	}
	return out, nil
}

func gridFormat(cols int) (Format, bool) {
	for _, f := range []Format{Plate96, Plate384, Plate1536} {
		if f.Cols == cols {
			return f, true
		}
	}
	return Format{}, false
}
