package drugcomb

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
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
	// byLoose maps a name reduced to its lower-case letters and digits to
	// the first entry with a SMILES (else the first entry) so reduced.
	byLoose map[string]int
	Notes   []*Tally // duplicate or keyless rows; the importers copy nothing from here
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
	// A drug whose id is a name takes its PubChem CID from the CID column
	// beside it (the first of CatalogueCIDColumns present), when there is
	// one; the id stays the name.
	ID     string
	SMILES string
}

// Catalogue column names, recognised case-insensitively, first match wins.
var (
	catNameCols   = []string{"name", "drug_name", "drugname", "dname", "drug", "pert_iname", "compound", "compound_name", "id", "drug_id"}
	catCIDCols    = []string{"pubchem_cid", "pubchemcid", "pubchemid", "pubchem_id", "cid", "pubchem", "cids"}
	catSMILESCols = []string{"smiles", "isosmiles", "isomeric_smiles", "isomericsmiles", "canonical_smiles", "canonicalsmiles", "can_smiles", "smiles_string", "drug_smiles"}
)

// CatalogueSMILESColumns returns the column names a catalogue's SMILES is
// recognised by (case-insensitively, the first present wins).
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
		in = -1
		if ic == id { // the id column is the CID column: no CID beside it
			ic = -1
		}
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
		key := ""       // the explicit id column's value when it is not a CID
		byName := false // the drug's id is the explicit id column's name
		if iv != "" {   // the explicit id column: a CID when it is one, else a name
			if _, ok := parseCID(iv); ok {
				cs = iv
			} else {
				key, byName = iv, true
				// The CID column beside a name id gives the drug its
				// CID; a value that is not one (LINCS writes -666 and 0
				// for none) leaves it without, and is counted.
				if _, ok := parseCID(cs); !ok && cs != "" {
					rep.note("catalogue CID that is not a PubChem CID (drug kept without a CID)", src.loc(), iv+" "+strconv.Quote(cs))
					cs = ""
				}
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
		case byName:
			d.ID = key
		case cid != 0:
			d.ID = strconv.FormatInt(cid, 10)
		default:
			d.ID = key
		}
		if d.Name == "" {
			d.Name = d.ID
		}
		dup := -1
		if i, ok := c.byCID[cid]; ok && cid != 0 && !byName {
			dup = i
		} else if i, ok := c.byKey[strings.ToLower(key)]; ok && key != "" {
			dup = i
		}
		if dup >= 0 {
			// A first entry without SMILES takes a later duplicate's, so
			// that a structureless row does not shadow one with a structure.
			if c.Drugs[dup].SMILES == "" && smi != "" {
				c.Drugs[dup].SMILES = smi
				rep.note("duplicate catalogue entry (first kept, SMILES from a later row)", src.loc(), d.Name)
				continue
			}
			rep.note("duplicate catalogue entry (first kept)", src.loc(), d.Name)
			continue
		}
		c.Drugs = append(c.Drugs, d)
		c.Locs = append(c.Locs, src.loc())
		if _, ok := c.byCID[cid]; cid != 0 && !ok { // two names may share a CID: the first
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
	c.byLoose = map[string]int{}
	for i, d := range c.Drugs {
		for _, n := range []string{d.Name, d.ID} {
			k := looseKey(n)
			if k == "" {
				continue
			}
			if j, ok := c.byLoose[k]; !ok || (c.Drugs[j].SMILES == "" && d.SMILES != "") {
				c.byLoose[k] = i
			}
		}
	}
	return c, nil
}

// How a drug name was matched to a catalogue entry (Catalogue.Match). The
// rules are tried in this order, each only when the ones before found
// nothing, and the first entry found is the drug:
//
//   - MatchCID: the value is a PubChem CID of the catalogue;
//   - MatchExact: the name as written (surrounding spaces ignored);
//   - MatchCase: the name ignoring case;
//   - MatchAlias: a name ending in a parenthetical alias,
//     "Ibrutinib (PCI-32765)", by the name before it ("Ibrutinib"), then
//     by the alias ("PCI-32765"), ignoring case;
//   - MatchSalt: the name (or either part of it above) without trailing
//     salt or hydrate words (SaltWords): "Vincristine sulfate" as
//     "Vincristine", "Imatinib mesylate" as "Imatinib";
//   - MatchLoose: any of the names above compared by their letters and
//     digits only, ignoring case, spaces and punctuation ("Actinomycin D"
//     as "actinomycin-d"), preferring an entry with a SMILES.
//
// Every import that uses a catalogue matches by this one rule, and the
// import reports (a note per rule) how many drugs each rule after
// MatchExact matched.
const (
	MatchCID   = "PubChem CID"
	MatchExact = "exact name"
	MatchCase  = "name ignoring case"
	MatchAlias = "name without its parenthetical alias, or the alias"
	MatchSalt  = "name without a salt suffix"
	MatchLoose = "name ignoring spaces and punctuation"
)

// saltWords are the trailing words MatchSalt removes (lower case).
var saltWords = map[string]bool{
	"hydrochloride": true, "dihydrochloride": true, "trihydrochloride": true, "hcl": true, "2hcl": true,
	"hydrobromide": true, "bromide": true, "chloride": true, "iodide": true,
	"sulfate": true, "sulphate": true, "bisulfate": true, "hemisulfate": true,
	"mesylate": true, "dimesylate": true, "mesilate": true, "methanesulfonate": true,
	"tosylate": true, "ditosylate": true, "besylate": true, "maleate": true, "fumarate": true,
	"citrate": true, "tartrate": true, "bitartrate": true, "acetate": true, "phosphate": true,
	"succinate": true, "lactate": true, "malate": true, "oxalate": true, "nitrate": true,
	"sodium": true, "disodium": true, "potassium": true, "calcium": true, "salt": true,
	"hydrate": true, "monohydrate": true, "dihydrate": true, "trihydrate": true, "hemihydrate": true,
}

// nameVariants returns the names a drug name is looked up by after the
// exact and case-insensitive rules, each with its rule, in order.
func nameVariants(v string) (names, rules []string) {
	add := func(n, rule string) {
		n = strings.TrimSpace(n)
		if n == "" {
			return
		}
		names, rules = append(names, n), append(rules, rule)
	}
	base := []string{v}
	if strings.HasSuffix(v, ")") {
		if i := strings.LastIndex(v, "("); i > 0 && !strings.Contains(v[i+1:len(v)-1], "(") {
			before, alias := strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1:len(v)-1])
			add(before, MatchAlias)
			add(alias, MatchAlias)
			base = append(base, before, alias)
		}
	}
	for _, b := range base {
		f := strings.Fields(b)
		n := len(f)
		for n > 1 && saltWords[strings.ToLower(f[n-1])] {
			n--
		}
		if n < len(f) {
			add(strings.Join(f[:n], " "), MatchSalt)
		}
	}
	return names, rules
}

