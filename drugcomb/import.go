package drugcomb

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Columns maps the roles of an input table to its column names. Names match
// exactly, or else case-insensitively after trimming spaces.
type Columns struct {
	DrugA, DrugB string   // required
	CellLine     string   // "" means every row is on Options.CellLineName
	Scores       []string // one or more; each becomes a score column of the screen under the same name
	SMILESA      string   // optional: SMILES of drug A
	SMILESB      string   // optional: SMILES of drug B
	// OptionalScores are used when present and skipped when absent (the
	// DrugComb importer's css_ri, synergy_zip, ...). At least one of
	// Scores and OptionalScores must be present.
	OptionalScores []string
}

// Options configures an import. The zero value (plus Columns) imports a
// table strictly: unparsable numbers and rows of the wrong width are errors.
type Options struct {
	Columns
	Format        string           // recorded in the report ("almanac", "drugcomb", "table")
	Name          string           // screen name; "" means the input's base name without extension
	Delimiter     rune             // text tables: 0 sniffs it from the header line
	CellLineName  string           // cell line of every row when Columns.CellLine is ""; "" means "unknown"
	Catalogue     *Catalogue       // optional: names, PubChem CIDs and SMILES of drugs
	RequireKnown  bool             // drop rows whose drugs are not in Catalogue (reason "unknown drug")
	RequireSMILES bool             // drop rows with a drug that has no SMILES (reason "missing SMILES")
	Lenient       bool             // count bad rows (unparsable score, wrong width, bad quoting) instead of failing
	SingleDrug    bool             // an empty drug B marks a single-drug row (DrugComb), not a missing drug
	Allocator     memory.Allocator // for Arrow and Parquet inputs; nil means memory.DefaultAllocator
	// CheckSMILES, if set, is asked about the SMILES of every drug a kept
	// row would bring into the screen (once per drug). A drug whose SMILES
	// it refuses is left out of the screen with every row that names it
	// (reason "unusable SMILES"), and listed, with the error, in
	// Report.UnusableStructures: what the screen keeps is what a model
	// can use. Commands pass the check that training applies.
	CheckSMILES func(smiles string) error
	// Progress, if set, is called with the number of rows read so far,
	// every ProgressEvery rows.
	Progress func(rows int)
}

// ProgressEvery is how many rows pass between calls of Options.Progress.
const ProgressEvery = 1 << 16

// ErrNoPairs is returned (with the report) when an import keeps no pair.
var ErrNoPairs = errors.New("drugcomb: no usable rows: the screen would be empty")

// ErrNoRows is returned (with the report) when the pairs tables hold no
// row at all (a header alone, or an empty file).
var ErrNoRows = errors.New("drugcomb: the pairs file is empty: it has a header but no rows")

// ImportTable reads the table in path (CSV/TSV/any delimited text, plain or
// gzip-compressed, Parquet, or Arrow IPC) with opt's column map. It returns
// the screen and the data report. On a bad input file the error is a
// *ParseError naming file, line and column; with ErrNoPairs the report is
// still returned.
func ImportTable(path string, opt Options) (*Screen, *Report, error) {
	return ImportTables([]string{path}, opt)
}

// ImportTables imports several tables with the same column map (and the
// same score columns) into one screen, for example one file per cell line.
// A pair measured in two files is one pair with replicates from both.
func ImportTables(paths []string, opt Options) (*Screen, *Report, error) {
	if len(paths) == 0 {
		return nil, nil, errors.New("drugcomb: import: no input")
	}
	im := newImporter(opt)
	for _, p := range paths {
		src, err := openTable(p, opt.Delimiter, opt.allocator())
		if err != nil {
			return nil, nil, fmt.Errorf("drugcomb: import: %w", err)
		}
		err = im.add(p, src)
		src.close()
		if err != nil {
			return nil, nil, err
		}
	}
	return im.finish(opt.Name)
}

