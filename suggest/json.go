package suggest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/deup-screening/deup/internal/jsonfloat"
)

// jsonRow is the JSON form of a Suggestion; pointers are null when missing.
// Floats are written by internal/jsonfloat, always with a decimal point or
// an exponent (0.0, not 0), so that JSON readers see float columns.
type jsonRow struct {
	Rank        *int             `json:"rank"`
	DrugAID     *string          `json:"drug_a_id"`
	DrugA       *string          `json:"drug_a_name"`
	DrugACID    *int64           `json:"drug_a_pubchem_cid"`
	DrugASMILES *string          `json:"drug_a_smiles"`
	DrugBID     *string          `json:"drug_b_id"`
	DrugB       *string          `json:"drug_b_name"`
	DrugBCID    *int64           `json:"drug_b_pubchem_cid"`
	DrugBSMILES *string          `json:"drug_b_smiles"`
	CellLine    *string          `json:"cell_line"`
	Mu          *jsonfloat.Float `json:"mu"`
	SigmaT      *jsonfloat.Float `json:"sigma_total"`
	SigmaE      *jsonfloat.Float `json:"sigma_epistemic"`
	SigmaA      *jsonfloat.Float `json:"sigma_aleatoric"`
	Lower       *jsonfloat.Float `json:"lower"`
	Upper       *jsonfloat.Float `json:"upper"`
	Acquisition *jsonfloat.Float `json:"acquisition"`
	Reason      *string          `json:"reason"`
}

func (j *jsonRow) floats() [5]**jsonfloat.Float {
	return [5]**jsonfloat.Float{&j.Mu, &j.SigmaT, &j.SigmaE, &j.SigmaA, &j.Acquisition}
}

// ptr returns a pointer to v as a jsonfloat.Float.
func ptr(v float64) *jsonfloat.Float {
	f := jsonfloat.Float(v)
	return &f
}

// WriteJSON writes s as a JSON array of objects, one per line.
func WriteJSON(w io.Writer, s []Suggestion) error {
	var buf bytes.Buffer
	buf.WriteString("[")
	names := []string{"mu", "sigma_total", "sigma_epistemic", "sigma_aleatoric", "acquisition"}
	for i := range s {
		x := &s[i]
		an, bn := x.DrugA.OwnName(), x.DrugB.OwnName()
		j := jsonRow{
			Rank:  &x.Rank,
			DrugA: &an, DrugAID: &x.DrugA.ID, DrugASMILES: &x.DrugA.SMILES,
			DrugB: &bn, DrugBID: &x.DrugB.ID, DrugBSMILES: &x.DrugB.SMILES,
			CellLine: &x.CellLine, Reason: &x.Reason,
		}
		if !cidMissing(x.DrugA.PubChemCID) {
			j.DrugACID = &x.DrugA.PubChemCID
		}
		if !cidMissing(x.DrugB.PubChemCID) {
			j.DrugBCID = &x.DrugB.PubChemCID
		}
		for k, f := range floats(x) {
			if math.IsInf(*f, 0) {
				return fmt.Errorf("suggest: json: rank %d: %s is %v, which JSON cannot hold", x.Rank, names[k], *f)
			}
			if !floatMissing(*f) {
				*j.floats()[k] = ptr(*f)
			}
		}
		if x.Interval != nil {
			if err := checkInterval(x.Interval.Lower, x.Interval.Upper); err != nil {
				return fmt.Errorf("suggest: json: rank %d: %w", x.Rank, err)
			}
			j.Lower, j.Upper = ptr(x.Interval.Lower), ptr(x.Interval.Upper)
		}
		b, err := json.Marshal(j)
		if err != nil {
			return fmt.Errorf("suggest: json: %w", err)
		}
		if i > 0 {
			buf.WriteString(",")
		}
		buf.WriteString("\n")
		buf.Write(b)
	}
	buf.WriteString("\n]\n")
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("suggest: json: %w", err)
	}
	return nil
}

// ReadJSON reads suggestions written by WriteJSON. Every key must be present
// (null for missing values) and no other key may appear.
func ReadJSON(r io.Reader) ([]Suggestion, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("suggest: json: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("suggest: json: offset %d: want an array of suggestions", dec.InputOffset())
	}
	var out []Suggestion
	for dec.More() {
		off := dec.InputOffset()
		var raw map[string]json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("suggest: json: suggestion %d (offset %d): %w", len(out)+1, off, err)
		}
		for old, name := range oldNames {
			if v, ok := raw[old]; ok {
				if _, both := raw[name]; both {
					return nil, fmt.Errorf("suggest: json: suggestion %d (offset %d): %w: keys %q and %q both (the old and the new name of one column)", len(out)+1, off, ErrHeader, old, name)
				}
				raw[name] = v
				delete(raw, old)
			}
		}
		_, hasLo := raw[intervalColumns[0]]
		_, hasHi := raw[intervalColumns[1]]
		for _, c := range Columns() {
			if _, ok := raw[c]; !ok && (hasLo || hasHi || (c != intervalColumns[0] && c != intervalColumns[1])) {
				return nil, fmt.Errorf("suggest: json: suggestion %d (offset %d): %w: missing key %q", len(out)+1, off, ErrHeader, c)
			}
		}
		var j jsonRow
		b, _ := json.Marshal(raw)
		d := json.NewDecoder(bytes.NewReader(b))
		d.DisallowUnknownFields()
		if err := d.Decode(&j); err != nil {
			return nil, fmt.Errorf("suggest: json: suggestion %d (offset %d): %w", len(out)+1, off, err)
		}
		if j.Rank == nil {
			return nil, fmt.Errorf("suggest: json: suggestion %d (offset %d): rank is null", len(out)+1, off)
		}
		var s Suggestion
		s.Rank = *j.Rank
		str := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		cid := func(p *int64) int64 {
			if p == nil {
				return 0
			}
			return *p
		}
		s.DrugA.Name, s.DrugA.ID, s.DrugA.PubChemCID, s.DrugA.SMILES = str(j.DrugA), str(j.DrugAID), cid(j.DrugACID), str(j.DrugASMILES)
		s.DrugB.Name, s.DrugB.ID, s.DrugB.PubChemCID, s.DrugB.SMILES = str(j.DrugB), str(j.DrugBID), cid(j.DrugBCID), str(j.DrugBSMILES)
		if s.DrugA.PubChemCID < 0 || s.DrugB.PubChemCID < 0 {
			return nil, fmt.Errorf("suggest: json: suggestion %d (offset %d): negative PubChem CID", len(out)+1, off)
		}
		s.CellLine, s.Reason = str(j.CellLine), str(j.Reason)
		switch {
		case j.Lower == nil && j.Upper == nil:
		case j.Lower == nil || j.Upper == nil:
			return nil, fmt.Errorf("suggest: json: suggestion %d (offset %d): lower and upper: want both or neither", len(out)+1, off)
		default:
			lo, hi := float64(*j.Lower), float64(*j.Upper)
			if err := checkInterval(lo, hi); err != nil {
				return nil, fmt.Errorf("suggest: json: suggestion %d (offset %d): %w", len(out)+1, off, err)
			}
			s.Interval = &Interval{Lower: lo, Upper: hi}
		}
		for k, f := range floats(&s) {
			if p := *j.floats()[k]; p != nil {
				*f = float64(*p)
			} else {
				*f = math.NaN()
			}
		}
		out = append(out, s)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("suggest: json: offset %d: %w", dec.InputOffset(), err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("suggest: json: offset %d: data after the array", dec.InputOffset())
	}
	return out, nil
}