// looseKey is a name's lower-case letters and digits ("" when it has none).
func looseKey(v string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(v) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lookup finds a drug by the matching rule of Match. The drug's ID is the
// entry's own (its CID as text when it has one, else its name), however it
// was found, so one entry is one drug. i is the entry's index, -1 if none;
// rule is how it was matched.
func (c *Catalogue) lookup(v string) (d Drug, i int, rule string) {
	if cid, ok := parseCID(v); ok {
		if i, ok := c.byCID[cid]; ok {
			return c.Drugs[i], i, MatchCID
		}
	}
	v = strings.TrimSpace(v)
	if i, ok := c.byKey[strings.ToLower(v)]; ok {
		rule = MatchCase
		if d := c.Drugs[i]; d.Name == v || d.ID == v {
			rule = MatchExact
		}
		return c.Drugs[i], i, rule
	}
	names, rules := nameVariants(v)
	for k, n := range names {
		if i, ok := c.byKey[strings.ToLower(n)]; ok {
			return c.Drugs[i], i, rules[k]
		}
	}
	for _, n := range append([]string{v}, names...) {
		if i, ok := c.byLoose[looseKey(n)]; ok {
			return c.Drugs[i], i, MatchLoose
		}
	}
	return Drug{}, -1, ""
}

// NumSMILES is the number of drugs with a SMILES.
func (c *Catalogue) NumSMILES() int {
	n := 0
	for _, d := range c.Drugs {
		if d.SMILES != "" {
			n++
		}
	}
	return n
}

// CheckSMILES returns an error naming the SMILES column found (or none)
// and the file's columns when no drug of c has a SMILES, nil otherwise.
func (c *Catalogue) CheckSMILES() error {
	if c.NumSMILES() > 0 {
		return nil
	}
	return fmt.Errorf("%s: no drug has a SMILES (SMILES column: %s; the file's columns: %s)", c.File, orNone(c.SMILESColumn), strings.Join(c.Header, ", "))
}

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

// Lookup finds a drug by PubChem CID (a positive integer) or by name, by
// the importers' matching rule (see Match).
func (c *Catalogue) Lookup(v string) (Drug, bool) {
	d, i, _ := c.lookup(v)
	return d, i >= 0
}

// Match is Lookup that also says which rule matched (MatchCID, MatchExact,
// MatchCase, MatchAlias, MatchSalt or MatchLoose; "" when none did).
func (c *Catalogue) Match(v string) (Drug, string, bool) {
	d, i, rule := c.lookup(v)
	return d, rule, i >= 0
}
