package predict

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// Pairs is a pairs file: its pairs (feature rows) and the columns other
// than the two drug columns, passed through to the output.
type Pairs struct {
	Pairs      []model.PairRef
	ExtraNames []string
	Extra      [][]string // per pair, the values of ExtraNames
}

// ReadPairs reads a pairs CSV: two drug columns (drug_a_id/drug_b_id,
// drug_a/drug_b or drug_a_cid/drug_b_cid, the first of each) holding drug
// ids, PubChem CIDs or names, matched as campaign import-results matches
// them (drugcomb.RefIndex) among drugs and mapped to feature rows by row
// (drug id -> row; a drug without a row has no usable structure or
// signature); every other column is kept, and may not be named as a
// prediction column (IsColumn).
func ReadPairs(path string, row map[string]int, drugs []drugcomb.Drug) (*Pairs, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	r := csv.NewReader(bufio.NewReader(fh))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	ac, bc := -1, -1
	for i, h := range head {
		switch strings.ToLower(strings.TrimSpace(h)) {
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
	pf := &Pairs{}
	var keep []int
	for i, h := range head {
		if i != ac && i != bc {
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
		if len(rec) <= max(ac, bc) {
			return nil, fmt.Errorf("%s:%d: %d fields, want at least %d", path, line, len(rec), max(ac, bc)+1)
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
		pf.Pairs = append(pf.Pairs, model.PairRef{A: p[0], B: p[1]})
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
