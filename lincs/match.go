package lincs

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
)

// PertInfo maps PubChem CIDs to LINCS perturbagen names (pert_iname), read
// from the LINCS perturbagen table (GSE92742_Broad_LINCS_pert_info.txt and
// its copies such as dhimmel/lincs pertinfo.tsv.gz).
type PertInfo struct {
	// Names lists, per CID, the distinct pert_iname values of the
	// perturbagens with that CID, in file order.
	Names map[int64][]string
	// Rows is the number of data rows read; NoCID counts those with an
	// empty or "-666" (the LINCS missing code) pubchem_cid; Invalid lists
	// those whose pubchem_cid is neither (such as "MLS003116075"), which are
	// kept out of Names.
	Rows    int
	NoCID   int
	Invalid []InvalidCID
}

// InvalidCID is a perturbagen row whose pubchem_cid is not a CID.
type InvalidCID struct {
	Line  int    // 1-based line in the file
	Value string // the pubchem_cid field
	Name  string // the pert_iname field
}

// ReadPertInfoFile reads a perturbagen table; a name ending in ".gz" is
// decompressed.
func ReadPertInfoFile(path string) (*PertInfo, error) {
	return readFile(path, ReadPertInfo)
}

// ReadPertInfo reads a tab-separated perturbagen table with a header line
// naming at least the columns pert_iname and pubchem_cid. A line with a
// different number of fields than the header is a *ParseError.
func ReadPertInfo(r io.Reader, name string) (*PertInfo, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	line := 0
	perr := func(col int, format string, args ...any) error {
		return &ParseError{File: name, Line: line, Column: col, Err: fmt.Errorf(format, args...)}
	}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("lincs: %s: %w", name, err)
		}
		line = 1
		return nil, perr(0, "empty perturbagen table")
	}
	line = 1
	header := strings.Split(strings.TrimSuffix(sc.Text(), "\r"), "\t")
	iName, iCID := -1, -1
	for i, h := range header {
		switch strings.TrimSpace(h) {
		case "pert_iname":
			iName = i
		case "pubchem_cid":
			iCID = i
		}
	}
	if iName < 0 || iCID < 0 {
		return nil, perr(0, "header lacks pert_iname or pubchem_cid (is the file tab-separated?)")
	}
	info := &PertInfo{Names: make(map[int64][]string)}
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if text == "" {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != len(header) {
			return nil, perr(0, "%d tab-separated fields, header has %d", len(f), len(header))
		}
		info.Rows++
		cidText := strings.TrimSpace(f[iCID])
		pname := strings.TrimSpace(f[iName])
		if cidText == "" || cidText == "-666" {
			info.NoCID++
			continue
		}
		cid, err := strconv.ParseInt(cidText, 10, 64)
		if err != nil || cid <= 0 {
			info.Invalid = append(info.Invalid, InvalidCID{Line: line, Value: cidText, Name: pname})
			continue
		}
		if pname == "" {
			continue
		}
		names := info.Names[cid]
		dup := false
		for _, n := range names {
			dup = dup || n == pname
		}
		if !dup {
			info.Names[cid] = append(names, pname)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{File: name, Line: line + 1, Err: err}
	}
	return info, nil
}

// Method says how a drug was matched to a signature.
type Method string

// Match methods, in the order they are tried.
const (
	ByCID  Method = "pubchem_cid" // a pert_iname of the drug's CID equals a column id (case-insensitive)
	ByName Method = "name"        // the drug's name equals a column id (case-insensitive)
	// ByParentName: the drug's name is a salt or solvate form ("daunorubicin
	// hydrochloride", "sunitinib (free base)") and its parent name
	// (ParentName) equals a column id (case-insensitive).
	ByParentName Method = "parent_name"
	None         Method = "" // no signature
)

