package drugcomb

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

// TestImportAlmanacPC3 checks the figures of the shared data's README: 1,474
// rows, 80 drugs, one cell line; 34 pairs measured twice (once in each drug
// order), hence 1,440 unordered pairs.
func TestImportAlmanacPC3(t *testing.T) {
	s, rep, err := ImportAlmanac(shareddata.Path(t, "almanac", "synergy_PC-3.csv"), shareddata.Path(t, "almanac", "drugs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"rows read", rep.RowsRead, 1474},
		{"measurements", s.Measurements(), 1474},
		{"pairs", len(s.Pairs), 1440},
		{"replicated pairs", rep.ReplicatedPairs, 34},
		{"drugs", len(s.Drugs), 80},
		{"cell lines", len(s.CellLines), 1},
		{"dropped", rep.DroppedRows(), 0},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	for _, d := range s.Drugs {
		if d.SMILES == "" || d.PubChemCID == 0 {
			t.Errorf("drug %+v lacks SMILES or CID", d)
		}
	}
}

// writeFile writes content to name in a fresh temporary directory.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func tableOpts() Options {
	return Options{Columns: Columns{DrugA: "a", DrugB: "b", CellLine: "cell", Scores: []string{"score"}}, Format: "table"}
}

func TestImportReplicates(t *testing.T) {
	// (x,y) and (y,x) on c1 are one pair measured twice: mean 2, sample
	// variance ((1-2)^2 + (3-2)^2)/(2-1) = 2. (x,y) on c2 is another pair.
	p := writeFile(t, "r.csv", "a,b,cell,score\nx,y,c1,1\ny,x,c1,3\nx,y,c2,5\nX,z,c1,7\n")
	s, rep, err := ImportTable(p, tableOpts())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Pairs) != 3 || s.Measurements() != 4 || len(s.Drugs) != 3 || rep.ReplicatedPairs != 1 {
		t.Fatalf("pairs %d, measurements %d, drugs %d, replicated %d; want 3, 4, 3, 1", len(s.Pairs), s.Measurements(), len(s.Drugs), rep.ReplicatedPairs)
	}
	p0 := s.Pairs[0]
	if p0.N != 2 || p0.Mean[0] != 2 || p0.Var[0] != 2 {
		t.Errorf("replicated pair: n %d mean %g var %g; want 2, 2, 2", p0.N, p0.Mean[0], p0.Var[0])
	}
	if !math.IsNaN(s.Pairs[1].Var[0]) {
		t.Errorf("single measurement has variance %g, want NaN", s.Pairs[1].Var[0])
	}
	// "X" is the drug "x" (names are matched ignoring case; first spelling kept).
	if s.Drugs[0].ID != "x" || s.DrugIndex("X") != -1 {
		t.Errorf("drug ids %v", s.Drugs)
	}
}

