package suggest

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/deup-screening/deup/internal/vocab"
)

// WriteCSV writes s as CSV with a header row.
func WriteCSV(w io.Writer, s []Suggestion) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Columns()); err != nil {
		return fmt.Errorf("suggest: csv: %w", err)
	}
	rec := make([]string, len(Columns()))
	for i := range s {
		x := &s[i]
		rec = rec[:0]
		rec = append(rec, strconv.Itoa(x.Rank))
		rec = appendDrug(rec, x.DrugA.ID, x.DrugA.OwnName(), x.DrugA.PubChemCID, x.DrugA.SMILES)
		rec = appendDrug(rec, x.DrugB.ID, x.DrugB.OwnName(), x.DrugB.PubChemCID, x.DrugB.SMILES)
		rec = append(rec, x.CellLine)
		for k, f := range floats(x) {
			if k == 4 { // lower, upper before acquisition
				if x.Interval == nil {
					rec = append(rec, "", "")
				} else {
					rec = append(rec, string(vocab.AppendFloat(nil, x.Interval.Lower, -1)), string(vocab.AppendFloat(nil, x.Interval.Upper, -1)))
				}
			}
			if floatMissing(*f) {
				rec = append(rec, "")
			} else {
				rec = append(rec, string(vocab.AppendFloat(nil, *f, -1)))
			}
		}
		rec = append(rec, x.Reason)
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("suggest: csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("suggest: csv: %w", err)
	}
	return nil
}

func appendDrug(rec []string, id, name string, cid int64, smiles string) []string {
	c := ""
	if !cidMissing(cid) {
		c = strconv.FormatInt(cid, 10)
	}
	return append(rec, id, name, c, smiles)
}

// ParseError is a bad value in a CSV file.
type ParseError struct {
	Line   int    // 1-based line of the record
	Column string // column name
	Err    error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("suggest: csv: line %d, column %s: %v", e.Line, e.Column, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// ErrHeader reports a header or schema that is not the suggestions layout.
var ErrHeader = errors.New("not a suggestions header")

// ReadCSV reads suggestions written by WriteCSV (columns may come in any
// order).
func ReadCSV(r io.Reader) ([]Suggestion, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("suggest: csv: %w: empty file", ErrHeader)
	}
	if err != nil {
		return nil, fmt.Errorf("suggest: csv: %w", err)
	}
	idx, err := columnIndex(head)
	if err != nil {
		return nil, fmt.Errorf("suggest: csv: line 1: %w", err)
	}
	var out []Suggestion
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("suggest: csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		get := func(name string) string { return rec[idx[name]] }
		var s Suggestion
		bad := func(name string, err error) error { return &ParseError{Line: line, Column: name, Err: err} }
		if s.Rank, err = strconv.Atoi(get("rank")); err != nil {
			return nil, bad("rank", err)
		}
		for _, d := range []struct {
			p      string
			name   *string
			id     *string
			cid    *int64
			smiles *string
		}{
			{"drug_a", &s.DrugA.Name, &s.DrugA.ID, &s.DrugA.PubChemCID, &s.DrugA.SMILES},
			{"drug_b", &s.DrugB.Name, &s.DrugB.ID, &s.DrugB.PubChemCID, &s.DrugB.SMILES},
		} {
			*d.name, *d.id, *d.smiles = get(d.p+"_name"), get(d.p+"_id"), get(d.p+"_smiles")
			if c := get(d.p + "_pubchem_cid"); c != "" {
				if *d.cid, err = strconv.ParseInt(c, 10, 64); err != nil {
					return nil, bad(d.p+"_pubchem_cid", err)
				}
				if *d.cid <= 0 {
					return nil, bad(d.p+"_pubchem_cid", fmt.Errorf("PubChem CID %d is not positive", *d.cid))
				}
			}
		}
		s.CellLine = get("cell_line")
		for i, name := range []string{"mu", "sigma_total", "sigma_epistemic", "sigma_aleatoric", "acquisition"} {
			f := floats(&s)[i]
			if v := get(name); v == "" {
				*f = math.NaN()
			} else if *f, err = strconv.ParseFloat(v, 64); err != nil {
				return nil, bad(name, err)
			}
		}
		if _, ok := idx["lower"]; ok {
			lo, hi := get("lower"), get("upper")
			switch {
			case lo == "" && hi == "":
			case lo == "" || hi == "":
				return nil, bad("lower", fmt.Errorf("lower %q and upper %q: want both or neither", lo, hi))
			default:
				var iv Interval
				if iv.Lower, err = strconv.ParseFloat(lo, 64); err != nil {
					return nil, bad("lower", err)
				}
				if iv.Upper, err = strconv.ParseFloat(hi, 64); err != nil {
					return nil, bad("upper", err)
				}
				if err := checkInterval(iv.Lower, iv.Upper); err != nil {
					return nil, bad("lower", err)
				}
				s.Interval = &iv
			}
		}
		s.Reason = get("reason")
		out = append(out, s)
	}
}

// columnIndex maps each expected column to its position in head.
func columnIndex(head []string) (map[string]int, error) {
	want := Columns()
	idx := make(map[string]int, len(want))
	known := make(map[string]bool, len(want))
	for _, c := range want {
		known[c] = true
	}
	for i, h := range head {
		if n, ok := oldNames[h]; ok {
			h = n
		}
		if !known[h] {
			return nil, fmt.Errorf("%w: unknown column %q", ErrHeader, h)
		}
		if _, dup := idx[h]; dup {
			return nil, fmt.Errorf("%w: column %q twice (or under its old name)", ErrHeader, h)
		}
		idx[h] = i
	}
	_, lo := idx[intervalColumns[0]]
	_, hi := idx[intervalColumns[1]]
	for _, c := range want {
		if _, ok := idx[c]; !ok && (lo || hi || (c != intervalColumns[0] && c != intervalColumns[1])) {
			return nil, fmt.Errorf("%w: missing column %q", ErrHeader, c)
		}
	}
	return idx, nil
}