// ReadTable is ImportTable on a reader; name is used in messages and for
// the delimiter's extension fallback.
func ReadTable(name string, r io.Reader, opt Options) (*Screen, *Report, error) {
	src, err := newTableSource(name, r, opt.Delimiter, opt.allocator())
	if err != nil {
		return nil, nil, fmt.Errorf("drugcomb: import: %w", err)
	}
	defer src.close()
	im := newImporter(opt)
	if err := im.add(name, src); err != nil {
		return nil, nil, err
	}
	return im.finish(opt.Name)
}

func (o *Options) allocator() memory.Allocator {
	if o.Allocator == nil {
		return memory.DefaultAllocator
	}
	return o.Allocator
}

// findColumn returns the index of name in hdr: exact match first, then a
// unique case-insensitive match; -1 if absent.
func findColumn(hdr []string, name string) (int, error) {
	idx := -1
	for i, h := range hdr {
		if h == name {
			if idx >= 0 {
				return -1, fmt.Errorf("column %q appears twice in the header", name)
			}
			idx = i
		}
	}
	if idx >= 0 {
		return idx, nil
	}
	want := strings.ToLower(strings.TrimSpace(name))
	for i, h := range hdr {
		if strings.ToLower(h) == want {
			if idx >= 0 {
				return -1, fmt.Errorf("column %q matches two header columns ignoring case", name)
			}
			idx = i
		}
	}
	return idx, nil
}

func missingColumnError(src rowSource, hdr []string, name, role string) error {
	shown := hdr
	if len(shown) > 12 {
		shown = append(append([]string(nil), shown[:12]...), "...")
	}
	err := fmt.Errorf("%w %q (%s); the header has %d column(s): %s", ErrMissingColumn, name, role, len(hdr), strings.Join(shown, ", "))
	if len(hdr) == 1 && strings.ContainsAny(hdr[0], ",;\t|") {
		err = fmt.Errorf("%w; one column only: is the delimiter right?", err)
	}
	return src.perr(-1, err)
}

// importer is the common importer: every format maps onto Columns, and
// several files add to one builder and one report.
type importer struct {
	opt     Options
	rep     *Report
	b       *Builder          // nil until the first file sets the score columns
	keyOf   map[string]string // lower-case drug value -> drug ID (first spelling)
	usedCat map[int]bool      // catalogue entries in kept rows
	matched map[string]bool   // drug values matched by a fallback rule, noted once
	first   string            // the first file
	checked map[string]error  // drug ID -> CheckSMILES's verdict on its SMILES
}

func newImporter(opt Options) *importer {
	im := &importer{opt: opt, rep: &Report{Format: opt.Format, Inputs: []string{}}, keyOf: map[string]string{}, usedCat: map[int]bool{}, matched: map[string]bool{}, checked: map[string]error{}}
	if opt.Catalogue != nil {
		for _, t := range opt.Catalogue.Notes {
			c := *t
			im.rep.Notes = append(im.rep.Notes, &c)
		}
	}
	return im
}

