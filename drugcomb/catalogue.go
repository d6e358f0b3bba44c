package drugcomb

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// A Catalogue lists known drugs (names, PubChem CIDs, SMILES) for the
// importers: a pairs table names drugs by CID or by name, and the
// catalogue supplies the rest.
type Catalogue struct {
	File  string
	Drugs []Drug // in file order; ID is the CID as text when known, else the name
	byCID map[int64]int
	byKey map[string]int // lower-case name
	Notes []*Tally       // duplicate or keyless rows; the importers copy nothing from here
}

// Catalogue column names, recognised case-insensitively.
var (
	catNameCols   = []string{"name", "drug_name", "dname", "drug", "pert_iname", "id"}
	catCIDCols    = []string{"pubchem_cid", "cid", "pubchemcid", "pubchem"}
	catSMILESCols = []string{"smiles", "canonical_smiles", "isomeric_smiles"}
)

// ReadCatalogueFile reads a drug catalogue (any table format ImportTable
// reads) with a name column and/or a PubChem CID column, and optionally a
// SMILES column.
func ReadCatalogueFile(path string) (*Catalogue, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("drugcomb: catalogue: %w", err)
	}
	defer f.Close()
	return ReadCatalogue(path, f)
}

// ReadCatalogue reads a catalogue from r (named name in messages).
func ReadCatalogue(name string, r io.Reader) (*Catalogue, error) {
	src, err := newTableSource(name, r, 0, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("drugcomb: catalogue: %w", err)
	}
	defer src.close()
	hdr := src.header()
	pick := func(names []string) int {
		for _, n := range names {
			if i, err := findColumn(hdr, n); err == nil && i >= 0 {
				return i
			}
		}
		return -1
	}
	in, ic, is := pick(catNameCols), pick(catCIDCols), pick(catSMILESCols)
	if in < 0 && ic < 0 {
		return nil, fmt.Errorf("drugcomb: catalogue: %w", src.perr(-1, fmt.Errorf("%w: a catalogue needs a name column (%s) or a PubChem CID column (%s); the header has: %s",
			ErrMissingColumn, strings.Join(catNameCols, ", "), strings.Join(catCIDCols, ", "), strings.Join(hdr, ", "))))
	}
	c := &Catalogue{File: name, byCID: map[int64]int{}, byKey: map[string]int{}}
	rep := &Report{}
	for {
		ok, err := src.next()
		if !ok && err == nil {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("drugcomb: catalogue: %w", err)
		}
		get := func(j int) (string, error) {
			if j < 0 {
				return "", nil
			}
			v, err := src.field(j)
			v = strings.TrimSpace(v)
			if isMissing(v) {
				v = ""
			}
			return v, err
		}
		nm, err := get(in)
		if err != nil {
			return nil, fmt.Errorf("drugcomb: catalogue: %w", err)
		}
		cs, err := get(ic)
		if err != nil {
			return nil, fmt.Errorf("drugcomb: catalogue: %w", err)
		}
		smi, err := get(is)
		if err != nil {
			return nil, fmt.Errorf("drugcomb: catalogue: %w", err)
		}
		for k, v := range []string{nm, cs, smi} {
			if !utf8.ValidString(v) {
				return nil, fmt.Errorf("drugcomb: catalogue: %w", src.perr([]int{in, ic, is}[k], ErrUTF8))
			}
		}
		var cid int64
		if cs != "" {
			var ok bool
			if cid, ok = parseCID(cs); !ok {
				return nil, fmt.Errorf("drugcomb: catalogue: %w", src.perr(ic, fmt.Errorf("%w: %q is not a PubChem CID (a positive integer)", ErrNotNumber, cs)))
			}
		}
		if nm == "" && cid == 0 {
			rep.note("catalogue row without name or CID", src.loc(), "")
			continue
		}
		d := Drug{Name: nm, PubChemCID: cid, SMILES: smi}
		switch {
		case cid != 0:
			d.ID = strconv.FormatInt(cid, 10)
		default:
			d.ID = nm
		}
		if d.Name == "" {
			d.Name = d.ID
		}
		dup := -1
		if i, ok := c.byCID[cid]; ok && cid != 0 {
			dup = i
		} else if i, ok := c.byKey[strings.ToLower(nm)]; ok && nm != "" {
			dup = i
		}
		if dup >= 0 {
			rep.note("duplicate catalogue entry (first kept)", src.loc(), d.Name)
			continue
		}
		c.Drugs = append(c.Drugs, d)
		if cid != 0 {
			c.byCID[cid] = len(c.Drugs) - 1
		}
		if nm != "" {
			c.byKey[strings.ToLower(nm)] = len(c.Drugs) - 1
		}
	}
	c.Notes = rep.Notes
	return c, nil
}

// lookup finds a drug by PubChem CID (when v is one) or by name, ignoring
// case. The drug's ID is the entry's own (its CID as text when it has one,
// else its name), however it was found, so one entry is one drug. i is the
// entry's index, -1 if none.
func (c *Catalogue) lookup(v string) (Drug, int) {
	if cid, ok := parseCID(v); ok {
		if i, ok := c.byCID[cid]; ok {
			return c.Drugs[i], i
		}
	}
	if i, ok := c.byKey[strings.ToLower(strings.TrimSpace(v))]; ok {
		return c.Drugs[i], i
	}
	return Drug{}, -1
}

// Len is the number of drugs in the catalogue.
func (c *Catalogue) Len() int { return len(c.Drugs) }