// saltWords are the words ParentName strips from the end of a drug name:
// the counter-ions of pharmaceutical salts (FDA and USAN salt names, their
// INN -ate/-ite/-ilate spellings), hydrates and the words that say a name
// is a salt or a base. Words that are also ester names in common drug names
// ("acetate" in megestrol acetate, "propionate", "valerate", ...) are not
// in the list: there the word names part of the molecule itself. For the
// same reason "phosphate" and "succinate" are left out (fludarabine
// phosphate and hydrocortisone succinate are esters, prodrugs of another
// molecule, not salts).
var saltWords = map[string]bool{
	// hydrohalides
	"hydrochloride": true, "dihydrochloride": true, "trihydrochloride": true, "monohydrochloride": true,
	"hcl": true, "hydrobromide": true, "dihydrobromide": true, "hbr": true, "hydroiodide": true,
	// sulfur and phosphorus acids
	"sulfate": true, "sulphate": true, "bisulfate": true, "hemisulfate": true, "disulfate": true,
	"mesylate": true, "mesilate": true, "dimesylate": true, "methanesulfonate": true,
	"besylate": true, "besilate": true, "tosylate": true, "tosilate": true, "ditosylate": true,
	"esylate": true, "edisylate": true, "napsylate": true, "isethionate": true,
	"nitrate": true,
	// carboxylic acids
	"citrate": true, "tartrate": true, "bitartrate": true, "maleate": true, "dimaleate": true,
	"malate": true, "fumarate": true, "hemifumarate": true, "lactate": true,
	"gluconate": true, "glucuronate": true, "lactobionate": true, "oxalate": true, "pamoate": true,
	"embonate": true, "xinafoate": true, "trifluoroacetate": true, "tfa": true,
	// cations and bases
	"sodium": true, "disodium": true, "trisodium": true, "potassium": true, "dipotassium": true,
	"calcium": true, "magnesium": true, "meglumine": true, "tromethamine": true,
	// solvates and forms
	"hydrate": true, "monohydrate": true, "dihydrate": true, "trihydrate": true, "hemihydrate": true,
	"sesquihydrate": true, "pentahydrate": true, "heptahydrate": true, "anhydrous": true,
	"salt": true, "base": true, "free": true,
}

// ParentName returns name without the salt and solvate words at its end
// (saltWords: "Lapatinib ditosylate" → "Lapatinib", "Pemetrexed disodium
// heptahydrate" → "Pemetrexed") and without a trailing parenthesized group
// made of such words ("Sunitinib (free base)" → "Sunitinib"), trimmed of
// spaces, commas and hyphens. It returns "" when nothing was stripped or
// when nothing would remain (a name that is only salt words).
func ParentName(name string) string {
	s := strings.TrimSpace(name)
	stripped := false
	for {
		t := strings.TrimRight(s, " ,-")
		if strings.HasSuffix(t, ")") {
			if open := strings.LastIndexByte(t, '('); open >= 0 && allSaltWords(t[open+1:len(t)-1]) {
				s, stripped = t[:open], true
				continue
			}
		}
		i := strings.LastIndexAny(t, " -")
		if i < 0 || !saltWords[strings.ToLower(t[i+1:])] {
			s = t
			break
		}
		s, stripped = t[:i], true
	}
	if !stripped || s == "" {
		return ""
	}
	return s
}

func allSaltWords(s string) bool {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '-' })
	for _, w := range f {
		if !saltWords[strings.ToLower(w)] {
			return false
		}
	}
	return len(f) > 0
}

// Signatures holds one signature per drug of a screen, aligned with the
// drugs it was built for (or loaded with). It is what `deup data signatures`
// writes beside a screen and LoadSignatures reads back.
//
// Invariants: DrugIDs, Vectors, Columns and By have the same length; every
// non-nil vector has len(Genes) elements; DrugIDs are unique.
type Signatures struct {
	Genes   []string    // the meaning of each vector element (GCT row ids)
	DrugIDs []string    // drugcomb.Drug.ID of each drug
	Vectors [][]float32 // per drug: its signature, nil when none; may hold NaN where the GCT does
	Columns []string    // per drug: the GCT column id used, "" when none
	By      []Method    // per drug: how it matched, None when it did not
}

// Len is the number of drugs.
func (s *Signatures) Len() int { return len(s.DrugIDs) }

// Covered is the number of drugs with a signature.
func (s *Signatures) Covered() int {
	n := 0
	for _, v := range s.Vectors {
		if v != nil {
			n++
		}
	}
	return n
}

// For returns the signatures of drugs, aligned with them, by drug ID: nil for
// a drug that s has no signature for or does not list. The vectors are
// shared with s, not copied.
func (s *Signatures) For(drugs []drugcomb.Drug) [][]float32 {
	at := make(map[string]int, len(s.DrugIDs))
	for i, id := range s.DrugIDs {
		at[id] = i
	}
	out := make([][]float32, len(drugs))
	for i, d := range drugs {
		if j, ok := at[d.ID]; ok {
			out[i] = s.Vectors[j]
		}
	}
	return out
}

// Features returns a dense feature row per drug for a model: the drug's
// signature (found by ID as in For) with NaN replaced by 0, or all zeros
// for a drug without one; has[i] reports whether drug i had a signature
// with at least one finite value (a model can feed it as an indicator).
// The rows are fresh copies of len(s.Genes) values.
func (s *Signatures) Features(drugs []drugcomb.Drug) (x [][]float32, has []bool) {
	vecs := s.For(drugs)
	x = make([][]float32, len(drugs))
	has = make([]bool, len(drugs))
	for i, v := range vecs {
		row := make([]float32, len(s.Genes))
		for k, f := range v {
			if f == f {
				row[k] = f
				has[i] = true
			}
		}
		x[i] = row
	}
	return x, has
}

