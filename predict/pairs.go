package predict

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// Pairs is a pairs file: its pairs (feature rows) and the columns other
// than the two drug columns (and cell_line), passed through to the output.
type Pairs struct {
	Pairs      []model.PairRef
	ExtraNames []string
	Extra      [][]string // per pair, the values of ExtraNames
	// OwnLines says the file has a cell_line column: each pair is scored on
	// its own line, Pairs[i].Line (an index into the model's lines), alone.
	OwnLines bool
}

// UnknownLineError is a pairs-file row whose cell_line the model does not
// know (ReadPairs): File, its line (row) Line, the name, and the model's
// lines Known (one name for a one-line model).
type UnknownLineError struct {
	File  string
	Line  int
	Name  string
	Known []string
}

func (e *UnknownLineError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("%s:%d: column cell_line: empty: name the row's cell line", e.File, e.Line)
	}
	if len(e.Known) < 2 {
		return fmt.Sprintf("%s:%d: column cell_line: unknown cell line %q: the model was trained on one cell line, %s", e.File, e.Line, e.Name, strings.Join(e.Known, ""))
	}
	return fmt.Sprintf("%s:%d: column cell_line: unknown cell line %q: the model knows %d lines (%s)", e.File, e.Line, e.Name, len(e.Known), strings.Join(e.Known, ", "))
}

// ErrEmptyFile is ReadPairs' error for a file without even a header.
var ErrEmptyFile = errors.New("the file is empty: want a header naming drug_a_id and drug_b_id (drug_a and drug_b)")

// ReadPairs reads a pairs CSV: two drug columns (drug_a_id/drug_b_id,
// drug_a/drug_b or drug_a_cid/drug_b_cid, the first of each) holding drug
// ids, PubChem CIDs or names, matched as campaign import-results matches
// them (drugcomb.RefIndex) among drugs and mapped to feature rows by row
// (drug id -> row; a drug without a row has no usable structure or
// signature). A cell_line column names each row's line among lines (the
// model's cell lines, by model.PairRef.Line; one name for a one-line
// model), under drugcomb's selection rule (IndexName): a row is scored on
// its own line, and a line not among lines is an *UnknownLineError naming
// the row. Every other column is kept, and may not be named as a
// prediction column (IsColumn). An empty file is ErrEmptyFile, with its
// name.
func ReadPairs(path string, row map[string]int, drugs []drugcomb.Drug, lines []string) (*Pairs, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	r := csv.NewReader(bufio.NewReader(fh))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: %w", path, ErrEmptyFile)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	ac, bc, lc := -1, -1, -1
	for i, h := range head {
		switch strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))) {
		case "cell_line":
			if lc < 0 {
				lc = i
			}
		case "drug_a", "drug_a_cid", "drug_a_id":
			if ac < 0 {
				ac = i
			}
		case "drug_b", "drug_b_cid", "drug_b_id":
			if bc < 0 {
				bc = i
			}
		}
	}
	if ac < 0 || bc < 0 {
		return nil, fmt.Errorf("%s: header %v: need drug_a_id and drug_b_id columns (or drug_a and drug_b): drug ids, PubChem CIDs or names", path, head)
	}
	pf := &Pairs{OwnLines: lc >= 0}
	var keep []int
	for i, h := range head {
		if i != ac && i != bc && i != lc {
			keep = append(keep, i)
			pf.ExtraNames = append(pf.ExtraNames, strings.TrimSpace(h))
		}
	}
	for _, n := range pf.ExtraNames {
		if IsColumn(n) {
			return nil, fmt.Errorf("%s: header: column %q is also a prediction column: rename it", path, n)
		}
	}
	index := drugcomb.RefIndex(drugs)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) <= max(ac, bc, lc) {
			return nil, fmt.Errorf("%s:%d: %d fields, want at least %d", path, line, len(rec), max(ac, bc, lc)+1)
		}
		l := 0
		if lc >= 0 {
			name := strings.TrimSpace(rec[lc])
			if l = drugcomb.IndexName(lines, name); l < 0 || name == "" {
				return nil, &UnknownLineError{File: path, Line: line, Name: name, Known: lines}
			}
		}
		var p [2]int
		for k, c := range []int{ac, bc} {
			v := strings.TrimSpace(rec[c])
			i, ok := index[strings.ToLower(v)]
			rr, kept := 0, false
			if ok {
				rr, kept = row[drugs[i].ID]
			}
			if !kept {
				why := "not among the drugs scored (by id, PubChem CID or name)"
				if ok {
					why = fmt.Sprintf("drug %s has no usable structure or signature", drugs[i].ID)
				}
				return nil, fmt.Errorf("%s:%d: column %s: unknown drug %q: %s", path, line, head[c], v, why)
			}
			p[k] = rr
		}
		pf.Pairs = append(pf.Pairs, model.PairRef{A: p[0], B: p[1], Line: l})
		ex := make([]string, len(keep))
		for k, c := range keep {
			if c < len(rec) {
				ex[k] = rec[c]
			}
		}
		pf.Extra = append(pf.Extra, ex)
	}
	return pf, nil
}

// linesOf returns the lines of rows [lo, hi) (of a file with a cell_line
// column), each once, in model order; n is the number of model lines.
func (pf *Pairs) linesOf(lo, hi, n int) []int {
	seen := make([]bool, n)
	for _, p := range pf.Pairs[lo:hi] {
		seen[p.Line] = true
	}
	var out []int
	for l, ok := range seen {
		if ok {
			out = append(out, l)
		}
	}
	return out
}
