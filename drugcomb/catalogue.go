package drugcomb

import (
	"errors"
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
	// Locs[i] is where Drugs[i] was read, "file:line" (text) or
	// "file:row n" (Parquet, Arrow), for messages.
	Locs  []string
	byCID map[int64]int
	byKey map[string]int // lower-case name
	Notes []*Tally       // duplicate or keyless rows; the importers copy nothing from here
	// Header lists the file's columns; NameColumn, CIDColumn, IDColumn and
	// SMILESColumn the ones read ("" for none), for messages.
	Header                                        []string
	NameColumn, CIDColumn, IDColumn, SMILESColumn string
}

// CatalogueColumns names catalogue columns explicitly; "" means the first
// recognised spelling (CatalogueNameColumns, CatalogueCIDColumns,
// CatalogueSMILESColumns).
type CatalogueColumns struct {
	// ID is the column holding the drug identifier the pairs table uses:
	// values that are positive integers are PubChem CIDs, others names.
	ID     string
	SMILES string
}

// Catalogue column names, recognised case-insensitively, first match wins.
var (
	catNameCols   = []string{"name", "drug_name", "drugname", "dname", "drug", "pert_iname", "compound", "compound_name", "id", "drug_id"}
	catCIDCols    = []string{"pubchem_cid", "pubchemcid", "pubchemid", "pubchem_id", "cid", "pubchem", "cids"}
	catSMILESCols = []string{"smiles", "isosmiles", "isomeric_smiles", "isomericsmiles", "canonical_smiles", "canonicalsmiles", "can_smiles", "smiles_string", "drug_smiles"}
)

// CatalogueNameColumns, CatalogueCIDColumns and CatalogueSMILESColumns
// return the column names a catalogue's name, PubChem CID and SMILES are
// recognised by (case-insensitively, the first present wins).
func CatalogueNameColumns() []string   { return append([]string(nil), catNameCols...) }
func CatalogueCIDColumns() []string    { return append([]string(nil), catCIDCols...) }
func CatalogueSMILESColumns() []string { return append([]string(nil), catSMILESCols...) }

// ReadCatalogueFile reads a drug catalogue (any table format ImportTable
// reads) with a name column and/or a PubChem CID column, and optionally a
// SMILES column.
func ReadCatalogueFile(path string) (*Catalogue, error) {
	return ReadCatalogueFileWith(path, CatalogueColumns{})
}

// ReadCatalogueFileWith is ReadCatalogueFile with columns named explicitly.
func ReadCatalogueFileWith(path string, cols CatalogueColumns) (*Catalogue, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("drugcomb: catalogue: %w", err)
	}
	defer f.Close()
	return ReadCatalogueWith(path, f, cols)
}

// ReadCatalogue reads a catalogue from r (named name in messages).
func ReadCatalogue(name string, r io.Reader) (*Catalogue, error) {
	return ReadCatalogueWith(name, r, CatalogueColumns{})
}