// add reads the rows of one table.
func (im *importer) add(file string, src rowSource) error {
	opt, rep := im.opt, im.rep
	rep.Inputs = append(rep.Inputs, file)
	hdr := src.header()
	col := func(name, role string, required bool) (int, error) {
		if name == "" {
			return -1, nil
		}
		i, err := findColumn(hdr, name)
		if err != nil {
			return -1, src.perr(-1, err)
		}
		if i < 0 && required {
			return -1, missingColumnError(src, hdr, name, role)
		}
		return i, nil
	}
	if opt.DrugA == "" || opt.DrugB == "" {
		return errors.New("drugcomb: import: the drug A and drug B columns must be named")
	}
	ia, err := col(opt.DrugA, "drug A", true)
	if err != nil {
		return fmt.Errorf("drugcomb: import: %w", err)
	}
	ib, err := col(opt.DrugB, "drug B", true)
	if err != nil {
		return fmt.Errorf("drugcomb: import: %w", err)
	}
	ic, err := col(opt.CellLine, "cell line", true)
	if err != nil {
		return fmt.Errorf("drugcomb: import: %w", err)
	}
	isa, err := col(opt.SMILESA, "SMILES of drug A", true)
	if err != nil {
		return fmt.Errorf("drugcomb: import: %w", err)
	}
	isb, err := col(opt.SMILESB, "SMILES of drug B", true)
	if err != nil {
		return fmt.Errorf("drugcomb: import: %w", err)
	}
	var scoreIdx []int
	var scoreNames []string
	for _, s := range opt.Scores {
		i, err := col(s, "score", true)
		if err != nil {
			return fmt.Errorf("drugcomb: import: %w", err)
		}
		scoreIdx = append(scoreIdx, i)
		scoreNames = append(scoreNames, s)
	}
	for _, s := range opt.OptionalScores {
		i, err := col(s, "score", false)
		if err != nil {
			return fmt.Errorf("drugcomb: import: %w", err)
		}
		if i < 0 {
			rep.note("score column absent", file+":1", s)
			continue
		}
		scoreIdx = append(scoreIdx, i)
		scoreNames = append(scoreNames, s)
	}
	if len(scoreIdx) == 0 {
		return fmt.Errorf("drugcomb: import: %w", missingColumnError(src, hdr, strings.Join(append(append([]string(nil), opt.Scores...), opt.OptionalScores...), " or "), "score"))
	}
	for i := range scoreNames { // a score column keeps the header's spelling of its name
		scoreNames[i] = hdr[scoreIdx[i]]
	}
	for i, n := range scoreNames {
		if !utf8.ValidString(n) {
			return fmt.Errorf("drugcomb: import: %w", src.perr(scoreIdx[i], fmt.Errorf("%w in a column name", ErrUTF8)))
		}
	}
	if im.b == nil {
		tmp := &Screen{ScoreNames: scoreNames}
		if err := tmp.Validate(); err != nil && !strings.Contains(err.Error(), "no score") {
			return fmt.Errorf("drugcomb: import: %s: score columns: %w", file, err)
		}
		im.b, im.first = NewBuilder(scoreNames...), file
		rep.ScoreColumns = scoreNames
	} else if !strings.EqualFold(strings.Join(scoreNames, "\x00"), strings.Join(rep.ScoreColumns, "\x00")) {
		return fmt.Errorf("drugcomb: import: %s: score columns %s differ from those of %s (%s)", file, strings.Join(scoreNames, ", "), im.first, strings.Join(rep.ScoreColumns, ", "))
	}
	b, keyOf, usedCat := im.b, im.keyOf, im.usedCat
	cellName := opt.CellLineName
	if cellName == "" {
		cellName = "unknown"
	}
	scores := make([]float64, len(scoreIdx))

	for {
		ok, err := src.next()
		if !ok && err == nil {
			break
		}
		if err != nil {
			var re *rowError
			if errors.As(err, &re) && opt.Lenient {
				rep.RowsRead++
				rep.drop(re.reason, src.loc(), re.err.Err.Error())
				continue
			}
			if errors.As(err, &re) {
				return fmt.Errorf("drugcomb: import: %w", re.err)
			}
			return fmt.Errorf("drugcomb: import: %w", err)
		}
		rep.RowsRead++
		if opt.Progress != nil && rep.RowsRead%ProgressEvery == 0 {
			opt.Progress(rep.RowsRead)
		}
		if bad, err := invalidText(src, ia, ib, ic, isa, isb); err != nil {
			return fmt.Errorf("drugcomb: import: %w", err)
		} else if bad != nil {
			if !opt.Lenient {
				return fmt.Errorf("drugcomb: import: %w", bad)
			}
			rep.drop(ReasonBadText, src.loc(), bad.Err.Error())
			continue
		}
		get := func(j int) (string, error) {
			if j < 0 {
				return "", nil
			}
			v, err := src.field(j)
			return strings.TrimSpace(v), err
		}
		va, err := get(ia)
		if err != nil {
			return fmt.Errorf("drugcomb: import: %w", err)
		}
		vb, err := get(ib)
		if err != nil {
			return fmt.Errorf("drugcomb: import: %w", err)
		}
		if isMissing(va) {
			rep.drop(ReasonMissingDrug, src.loc(), "drug A empty")
			continue
		}
		if isMissing(vb) {
			if opt.SingleDrug {
				rep.drop(ReasonSingleDrug, src.loc(), va+" alone")
			} else {
				rep.drop(ReasonMissingDrug, src.loc(), "drug B empty")
			}
			continue
		}
		cell := cellName
		if ic >= 0 {
			if cell, err = get(ic); err != nil {
				return fmt.Errorf("drugcomb: import: %w", err)
			}
			if isMissing(cell) {
				rep.drop(ReasonMissingCellLine, src.loc(), "")
				continue
			}
		}
		var drugs [2]Drug
		var catIdx [2]int
		known := true
		for k, v := range []string{va, vb} {
			d, ci, rule := resolveDrug(v, opt.Catalogue, keyOf)
			if ci >= 0 && rule != MatchCID && rule != MatchExact && !im.matched[v] {
				im.matched[v] = true
				rep.note("drug matched in the catalogue by "+rule, opt.Catalogue.File, v+" → "+d.Name)
			}
			if ci < 0 && opt.RequireKnown {
				rep.drop(ReasonUnknownDrug, src.loc(), v)
				known = false
				break
			}
			drugs[k], catIdx[k] = d, ci
		}
		if !known {
			continue
		}
		for k, j := range []int{isa, isb} {
			smi, err := get(j)
			if err != nil {
				return fmt.Errorf("drugcomb: import: %w", err)
			}
			if isMissing(smi) {
				continue
			}
			known := drugs[k].SMILES
			if prev, ok := b.DrugByID(drugs[k].ID); ok && prev.SMILES != "" {
				known = prev.SMILES
			}
			switch {
			case known == "":
				drugs[k].SMILES = smi
			case known != smi:
				rep.note("conflicting SMILES (first kept)", src.loc(), drugs[k].ID+": "+smi)
			}
		}
		if opt.RequireSMILES {
			missing := ""
			for _, d := range drugs {
				if prev, ok := b.DrugByID(d.ID); (!ok || prev.SMILES == "") && d.SMILES == "" {
					missing = d.ID
					break
				}
			}
			if missing != "" {
				rep.drop(ReasonMissingSMILES, src.loc(), missing)
				continue
			}
		}
		if drugs[0].ID == drugs[1].ID {
			rep.drop(ReasonSelfPair, src.loc(), drugs[0].ID)
			continue
		}
		if d, err := im.checkStructures(drugs); err != nil {
			rep.drop(ReasonBadSMILES, src.loc(), fmt.Sprintf("drug %s: %v", d, err))
			continue
		}
		var bad *ParseError
		badReason := ""
		present := 0
		for k, j := range scoreIdx {
			v, err := get(j)
			if err != nil {
				return fmt.Errorf("drugcomb: import: %w", err)
			}
			x, err := parseScore(v)
			if err != nil {
				bad = src.perr(j, err)
				badReason = ReasonBadScore
				if errors.Is(err, ErrInfinite) {
					badReason = ReasonInfiniteScore
				}
				break
			}
			scores[k] = x
			if !math.IsNaN(x) {
				present++
			}
		}
		if bad != nil {
			if !opt.Lenient {
				return fmt.Errorf("drugcomb: import: %w", bad)
			}
			rep.drop(badReason, src.loc(), bad.Err.Error())
			continue
		}
		if present == 0 {
			rep.drop(ReasonMissingScore, src.loc(), "")
			continue
		}
		if present < len(scores) {
			rep.note("some scores missing (row kept)", src.loc(), "")
		}
		a := b.Drug(drugs[0])
		bb := b.Drug(drugs[1])
		c := b.CellLine(cell)
		if err := b.Measure(a, bb, c, scores); err != nil {
			return fmt.Errorf("drugcomb: import: %s: %w", src.loc(), err)
		}
		usedCat[catIdx[0]], usedCat[catIdx[1]] = true, true
	}
	return nil
}

