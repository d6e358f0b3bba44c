package active

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
)

// Result is one parsed row of a results file.
type Result struct {
	Measurement
	Line int // 1-based line of the row in the file
}

// ResultsParseError is a problem at a position of a results file.
type ResultsParseError struct {
	File   string
	Line   int // 1-based
	Column int // 1-based field number; 0 when the whole row is concerned
	Msg    string
}

func (e *ResultsParseError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ParseResults reads a CSV results file for a campaign. The header names
// the columns (any order, extra columns ignored, case-insensitive):
//
//	drug_a, drug_b            a drug's name, ID or PubChem CID (or drug_a_id, drug_b_id)
//	cell_line                 optional when the campaign has one cell line
//	SCORE                     the campaign's score name, or "score", or "y"
//
// A file exported by 'deup suggest' with a score column added is accepted.
// Every problem (unknown drug or cell line, non-numeric or non-finite
// score, ragged row) is reported with its line and column, all of them
// joined in the returned error; name is used in messages.
func ParseResults(r io.Reader, name string, cfg Config) ([]Result, error) {
	return parseRows(r, name, cfg, true)
}

// ParseCandidates reads a CSV of candidate pairs: the columns of
// ParseResults without the score (Y is 0).
func ParseCandidates(r io.Reader, name string, cfg Config) ([]Result, error) {
	return parseRows(r, name, cfg, false)
}

func parseRows(r io.Reader, name string, cfg Config, withScore bool) ([]Result, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err == io.EOF {
		return nil, &ResultsParseError{File: name, Line: 1, Msg: "empty file: want a header with drug_a_id, drug_b_id and a score column"}
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if _, dup := col[h]; dup {
			return nil, &ResultsParseError{File: name, Line: 1, Column: i + 1, Msg: fmt.Sprintf("column %q appears twice", h)}
		}
		col[h] = i
	}
	pick := func(names ...string) int {
		for _, n := range names {
			if i, ok := col[strings.ToLower(n)]; ok {
				return i
			}
		}
		return -1
	}
	ca, cb := pick("drug_a_id", "drug_a"), pick("drug_b_id", "drug_b")
	cc := pick("cell_line")
	cs := pick(cfg.Score, "score", "y")
	var missing []string
	if ca < 0 {
		missing = append(missing, "drug_a_id (or drug_a)")
	}
	if cb < 0 {
		missing = append(missing, "drug_b_id (or drug_b)")
	}
	if cs < 0 && withScore {
		missing = append(missing, fmt.Sprintf("a score column (%q, \"score\" or \"y\")", cfg.Score))
	}
	if cc < 0 && len(cfg.CellLines) > 1 {
		missing = append(missing, "cell_line (the campaign has several cell lines)")
	}
	if len(missing) > 0 {
		return nil, &ResultsParseError{File: name, Line: 1, Msg: "header lacks " + strings.Join(missing, ", ")}
	}
	lookup := drugIndex(cfg)
	var out []Result
	var errs []error
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs = append(errs, csvError(name, err))
			var pe *csv.ParseError
			if errors.As(err, &pe) && pe.Err != csv.ErrFieldCount {
				break // the reader cannot resynchronize after a quote error
			}
			continue
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != len(header) {
			errs = append(errs, &ResultsParseError{File: name, Line: line, Msg: fmt.Sprintf("%d fields, header has %d", len(rec), len(header))})
			continue
		}
		bad := func(c int, msg string) {
			errs = append(errs, &ResultsParseError{File: name, Line: line, Column: c + 1, Msg: msg})
		}
		a, okA := lookup[strings.ToLower(strings.TrimSpace(rec[ca]))]
		if !okA {
			bad(ca, fmt.Sprintf("unknown drug %q (not a name, ID or PubChem CID of the campaign's drugs)", rec[ca]))
		}
		b, okB := lookup[strings.ToLower(strings.TrimSpace(rec[cb]))]
		if !okB {
			bad(cb, fmt.Sprintf("unknown drug %q (not a name, ID or PubChem CID of the campaign's drugs)", rec[cb]))
		}
		cl, okC := 0, true
		if cc >= 0 {
			cl = drugcomb.IndexName(cfg.CellLines, strings.TrimSpace(rec[cc]))
			okC = cl >= 0
			if !okC {
				bad(cc, fmt.Sprintf("unknown cell line %q (campaign has %s)", rec[cc], strings.Join(cfg.CellLines, ", ")))
			}
		}
		y, okY := 0.0, true
		if withScore {
			var err error
			y, err = strconv.ParseFloat(strings.TrimSpace(rec[cs]), 64)
			okY = err == nil && !math.IsNaN(y) && !math.IsInf(y, 0)
			if !okY {
				bad(cs, fmt.Sprintf("score %q is not a finite number", rec[cs]))
			}
		}
		if okA && okB && a == b {
			bad(cb, fmt.Sprintf("drug %q paired with itself", rec[cb]))
			continue
		}
		if okA && okB && okC && okY {
			out = append(out, Result{Measurement{NewPairOnLine(a, b, cl), y}, line})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(out) == 0 {
		return nil, &ResultsParseError{File: name, Line: 2, Msg: "no rows"}
	}
	return out, nil
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ResultsParseError{File: name, Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error()}
	}
	return fmt.Errorf("%s: %w", name, err)
}

func drugIndex(cfg Config) map[string]int { return drugcomb.RefIndex(cfg.Drugs) }