func TestImportAlmanacReplicateValues(t *testing.T) {
	s, _, err := ImportAlmanac(shareddata.Path(t, "almanac", "synergy_PC-3.csv"), shareddata.Path(t, "almanac", "drugs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// CIDs 2187 and 5311 are measured in both orders with scores -146 and
	// -26: mean -86, sample variance 7200 (Python statistics.mean/variance).
	a, b := s.DrugIndex("2187"), s.DrugIndex("5311")
	if a < 0 || b < 0 {
		t.Fatal("drugs 2187/5311 not found")
	}
	if a > b {
		a, b = b, a
	}
	for _, p := range s.Pairs {
		if p.A == a && p.B == b {
			if p.N != 2 || p.Mean[0] != -86 || p.Var[0] != 7200 {
				t.Errorf("pair (2187, 5311): n %d mean %g var %g; want 2, -86, 7200", p.N, p.Mean[0], p.Var[0])
			}
			return
		}
	}
	t.Error("pair (2187, 5311) not found")
}

func TestImportReasons(t *testing.T) {
	cat := "name,pubchem_cid,smiles\nAlpha,1,CCO\nBeta,2,c1ccccc1\nGamma,3,\n"
	pairs := "a,b,cell,score\n" +
		"1,2,P,10\n" + // line 2: kept
		"2,1,P,NA\n" + // line 3: missing score
		",2,P,1\n" + // line 4: missing drug
		"1,1,P,4\n" + // line 5: self-pair
		"1,99,P,4\n" + // line 6: unknown drug
		"1,2,,4\n" + // line 7: missing cell line
		"1,3,P,4\n" + // line 8: missing SMILES (Gamma has none)
		"2,1,P,12\n" // line 9: kept, replicate of line 2
	catP := writeFile(t, "drugs.csv", cat)
	pairsP := writeFile(t, "pairs.csv", pairs)
	c, err := ReadCatalogueFile(catP)
	if err != nil {
		t.Fatal(err)
	}
	opt := tableOpts()
	opt.Catalogue, opt.RequireKnown, opt.RequireSMILES = c, true, true
	s, rep, err := ImportTable(pairsP, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		ReasonMissingScore:    ":3",
		ReasonMissingDrug:     ":4",
		ReasonSelfPair:        ":5",
		ReasonUnknownDrug:     ":6",
		ReasonMissingCellLine: ":7",
		ReasonMissingSMILES:   ":8",
	}
	got := map[string]string{}
	for _, tl := range rep.Dropped {
		if tl.Count != 1 || len(tl.Examples) != 1 {
			t.Errorf("%s: count %d, %d examples; want 1, 1", tl.Reason, tl.Count, len(tl.Examples))
			continue
		}
		got[tl.Reason] = strings.TrimPrefix(tl.Examples[0].Where, pairsP)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dropped rows by reason:\n got %v\nwant %v", got, want)
	}
	if rep.RowsRead != 8 || rep.Measurements != 2 || rep.RowsRead != rep.Measurements+rep.DroppedRows() {
		t.Errorf("rows read %d, used %d, dropped %d; want 8, 2, 6", rep.RowsRead, rep.Measurements, rep.DroppedRows())
	}
	if len(s.Pairs) != 1 || s.Pairs[0].N != 2 || s.Pairs[0].Mean[0] != 11 {
		t.Errorf("pairs %+v", s.Pairs)
	}
	if d := s.Drugs[0]; d.ID != "1" || d.Name != "Alpha" || d.PubChemCID != 1 || d.SMILES != "CCO" {
		t.Errorf("drug 0 = %+v", d)
	}
}

func TestImportErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, content string
		opt                 func(*Options)
		want                []string // substrings of the error
	}{
		{"missing column", "m.csv", "a,b,cell,value\nx,y,c,1\n", nil,
			[]string{"m.csv:1:", `missing column "score"`, "a, b, cell, value"}},
		{"wrong delimiter", "d.csv", "a;b;cell;score\nx;y;c;1\n", func(o *Options) { o.Delimiter = ',' },
			[]string{"d.csv:1:", "missing column", "is the delimiter right?"}},
		{"truncated line", "t.csv", "a,b,cell,score\nx,y,c,1\nx,y", nil,
			[]string{"t.csv:3:", "wrong number of fields: 2 fields, the header has 4"}},
		{"non-numeric score", "n.csv", "a,b,cell,score\nx,y,c,1\nx,z,c,abc\n", nil,
			[]string{"n.csv:3:7:", `column "score"`, `not a number: "abc"`}},
		{"infinite score", "i.csv", "a,b,cell,score\nx,y,c,1e999\n", nil,
			[]string{"i.csv:2:7:", "infinite value"}},
		{"bare quote", "q.csv", "a,b,cell,score\nx,y\"y,c,1\n", nil,
			[]string{"q.csv:2:", "bare \""}},
		{"unterminated quote", "u.csv", "a,b,cell,score\nx,\"y,c,1\n", nil,
			[]string{"u.csv:2:", "extraneous or missing \""}},
		{"empty file", "e.csv", "", nil, []string{"e.csv:1: empty file"}},
		{"no usable row", "z.csv", "a,b,cell,score\nx,x,c,1\n", nil, []string{"no usable rows"}},
		{"excel", "x.xlsx", "PK\x03\x04rest", nil, []string{"x.xlsx", "Excel"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := tableOpts()
			if tc.opt != nil {
				tc.opt(&opt)
			}
			_, _, err := ImportTable(writeFile(t, tc.file, tc.content), opt)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestImportLenient(t *testing.T) {
	p := writeFile(t, "l.csv", "a,b,cell,score\nx,y,c,1\nx,z,c,abc\nx,w\ny,z,c,\"2\nw,z,c,4\n")
	opt := tableOpts()
	opt.Lenient = true
	_, rep, err := ImportTable(p, opt)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, tl := range rep.Dropped {
		got[tl.Reason] = tl.Count
	}
	// Line 5 opens a quote that line 6 does not close: encoding/csv reads
	// lines 5-6 as one record ending inside the quote, which stops the
	// import in strict mode and is a malformed record here.
	want := map[string]int{ReasonBadScore: 1, ReasonFieldCount: 1}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
	if rep.RowsRead != rep.Measurements+rep.DroppedRows() {
		t.Errorf("rows read %d != used %d + dropped %d", rep.RowsRead, rep.Measurements, rep.DroppedRows())
	}
}

// TestImportDrugComb reads testdata/drugcomb_summary_small.csv: the column
// layout of DrugComb's summary_v_1_5.csv (with its \N for missing values
// and empty drug_col on single-drug rows) and made-up values. Expected, row
// by row: 1, 2, 3 kept (3 is row 1 in the other drug order), 4 single-drug,
// 5 kept with synergy_loewe missing, 6 self-pair, 7 no cell line, 8 every
// score missing.
func TestImportDrugComb(t *testing.T) {
	s, rep, err := ImportDrugComb("testdata/drugcomb_summary_small.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.ScoreNames, DrugCombScores()) {
		t.Errorf("scores %v", s.ScoreNames)
	}
	got := map[string]int{}
	for _, tl := range rep.Dropped {
		got[tl.Reason] = tl.Count
	}
	want := map[string]int{ReasonSingleDrug: 1, ReasonSelfPair: 1, ReasonMissingCellLine: 1, ReasonMissingScore: 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dropped %v, want %v", got, want)
	}
	if rep.RowsRead != 8 || s.Measurements() != 4 || len(s.Pairs) != 3 || len(s.Drugs) != 4 || len(s.CellLines) != 2 {
		t.Fatalf("rows %d, measurements %d, pairs %d, drugs %d, cell lines %d; want 8, 4, 3, 4, 2",
			rep.RowsRead, s.Measurements(), len(s.Pairs), len(s.Drugs), len(s.CellLines))
	}
	// (5-FU, ABT-888) on A2058: css_ri 22.3 and 20.8: mean 21.55, sample
	// variance 2 * 0.75^2 = 1.125.
	p := s.Pairs[0]
	if p.N != 2 || math.Abs(p.Mean[0]-21.55) > 1e-12 || math.Abs(p.Var[0]-1.125) > 1e-12 {
		t.Errorf("(5-FU, ABT-888, A2058): n %d css_ri mean %v var %v", p.N, p.Mean[0], p.Var[0])
	}
	// (Cisplatin, Topotecan) on A2780: synergy_loewe missing: NaN mean, count 0.
	var ct *Pair
	for i := range s.Pairs {
		if s.Drugs[s.Pairs[i].A].ID == "Cisplatin" {
			ct = &s.Pairs[i]
		}
	}
	if ct == nil || !math.IsNaN(ct.Mean[2]) || ct.Count == nil || ct.Count[2] != 0 || ct.Mean[0] != 49.8 {
		t.Errorf("(Cisplatin, Topotecan) = %+v", ct)
	}
}

// TestImportCatalogueIdentity: a catalogue entry found by CID in one row
// and by name in another is one drug; numbers not in a catalogue are ids,
// not PubChem CIDs.
func TestImportCatalogueIdentity(t *testing.T) {
	c, err := ReadCatalogue("cat.csv", strings.NewReader("name,pubchem_cid,smiles\nAlpha,11,CCO\nBeta,22,CCN\n"))
	if err != nil {
		t.Fatal(err)
	}
	opt := tableOpts()
	opt.Catalogue = c
	s, _, err := ReadTable("p.csv", strings.NewReader("a,b,cell,score\n11,Beta,c,1\nalpha,22,c,3\n701,702,c,5\n"), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Drugs) != 4 || len(s.Pairs) != 2 || s.Pairs[0].N != 2 {
		t.Fatalf("drugs %+v, pairs %+v", s.Drugs, s.Pairs)
	}
	if d := s.Drugs[0]; d.ID != "11" || d.Name != "Alpha" || d.PubChemCID != 11 || d.SMILES != "CCO" {
		t.Errorf("drug 0 = %+v", d)
	}
	if d := s.Drugs[2]; d.ID != "701" || d.PubChemCID != 0 {
		t.Errorf("drug 2 = %+v; a number outside the catalogue is not a CID", d)
	}
}

// TestCatalogueSpellings: the column spellings public synergy data sets use
// for the drug id, PubChem CID and SMILES are recognised, explicit columns
// override them, and a catalogue an import cannot use is an error naming
// the columns it saw.
func TestCatalogueSpellings(t *testing.T) {
	pairs := "a,b,cell,score\n11,22,c,1\n"
	for _, tc := range []struct {
		name, cat string
		cols      CatalogueColumns
		wantErr   string // "" for success
	}{
		{"pubchemid isosmiles", "name,pubchemid,isosmiles\nAlpha,11,CCO\nBeta,22,CCN\n", CatalogueColumns{}, ""},
		{"cid canonical_smiles", "cid,canonical_smiles\n11,CCO\n22,CCN\n", CatalogueColumns{}, ""},
		{"pubchem_cid isomeric_smiles", "Drug_Name,PubChem_CID,Isomeric_SMILES\nAlpha,11,CCO\nBeta,22,CCN\n", CatalogueColumns{}, ""},
		{"explicit columns", "compound_key,structure\n11,CCO\n22,CCN\n", CatalogueColumns{ID: "compound_key", SMILES: "structure"}, ""},
		{"explicit column missing", "cid,smiles\n11,CCO\n", CatalogueColumns{SMILES: "structure"}, `no SMILES column "structure"; the header has: cid, smiles`},
		{"no SMILES at all", "name,pubchemid,structure\nAlpha,11,CCO\nBeta,22,CCN\n", CatalogueColumns{}, "no drug of the screen has a SMILES (SMILES column: none found; the catalogue's columns: name, pubchemid, structure"},
		{"matches no drug", "name,smiles\nAlpha,CCO\nBeta,CCN\n", CatalogueColumns{}, "none of its 2 drugs is a drug of the pairs (read by column name; the catalogue's columns: name, smiles)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ReadCatalogueWith("cat.csv", strings.NewReader(tc.cat), tc.cols)
			if err == nil {
				opt := tableOpts()
				opt.Catalogue = c
				var s *Screen
				s, _, err = ReadTable("p.csv", strings.NewReader(pairs), opt)
				if err == nil {
					if len(s.Drugs) != 2 || s.Drugs[0].PubChemCID != 11 || s.Drugs[0].SMILES != "CCO" || s.Drugs[1].SMILES != "CCN" {
						t.Errorf("drugs %+v", s.Drugs)
					}
				}
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

// TestCatalogueNameIDWithCID: a catalogue read by an explicit id column of
// names (deup data import --drug-id-col pert_iname, as the tour reads
// LINCS's perturbagen table) keeps the names as ids and takes each drug's
// PubChem CID from the CID column beside it; LINCS's placeholders (-666,
// 0) leave a drug without a CID and are counted in the notes; two names
// sharing a CID are two drugs (issue 43: Mathews Griner's batch had an
// empty drug_a_pubchem_cid although the table gives CIDs).
func TestCatalogueNameIDWithCID(t *testing.T) {
	cat := "pert_id\tpert_iname\tpubchem_cid\tcanonical_smiles\n" +
		"BRD-1\tdoxorubicin\t443939\tCCO\n" +
		"BRD-2\tdoxorubicin\t6916127\tCCC\n" + // the same name again: a duplicate, first kept
		"BRD-3\tsai-071\t-666\tCCN\n" +
		"BRD-4\tadriamycin\t443939\tCCCC\n" // another name, the same CID: its own drug
	c, err := ReadCatalogueWith("pertinfo.tsv", strings.NewReader(cat), CatalogueColumns{ID: "pert_iname"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range c.Drugs {
		got = append(got, fmt.Sprintf("%s/%s/%d/%s", d.ID, d.Name, d.PubChemCID, d.SMILES))
	}
	if want := "[doxorubicin/doxorubicin/443939/CCO sai-071/sai-071/0/CCN adriamycin/adriamycin/443939/CCCC]"; fmt.Sprint(got) != want {
		t.Errorf("drugs %v, want %s", got, want)
	}
	var notes []string
	for _, n := range c.Notes {
		notes = append(notes, fmt.Sprintf("%s: %d", n.Reason, n.Count))
	}
	if s := strings.Join(notes, "; "); !strings.Contains(s, "catalogue CID that is not a PubChem CID (drug kept without a CID): 1") {
		t.Errorf("notes %q, want the -666 counted", s)
	}
	if d, ok := c.Lookup("Doxorubicin"); !ok || d.ID != "doxorubicin" || d.PubChemCID != 443939 {
		t.Errorf("Lookup(Doxorubicin) = %+v, %v", d, ok)
	}
}

// TestImportAlmanacPanel imports the 43-line panel and checks its per-line
// data report against the screen.
func TestImportAlmanacPanel(t *testing.T) {
	s, rep, err := ImportAlmanac(shareddata.Path(t, "almanac", "synergy_panel.csv"), shareddata.Path(t, "almanac", "drugs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.RowsRead != 56972 || s.Measurements() != 56972 || len(s.CellLines) != 43 || len(s.Drugs) != 87 {
		t.Fatalf("panel: %d rows, %d measurements, %d lines, %d drugs", rep.RowsRead, s.Measurements(), len(s.CellLines), len(s.Drugs))
	}
	if len(rep.PerLine) != 43 {
		t.Fatalf("per-line report has %d lines, want 43", len(rep.PerLine))
	}
	pairs, meas, repl := 0, 0, 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range rep.PerLine {
		pairs += l.Pairs
		meas += l.Measurements
		repl += l.ReplicatedPairs
		lo, hi = min(lo, l.ScoreSD), max(hi, l.ScoreSD)
		if l.Drugs < 2 || l.Drugs > 87 {
			t.Errorf("line %s: %d drugs", l.CellLine, l.Drugs)
		}
	}
	if pairs != rep.Pairs || meas != rep.Measurements || repl != rep.ReplicatedPairs {
		t.Errorf("per-line sums %d pairs, %d measurements, %d replicated; report %d, %d, %d", pairs, meas, repl, rep.Pairs, rep.Measurements, rep.ReplicatedPairs)
	}
	// The issue quotes a per-line ComboScore sd from 41 to 107.
	if lo < 30 || hi > 120 || hi < 2*lo {
		t.Errorf("per-line score sd in [%.1f, %.1f]", lo, hi)
	}
	// One line: no per-line section.
	_, one, err := ImportAlmanac(shareddata.Path(t, "almanac", "synergy_PC-3.csv"), shareddata.Path(t, "almanac", "drugs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if one.PerLine != nil {
		t.Errorf("one-line report has a per-line section")
	}
}