// ReadCatalogueWith is ReadCatalogue with columns named explicitly. A named
// column missing from the header is an error listing the header.
func ReadCatalogueWith(name string, r io.Reader, cols CatalogueColumns) (*Catalogue, error) {
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
	named := func(col, flag string) (int, error) {
		i, err := findColumn(hdr, col)
		if err != nil || i < 0 {
			return -1, fmt.Errorf("drugcomb: catalogue: %w", src.perr(-1, fmt.Errorf("%w: no %s column %q; the header has: %s", ErrMissingColumn, flag, col, strings.Join(hdr, ", "))))
		}
		return i, nil
	}
	id := -1
	if cols.ID != "" {
		if id, err = named(cols.ID, "id"); err != nil {
			return nil, err
		}
		in, ic = -1, -1
		for _, n := range catNameCols { // a name column beside the id, for display
			if j, err := findColumn(hdr, n); err == nil && j >= 0 && j != id {
				in = j
				break
			}
		}
	}
	if cols.SMILES != "" {
		if is, err = named(cols.SMILES, "SMILES"); err != nil {
			return nil, err
		}
	}
	if in < 0 && ic < 0 && id < 0 {
		return nil, fmt.Errorf("drugcomb: catalogue: %w", src.perr(-1, fmt.Errorf("%w: a catalogue needs a name column (%s) or a PubChem CID column (%s); the header has: %s",
			ErrMissingColumn, strings.Join(catNameCols, ", "), strings.Join(catCIDCols, ", "), strings.Join(hdr, ", "))))
	}
	c := &Catalogue{File: name, byCID: map[int64]int{}, byKey: map[string]int{}, Header: append([]string(nil), hdr...)}
	colName := func(j int) string {
		if j < 0 {
			return ""
		}
		return hdr[j]
	}
	c.NameColumn, c.CIDColumn, c.IDColumn, c.SMILESColumn = colName(in), colName(ic), colName(id), colName(is)
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
		iv, err := get(id)
		if err != nil {
			return nil, fmt.Errorf("drugcomb: catalogue: %w", err)
		}
		for k, v := range []string{nm, cs, smi, iv} {
			if !utf8.ValidString(v) {
				return nil, fmt.Errorf("drugcomb: catalogue: %w", src.perr([]int{in, ic, is, id}[k], ErrUTF8))
			}
		}
		key := ""     // the explicit id column's value when it is not a CID
		if iv != "" { // the explicit id column: a CID when it is one, else a name
			if _, ok := parseCID(iv); ok {
				cs = iv
			} else {
				key, cs = iv, ""
			}
		}
		var cid int64
		if cs != "" {
			var ok bool
			if cid, ok = parseCID(cs); !ok {
				return nil, fmt.Errorf("drugcomb: catalogue: %w", src.perr(ic, fmt.Errorf("%w: %q is not a PubChem CID (a positive integer)", ErrNotNumber, cs)))
			}
		}
		if key != "" {
			if nm == "" {
				nm = key
			}
		} else {
			key = nm
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
			d.ID = key
		}
		if d.Name == "" {
			d.Name = d.ID
		}
		dup := -1
		if i, ok := c.byCID[cid]; ok && cid != 0 {
			dup = i
		} else if i, ok := c.byKey[strings.ToLower(key)]; ok && key != "" {
			dup = i
		}
		if dup >= 0 {
			rep.note("duplicate catalogue entry (first kept)", src.loc(), d.Name)
			continue
		}
		c.Drugs = append(c.Drugs, d)
		c.Locs = append(c.Locs, src.loc())
		if cid != 0 {
			c.byCID[cid] = len(c.Drugs) - 1
		}
		if key != "" {
			c.byKey[strings.ToLower(key)] = len(c.Drugs) - 1
		}
		if nm != "" && nm != key {
			if _, ok := c.byKey[strings.ToLower(nm)]; !ok {
				c.byKey[strings.ToLower(nm)] = len(c.Drugs) - 1
			}
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

// ErrCatalogue marks a catalogue that an import cannot use: it matches none
// of the pairs' drugs, or gives none of them a SMILES.
var ErrCatalogue = errors.New("drugcomb: unusable drug catalogue")

// keyColumns names the columns drugs were looked up by, for messages.
func (c *Catalogue) keyColumns() string {
	var cols []string
	for _, n := range []string{c.IDColumn, c.CIDColumn, c.NameColumn} {
		if n != "" {
			cols = append(cols, n)
		}
	}
	if len(cols) == 0 {
		return "no column"
	}
	return "column " + strings.Join(cols, " and ")
}

func orNone(s string) string {
	if s == "" {
		return "none found"
	}
	return s
}

// Lookup finds a drug by PubChem CID (a positive integer) or by name
// (case-insensitive), as the importers do.
func (c *Catalogue) Lookup(v string) (Drug, bool) {
	d, i := c.lookup(v)
	return d, i >= 0
}