// Validate checks the invariants of s.
func (s *Signatures) Validate() error {
	n := len(s.DrugIDs)
	if len(s.Vectors) != n || len(s.Columns) != n || len(s.By) != n {
		return fmt.Errorf("lincs: signatures: %d drug ids, %d vectors, %d columns, %d methods", n, len(s.Vectors), len(s.Columns), len(s.By))
	}
	if i, j := firstDuplicate(s.DrugIDs); j >= 0 {
		return fmt.Errorf("lincs: signatures: duplicate drug id %q (drugs %d and %d)", s.DrugIDs[j], i+1, j+1)
	}
	for i, v := range s.Vectors {
		if v != nil && len(v) != len(s.Genes) {
			return fmt.Errorf("lincs: signatures: drug %q has %d values for %d genes", s.DrugIDs[i], len(v), len(s.Genes))
		}
		if (v == nil) != (s.By[i] == None) {
			return fmt.Errorf("lincs: signatures: drug %q: vector present %v but method %q", s.DrugIDs[i], v != nil, s.By[i])
		}
	}
	return nil
}

// MatchDrugs finds a signature column of m for each drug, matching on the
// column ids, or on the column metadata field "pert_iname" when m has one
// (as GCTX files of LINCS level 5 do, whose column ids are signature ids);
// see MatchDrugsOn. The vectors are copies; m may be discarded.
func MatchDrugs(m *Matrix, info *PertInfo, drugs []drugcomb.Drug) (*Signatures, Report) {
	return MatchDrugsOn(m, defaultMatchField(m.ColMeta), info, drugs)
}

// defaultMatchField is "pert_iname" when the column metadata has it, else
// "" (the column ids).
func defaultMatchField(colMeta []Field) string {
	for _, f := range colMeta {
		if f.Name == "pert_iname" {
			return f.Name
		}
	}
	return ""
}

// MatchDrugsOn finds a signature column of m for each drug, comparing keys
// with the column ids (field "") or with the values of the named column
// metadata field. For a drug with a PubChem CID, each pert_iname that info
// gives for the CID is looked up among those names, case-insensitively, in
// info's order; failing that (or without a CID, or with info nil), the
// drug's Name, trimmed of surrounding spaces, is looked up the same way;
// failing that, the parent name of a salt form (ParentName: the name
// without "hydrochloride", "ditosylate", "(free base)", ...) is, and the
// match is reported with Method ByParentName and in Report.Parents.
// Among columns whose names differ only in case (or are equal, for a
// metadata field), the one equal to the key exactly wins, else the first in
// file order; the others are reported as ambiguous. MatchDrugsOn never
// fails: drugs without a signature get a nil vector and Method None, and
// are listed in the report; an unknown field matches nothing. The
// Signatures' Columns hold the column ids.
func MatchDrugsOn(m *Matrix, field string, info *PertInfo, drugs []drugcomb.Drug) (*Signatures, Report) {
	s, rep, _ := matchOn(m.Rows, m.Cols, m.ColMeta, field, info, drugs, func(j int) ([]float32, error) {
		return m.Col(nil, j), nil
	})
	return s, rep
}