// inputs are the pairs tables read (the report's inputs but the catalogue).
func (im *importer) inputs() []string {
	var in []string
	for _, f := range im.rep.Inputs {
		if im.opt.Catalogue == nil || f != im.opt.Catalogue.File {
			in = append(in, f)
		}
	}
	return in
}

// checkStructures applies Options.CheckSMILES to the SMILES each drug of
// a row would carry in the screen (the first one seen is kept); it returns
// the first drug refused, named, and why.
func (im *importer) checkStructures(drugs [2]Drug) (string, error) {
	if im.opt.CheckSMILES == nil {
		return "", nil
	}
	for _, d := range drugs {
		smi := d.SMILES
		if im.b != nil {
			if prev, ok := im.b.DrugByID(d.ID); ok && prev.SMILES != "" {
				smi = prev.SMILES
			}
		}
		if smi == "" {
			continue
		}
		err, seen := im.checked[d.ID]
		if !seen {
			err = im.opt.CheckSMILES(smi)
			im.checked[d.ID] = err
			if err != nil {
				im.rep.UnusableStructures = append(im.rep.UnusableStructures, StructureError{ID: d.ID, Name: d.Name, SMILES: smi, Error: err.Error()})
			}
		}
		if err != nil {
			return d.Label(), err
		}
	}
	return "", nil
}

