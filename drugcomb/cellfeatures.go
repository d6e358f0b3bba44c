package drugcomb

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"gonum.org/v1/gonum/stat"
)

// CellFeatures are numeric features of cell lines (deup train
// --cell-features FILE): one row per line, read from a table with a
// cell_line column and one or more numeric columns (every other column).
type CellFeatures struct {
	File   string      // the file read, for messages
	Names  []string    // the numeric columns, in file order
	Lines  []string    // the cell lines, in file order
	Values [][]float64 // Values[i][j]: line Lines[i], column Names[j]
}

// ReadCellFeatures reads a cell-line feature table: CSV/TSV (optionally
// gzip-compressed), Parquet or Arrow, told apart by their first bytes. It
// needs a cell_line column and at least one other column; every other
// column must hold a finite number on every row. A missing value, a value
// that is not a number, NaN or an infinity, and a line listed twice are
// errors (*ParseError) naming the file, the line (row) and the column.
func ReadCellFeatures(path string) (*CellFeatures, error) {
	src, err := openTable(path, 0, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	defer src.close()
	cf := &CellFeatures{File: path}
	lineCol := -1
	var cols []int
	for j, h := range src.header() {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if strings.EqualFold(h, "cell_line") {
			lineCol = j
			continue
		}
		cols = append(cols, j)
		cf.Names = append(cf.Names, h)
	}
	switch {
	case lineCol < 0:
		return nil, &ParseError{File: path, Line: 1, Field: "cell_line", Err: fmt.Errorf("%w: the table needs a cell_line column", ErrMissingColumn)}
	case len(cols) == 0:
		return nil, &ParseError{File: path, Line: 1, Err: fmt.Errorf("%w: no numeric column beside cell_line", ErrMissingColumn)}
	}
	first := map[string]string{}
	for {
		ok, err := src.next()
		if err != nil {
			var re *rowError
			if errors.As(err, &re) {
				return nil, re.err
			}
			return nil, err
		}
		if !ok {
			break
		}
		name, err := src.field(lineCol)
		if err != nil {
			return nil, err
		}
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, src.perr(lineCol, errors.New("empty cell line"))
		}
		key := strings.ToLower(name)
		if at, dup := first[key]; dup {
			return nil, src.perr(lineCol, fmt.Errorf("cell line %q listed twice (first at %s)", name, at))
		}
		first[key] = src.loc()
		row := make([]float64, len(cols))
		for k, j := range cols {
			s, err := src.field(j)
			if err != nil {
				return nil, err
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			switch {
			case err != nil || math.IsNaN(v):
				return nil, src.perr(j, fmt.Errorf("%w: %q (cell line %s)", ErrNotNumber, s, name))
			case math.IsInf(v, 0):
				return nil, src.perr(j, fmt.Errorf("%w: %q (cell line %s)", ErrInfinite, s, name))
			}
			row[k] = v
		}
		cf.Lines = append(cf.Lines, name)
		cf.Values = append(cf.Values, row)
	}
	if len(cf.Lines) == 0 {
		return nil, &ParseError{File: path, Err: errors.New("no cell line in the table")}
	}
	return cf, nil
}

// Row returns the features of the named line (any case), or false.
func (cf *CellFeatures) Row(line string) ([]float64, bool) {
	for i, l := range cf.Lines {
		if strings.EqualFold(l, line) {
			return cf.Values[i], true
		}
	}
	return nil, false
}

// Standardized returns the features of lines (in that order), each column
// centred and scaled by its mean and population standard deviation
// (gonum stat.PopMeanStdDev) over every line of the table (a column
// constant over the table becomes 0). A line the table does not hold is an
// error naming the file. A nil table has no features (nil).
func (cf *CellFeatures) Standardized(lines []string) ([][]float64, error) {
	if cf == nil {
		return nil, nil
	}
	k := len(cf.Names)
	mean, sd := make([]float64, k), make([]float64, k)
	col := make([]float64, len(cf.Values))
	for j := range k {
		for i, r := range cf.Values {
			col[i] = r[j]
		}
		mean[j], sd[j] = stat.PopMeanStdDev(col, nil)
	}
	var missing []string
	out := make([][]float64, len(lines))
	for i, l := range lines {
		r, ok := cf.Row(l)
		if !ok {
			missing = append(missing, l)
			continue
		}
		out[i] = make([]float64, k)
		for j, v := range r {
			if sd[j] > 0 {
				out[i][j] = (v - mean[j]) / sd[j]
			}
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: no row for cell line %s (the table has %s)", cf.File, strings.Join(missing, ", "), strings.Join(cf.Lines, ", "))
	}
	return out, nil
}

// WithLines returns lines followed by the lines of the table that are not
// among them (any case), in table order: the cell lines of a model trained
// with the features, which then scores lines no pair measured.
func (cf *CellFeatures) WithLines(lines []string) []string {
	out := slices.Clone(lines)
	for _, l := range cf.Lines {
		if !slices.ContainsFunc(lines, func(s string) bool { return strings.EqualFold(s, l) }) {
			out = append(out, l)
		}
	}
	return out
}