// matchOn does the matching of MatchDrugsOn on a matrix's ids and column
// metadata, reading the values of matched columns only, through column
// (which returns a fresh slice). It fails only if column does.
func matchOn(rows, cols []string, colMeta []Field, field string, info *PertInfo, drugs []drugcomb.Drug, column func(j int) ([]float32, error)) (*Signatures, Report, error) {
	names := cols
	if field != "" {
		names = nil
		for _, f := range colMeta {
			if f.Name == field {
				names = f.Values
				break
			}
		}
	}
	byLower := make(map[string][]int, len(names))
	for j, c := range names {
		k := strings.ToLower(c)
		byLower[k] = append(byLower[k], j)
	}
	lookup := func(key string) (int, []string) {
		cands := byLower[strings.ToLower(key)]
		if len(cands) == 0 {
			return -1, nil
		}
		pick := cands[0]
		for _, j := range cands {
			if names[j] == key {
				pick = j
				break
			}
		}
		var others []string
		for _, j := range cands {
			if j != pick {
				others = append(others, cols[j])
			}
		}
		return pick, others
	}
	s := &Signatures{
		Genes:   append([]string(nil), rows...),
		DrugIDs: make([]string, len(drugs)),
		Vectors: make([][]float32, len(drugs)),
		Columns: make([]string, len(drugs)),
		By:      make([]Method, len(drugs)),
	}
	rep := Report{Drugs: len(drugs), Missing: []MissingDrug{}}
	read := map[int][]float32{} // a column matched by several drugs is read once
	for i, d := range drugs {
		s.DrugIDs[i] = d.ID
		col, by := -1, None
		var tried, amb []string
		if info != nil && d.PubChemCID > 0 {
			for _, n := range info.Names[d.PubChemCID] {
				tried = append(tried, "cid:"+n)
				if j, a := lookup(n); j >= 0 {
					col, by, amb = j, ByCID, a
					break
				}
			}
		}
		if name := strings.TrimSpace(d.Name); col < 0 && name != "" {
			tried = append(tried, "name:"+name)
			if j, a := lookup(name); j >= 0 {
				col, by, amb = j, ByName, a
			} else if parent := ParentName(name); parent != "" {
				tried = append(tried, "parent:"+parent)
				if j, a := lookup(parent); j >= 0 {
					col, by, amb = j, ByParentName, a
					rep.Parents = append(rep.Parents, ParentMatch{ID: d.ID, Name: d.Name, Parent: parent, Signature: cols[j]})
				}
			}
		}
		if col < 0 {
			rep.Missing = append(rep.Missing, MissingDrug{Index: i, ID: d.ID, Name: d.Name, PubChemCID: d.PubChemCID, Tried: tried})
			continue
		}
		v, ok := read[col]
		if !ok {
			var err error
			if v, err = column(col); err != nil {
				return nil, Report{}, err
			}
			read[col] = v
		} else {
			v = append([]float32(nil), v...)
		}
		s.Columns[i], s.By[i], s.Vectors[i] = cols[col], by, v
		rep.Matched++
		switch by {
		case ByCID:
			rep.ByCID++
		case ByName:
			rep.ByName++
		case ByParentName:
			rep.ByParentName++
		}
		finite := false
		for _, x := range v {
			finite = finite || x == x
		}
		if !finite {
			rep.AllNaN++
			rep.AllNaNDrugs = append(rep.AllNaNDrugs, d.ID)
		}
		if len(amb) > 0 {
			rep.Ambiguous = append(rep.Ambiguous, AmbiguousMatch{ID: d.ID, Signature: cols[col], Others: amb})
		}
	}
	return s, rep, nil
}

// Report summarizes a matching: how many drugs have a signature and which
// have none.
type Report struct {
	Drugs   int `json:"drugs"`
	Matched int `json:"matched"`
	ByCID   int `json:"by_pubchem_cid"`
	ByName  int `json:"by_name"`
	// ByParentName counts the drugs matched by the parent name of a salt
	// form; Parents lists them.
	ByParentName int           `json:"by_parent_name"`
	Parents      []ParentMatch `json:"parents,omitempty"`
	// AllNaN counts matched drugs whose signature has no finite value.
	AllNaN int `json:"all_nan"`
	// AllNaNDrugs lists the IDs of those drugs.
	AllNaNDrugs []string `json:"all_nan_drugs,omitempty"`
	// Missing lists the drugs without a signature, in drug order (never nil,
	// so that JSON shows an empty list).
	Missing []MissingDrug `json:"missing"`
	// Ambiguous lists matched drugs whose key equalled several column ids
	// up to case.
	Ambiguous []AmbiguousMatch `json:"ambiguous,omitempty"`
}

// MissingDrug is a drug without a signature.
type MissingDrug struct {
	Index      int      `json:"index"` // into the drugs given to MatchDrugs
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	PubChemCID int64    `json:"pubchem_cid,omitempty"`
	Tried      []string `json:"tried"`
}

// ParentMatch is a drug matched by the parent name of its salt form.
type ParentMatch struct {
	ID        string `json:"id"`
	Name      string `json:"name"`      // the drug's name ("Lapatinib ditosylate")
	Parent    string `json:"parent"`    // the name looked up ("Lapatinib")
	Signature string `json:"signature"` // the column id matched ("lapatinib")
}

// AmbiguousMatch is a matched drug whose key matched several columns.
type AmbiguousMatch struct {
	ID        string   `json:"id"`
	Signature string   `json:"signature"`
	Others    []string `json:"others"`
}

// Lacking returns the ids of drugs that have no signature in s, in the
// order of drugs (an empty list, not nil, when every one has one).
func (s *Signatures) Lacking(drugs []drugcomb.Drug) []string {
	out := []string{}
	for i, v := range s.For(drugs) {
		if v == nil {
			out = append(out, drugs[i].ID)
		}
	}
	return out
}

// CoveredPairs counts the pairs of sc whose two drugs both have a
// signature in s (indexed as sc.Drugs, as MatchDrugs returns them) and
// their measurements.
func (s *Signatures) CoveredPairs(sc *drugcomb.Screen) (pairs, measurements int) {
	for _, p := range sc.Pairs {
		if s.Vectors[p.A] != nil && s.Vectors[p.B] != nil {
			pairs++
			measurements += p.N
		}
	}
	return pairs, measurements
}