// finish returns the screen and the report. name "" means the first
// input's base name without extension.
func (im *importer) finish(name string) (*Screen, *Report, error) {
	rep, opt := im.rep, im.opt
	if opt.Catalogue != nil {
		rep.Inputs = append(rep.Inputs, opt.Catalogue.File)
	}
	if name == "" {
		base := filepath.Base(im.first)
		for _, ext := range []string{".gz", ".csv", ".tsv", ".tab", ".txt", ".parquet", ".pq", ".arrow", ".feather", ".ipc", ".arrows"} {
			base = strings.TrimSuffix(base, ext)
		}
		name = strings.ToValidUTF8(base, "_")
	}
	b := im.b
	if b == nil {
		b = NewBuilder()
	}
	s := b.Screen(name)
	var catErr error
	if cat := opt.Catalogue; cat != nil {
		used := 0
		for i, d := range cat.Drugs {
			if !im.usedCat[i] {
				rep.note("catalogue drug in no kept pair", cat.File, d.Name)
			} else {
				used++
			}
		}
		if used == 0 {
			catErr = fmt.Errorf("%w: %s: none of its %d drugs is a drug of the pairs (read by %s; the catalogue's columns: %s)",
				ErrCatalogue, cat.File, len(cat.Drugs), cat.keyColumns(), strings.Join(cat.Header, ", "))
		}
		withSMILES := 0
		for _, d := range s.Drugs {
			if d.SMILES != "" {
				withSMILES++
			}
		}
		if withSMILES == 0 && catErr == nil {
			catErr = fmt.Errorf("%w: %s: no drug of the screen has a SMILES (SMILES column: %s; the catalogue's columns: %s; recognised SMILES columns: %s)",
				ErrCatalogue, cat.File, orNone(cat.SMILESColumn), strings.Join(cat.Header, ", "), strings.Join(catSMILESCols, ", "))
		}
	}
	for _, d := range s.Drugs {
		if d.SMILES == "" {
			rep.note("drug without SMILES", d.ID, "")
		}
	}
	rep.finish(s)
	if rep.RowsRead == 0 {
		return nil, rep, fmt.Errorf("%w (%s)", ErrNoRows, strings.Join(im.inputs(), ", "))
	}
	if catErr != nil {
		return nil, rep, catErr
	}
	if len(s.Pairs) == 0 {
		return nil, rep, ErrNoPairs
	}
	return s, rep, nil
}

