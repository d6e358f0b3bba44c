package doseresp

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
)

// openText returns r decompressed when it is gzip, and whether its first
// non-blank line starts with a "Drug1" label (SynergyFinder's matrix layout).
func openText(name string, r io.Reader) (*bufio.Reader, bool, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, false, &drugcomb.ParseError{File: name, Err: fmt.Errorf("gzip: %w", err)}
		}
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	head, _ := br.Peek(4 << 10)
	head = bytes.TrimPrefix(head, []byte{0xef, 0xbb, 0xbf})
	for _, line := range bytes.Split(head, []byte("\n")) {
		f := strings.TrimSpace(string(line))
		if strings.Trim(f, ",;\t\r ") == "" {
			continue
		}
		return br, matrixLabel(firstField(f)) == "drug1", nil
	}
	return br, false, nil
}

func firstField(line string) string {
	if i := strings.IndexAny(line, ",;\t"); i >= 0 {
		line = line[:i]
	}
	return strings.Trim(strings.TrimSpace(line), `"`)
}

// matrixLabel normalises a label cell: "Drug1:", "drug 1", "Conc Unit".
func matrixLabel(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSuffix(s, ":")
	return strings.NewReplacer(" ", "", "_", "").Replace(s)
}

// readMatrix reads SynergyFinder's matrix layout: for each block the label
// rows Drug1, Drug2 and ConcUnit (and optionally CellLine) with the value in
// the next cell, then a row of Drug2's concentrations after an empty cell,
// then one row per Drug1 concentration with the responses. Drug1 is the row
// drug, Drug2 the column drug; blocks are numbered 1, 2, … in file order.
func readMatrix(name string, r io.Reader, opt ReadOptions, rep *Report) ([]*blockAcc, error) {
	delim := opt.Delim
	br := bufio.NewReader(r)
	if delim == 0 {
		head, _ := br.Peek(4 << 10)
		line := string(head)
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		delim = ','
		for _, d := range []rune{'\t', ';'} {
			if strings.Count(line, string(d)) > strings.Count(line, string(delim)) {
				delim = d
			}
		}
	}
	cr := csv.NewReader(br)
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = false
	var (
		out  []*blockAcc
		cur  *blockAcc
		cols []float64 // Drug2 concentrations of the current block
	)
	labels := map[string]string{}
	perr := func(line, col int, err error) error {
		return &drugcomb.ParseError{File: name, Line: line, Column: col, Err: err}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, perr(pe.Line, pe.Column, pe.Err)
			}
			return nil, &drugcomb.ParseError{File: name, Err: err}
		}
		line, _ := cr.FieldPos(0)
		blank := true
		for _, f := range rec {
			blank = blank && strings.TrimSpace(f) == ""
		}
		if blank {
			cur, cols = nil, nil
			continue
		}
		rep.RowsRead++
		first := strings.TrimSpace(rec[0])
		switch l := matrixLabel(first); l {
		case "drug1", "drug2", "concunit", "cellline", "celllinename":
			if cur != nil { // a new block starts
				cur, cols = nil, nil
				labels = map[string]string{}
			}
			if len(rec) < 2 || strings.TrimSpace(rec[1]) == "" {
				return nil, perr(line, 0, fmt.Errorf("label %q without a value in the next cell", first))
			}
			labels[l] = strings.TrimSpace(rec[1])
			continue
		}
		if cols == nil { // the concentration row of a new block
			if first != "" {
				return nil, perr(line, 1, fmt.Errorf("want the row of %s's concentrations after an empty cell, got %q", labels["drug2"], first))
			}
			if labels["drug1"] == "" || labels["drug2"] == "" {
				return nil, perr(line, 0, errors.New("a dose–response matrix without the Drug1 and Drug2 rows before it"))
			}
			for j, f := range rec[1:] {
				if strings.TrimSpace(f) == "" && j == len(rec)-2 {
					break // a trailing delimiter
				}
				x, err := parseDose(f)
				if err != nil {
					c, _ := fieldCol(cr, j+1)
					return nil, perr(line, c, err)
				}
				cols = append(cols, x)
			}
			cell := labels["cellline"]
			if cell == "" {
				cell = labels["celllinename"]
			}
			cur = &blockAcc{id: strconv.Itoa(len(out) + 1), drugRow: labels["drug1"], drugCol: labels["drug2"], cell: cell,
				unit: labels["concunit"], where: fmt.Sprintf("%s:%d", name, line), wells: map[wellKey][]float64{}}
			out = append(out, cur)
			labels = map[string]string{"drug1": labels["drug1"], "drug2": labels["drug2"], "concunit": labels["concunit"], "cellline": cell}
			continue
		}
		x, err := parseDose(first)
		if err != nil {
			return nil, perr(line, 1, err)
		}
		if len(rec)-1 < len(cols) {
			return nil, perr(line, 0, fmt.Errorf("%w: %d responses for %d concentrations of %s", drugcomb.ErrFieldCount, len(rec)-1, len(cols), cur.drugCol))
		}
		cur.rows++
		for j, c := range cols {
			y, err := drugcomb.ParseNumber(rec[j+1])
			if err != nil {
				col, _ := fieldCol(cr, j+1)
				if !opt.Lenient {
					return nil, perr(line, col, err)
				}
				if cur.bad == "" {
					cur.bad = perr(line, col, err).Error()
				}
				continue
			}
			if math.IsNaN(y) {
				rep.MissingRows++
				continue
			}
			if opt.Unit == Viability {
				y = 100 - y
			}
			k := wellKey{x, c}
			cur.wells[k] = append(cur.wells[k], y)
		}
	}
	return out, nil
}

// fieldCol is the 1-based character column of field j of the last record.
func fieldCol(cr *csv.Reader, j int) (int, bool) {
	_, c := cr.FieldPos(j)
	return c, true
}

// parseDose parses a concentration: a number ≥ 0.
func parseDose(f string) (float64, error) {
	x, err := drugcomb.ParseNumber(f)
	switch {
	case err != nil:
		return 0, err
	case math.IsNaN(x):
		return 0, errors.New("missing dose")
	case x < 0:
		return 0, fmt.Errorf("%w: %v", ErrNegativeDose, x)
	}
	return x, nil
}