// invalidText returns a ParseError for the first of the text columns
// (drugs, cell line, SMILES; -1 for absent ones) of the current row that is
// not valid UTF-8; err is a failure to read a field at all.
func invalidText(src rowSource, cols ...int) (bad *ParseError, err error) {
	for _, j := range cols {
		if j < 0 {
			continue
		}
		v, err := src.field(j)
		if err != nil {
			return nil, err
		}
		if !utf8.ValidString(v) {
			return src.perr(j, fmt.Errorf("%w (is the file in another encoding, such as Latin-1? convert it to UTF-8)", ErrUTF8)), nil
		}
	}
	return nil, nil
}

// resolveDrug maps a drug field to a Drug: the catalogue entry when the
// value is a PubChem CID or a name the catalogue knows (by the rule of
// Catalogue.Match, which rule says), otherwise a drug whose ID is the value (its first spelling: values equal
// ignoring case are one drug) and whose CID is unknown. ci is the catalogue index, or -1.
func resolveDrug(v string, cat *Catalogue, keyOf map[string]string) (d Drug, ci int, rule string) {
	if cat != nil {
		if e, i, rule := cat.lookup(v); i >= 0 {
			return e, i, rule
		}
	}
	low := strings.ToLower(v)
	id, ok := keyOf[low]
	if !ok {
		id = v
		keyOf[low] = v
	}
	// The value is an id of the user's; it is not taken for a PubChem CID
	// even when it is a number (NSC numbers are numbers too).
	return Drug{ID: id, Name: id}, -1, ""
}

// parseCID parses a PubChem CID: a positive integer, possibly written as a
// float with a zero fraction ("2187.0", as pandas writes integer columns
// with nulls).
func parseCID(v string) (int64, bool) {
	v = strings.TrimSpace(v)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n, n > 0
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 && f < 1<<53 && f == math.Trunc(f) {
		return int64(f), true
	}
	return 0, false
}

// AlmanacColumns is the column map of NCI-ALMANAC pair tables keyed by
// PubChem CID (drug_a_cid, drug_b_cid, cell_line, combo_score), as in
// the HypergraphSynergy/DrugComb distribution of ALMANAC.
func AlmanacColumns() Columns {
	return Columns{DrugA: "drug_a_cid", DrugB: "drug_b_cid", CellLine: "cell_line", Scores: []string{"combo_score"}}
}

// DrugCombScores are the score columns of the DrugComb summary table; the
// importer keeps those present. They are the names in DrugComb's own file
// (summary_v_1_5.csv); the scores deup computes from plates are
// doseresp's score table (doseresp.Synergies).
func DrugCombScores() []string {
	return []string{"css_ri", "synergy_zip", "synergy_loewe", "synergy_hsa", "synergy_bliss"}
}

// DrugCombColumns is the column map of the DrugComb summary CSV
// (drugcomb.fimm.fi, summary_v_1_5.csv): drugs by name in drug_row and
// drug_col (drug_col empty on single-drug rows), cell_line_name, and the
// scores of DrugCombScores.
func DrugCombColumns() Columns {
	return Columns{DrugA: "drug_row", DrugB: "drug_col", CellLine: "cell_line_name", OptionalScores: DrugCombScores()}
}

// ImportAlmanac imports an ALMANAC pairs table (AlmanacColumns) with its
// drug catalogue (name, pubchem_cid, smiles). Rows whose drugs are not in
// the catalogue are dropped as "unknown drug".
func ImportAlmanac(pairsPath, drugsPath string) (*Screen, *Report, error) {
	cat, err := ReadCatalogueFile(drugsPath)
	if err != nil {
		return nil, nil, err
	}
	return ImportTable(pairsPath, Options{Columns: AlmanacColumns(), Format: "almanac", Catalogue: cat, RequireKnown: true})
}

// ImportDrugComb imports a DrugComb summary table. cat may be nil; when
// given, it supplies SMILES and CIDs by drug name.
func ImportDrugComb(path string, cat *Catalogue) (*Screen, *Report, error) {
	return ImportTable(path, Options{Columns: DrugCombColumns(), Format: "drugcomb", Catalogue: cat, SingleDrug: true})
}
