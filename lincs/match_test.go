package lincs

import (
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
)

// pc3Drugs builds the 80 drugs of the ALMANAC PC-3 screen from drugs.csv
// and synergy_PC-3.csv (ID = PubChem CID as text, as the ALMANAC importer
// does), in order of first appearance, and returns the screen's
// (drug a, drug b) rows as indices.
func pc3Drugs(t *testing.T) ([]drugcomb.Drug, [][2]int) {
	t.Helper()
	read := func(rel ...string) [][]string {
		f, err := os.Open(shareddata.Path(t, rel...))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return recs[1:]
	}
	byCID := map[string]drugcomb.Drug{}
	for _, r := range read("almanac", "drugs.csv") { // name,pubchem_cid,smiles
		cid, err := strconv.ParseInt(r[1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		byCID[r[1]] = drugcomb.Drug{ID: r[1], Name: r[0], PubChemCID: cid, SMILES: r[2]}
	}
	var drugs []drugcomb.Drug
	at := map[string]int{}
	var rows [][2]int
	for _, r := range read("almanac", "synergy_PC-3.csv") { // drug_a_cid,drug_b_cid,cell_line,combo_score
		var pair [2]int
		for k, cid := range r[:2] {
			i, ok := at[cid]
			if !ok {
				d, known := byCID[cid]
				if !known {
					t.Fatalf("CID %s not in drugs.csv", cid)
				}
				i = len(drugs)
				at[cid] = i
				drugs = append(drugs, d)
			}
			pair[k] = i
		}
		rows = append(rows, pair)
	}
	return drugs, rows
}

func pertInfo(t *testing.T) *PertInfo {
	t.Helper()
	info, err := ReadPertInfoFile(shareddata.Path(t, "lincs", "pertinfo.tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// TestMatchPC3 is the acceptance check. Expected figures from an
// independent Python 3.11 script applying the same rules (CID →
// pert_iname, else name, else the name without its salt words;
// case-insensitive): 27 by CID, 14 by name (the 41 of 80 drugs of the shared
// data README, whose 420 PC-3 rows have both drugs covered) and 6 by parent
// name (cytarabine, daunorubicin, bendamustine hydrochloride, tamoxifen
// citrate, lapatinib ditosylate, sunitinib (free base)): 47 drugs, 573
// rows. 5 of the 47 columns (sirolimus, everolimus, vorinostat, dasatinib and
// one of the six) are all NaN in the consensus file, leaving 427 rows with
// two finite signatures.
func TestMatchPC3(t *testing.T) {
	drugs, rows := pc3Drugs(t)
	if len(drugs) != 80 || len(rows) != 1474 {
		t.Fatalf("%d drugs, %d rows; want 80, 1474", len(drugs), len(rows))
	}
	sigs, rep := MatchDrugs(consensus(t), pertInfo(t), drugs)
	if rep.Drugs != 80 || rep.Matched != 47 || rep.ByCID != 27 || rep.ByName != 14 || rep.ByParentName != 6 || len(rep.Parents) != 6 || rep.AllNaN != 5 || len(rep.Missing) != 33 {
		t.Errorf("report: %d drugs, %d matched (%d by CID, %d by name, %d by parent name), %d all-NaN, %d missing; want 80, 47 (27, 14, 6), 5, 33",
			rep.Drugs, rep.Matched, rep.ByCID, rep.ByName, rep.ByParentName, rep.AllNaN, len(rep.Missing))
	}
	if err := sigs.Validate(); err != nil {
		t.Fatal(err)
	}
	if sigs.Covered() != 47 || len(sigs.Genes) != 960 {
		t.Errorf("covered %d, %d genes", sigs.Covered(), len(sigs.Genes))
	}
	both, bothFinite := 0, 0
	finite := func(v []float32) bool {
		for _, x := range v {
			if x == x {
				return true
			}
		}
		return false
	}
	for _, p := range rows {
		a, b := sigs.Vectors[p[0]], sigs.Vectors[p[1]]
		if a != nil && b != nil {
			both++
			if finite(a) && finite(b) {
				bothFinite++
			}
		}
	}
	if both != 573 || bothFinite != 427 {
		t.Errorf("%d rows with both drugs covered (%d finite), want 573 (427)", both, bothFinite)
	}
	for _, tc := range []struct {
		name, signature string
		by              Method
	}{
		{"Gefitinib", "gefitinib", ByCID},
		{"Imatinib mesylate", "imatinib", ByCID}, // only the CID finds it
		{"Fulvestrant", "fulvestrant", ByName},   // no CID in pertinfo
		{"Pemetrexed Disodium ", "", None},       // trailing space in drugs.csv; not in the GCT
		{"2-Fluoro Ara-A", "", None},             // CID → fludarabine, which the GCT lacks
		{"Daunorubicin hydrochloride", "daunorubicin", ByParentName},
		{"Lapatinib ditosylate", "lapatinib", ByParentName},
		{"Tamoxifen citrate", "tamoxifen", ByParentName},
		{"Sunitinib (free base)", "sunitinib", ByParentName},
		{"Vincristine sulfate", "", None}, // the GCT has no vincristine
		{"Megestrol acetate", "", None},   // an ester, not a salt: never stripped
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := -1
			for k, d := range drugs {
				if d.Name == tc.name {
					i = k
				}
			}
			if i < 0 {
				t.Fatalf("no drug %q", tc.name)
			}
			if sigs.Columns[i] != tc.signature || sigs.By[i] != tc.by {
				t.Errorf("matched %q by %q, want %q by %q", sigs.Columns[i], sigs.By[i], tc.signature, tc.by)
			}
		})
	}
	var miss []string
	for _, m := range rep.Missing {
		if m.Name == "2-Fluoro Ara-A" {
			miss = m.Tried
		}
	}
	if strings.Join(miss, ",") != "cid:fludarabine,name:2-Fluoro Ara-A" {
		t.Errorf("tried %q", miss)
	}
}

func TestMatchDrugsRules(t *testing.T) {
	m := &Matrix{Version: "1.2", Rows: []string{"g1", "g2"}, Cols: []string{"curcumin", "Curcumin", "Aspirin", "x"},
		RowMeta: []Field{{"Description", []string{"", ""}}},
		Values:  []float32{1, 2, 3, nan32, 5, 6, 7, nan32}}
	info := &PertInfo{Names: map[int64][]string{10: {"nothing", "ASPIRIN"}, 11: {"curcumin"}}}
	drugs := []drugcomb.Drug{
		{ID: "a", Name: "acetylsalicylic acid", PubChemCID: 10}, // second pert_iname, case-insensitive
		{ID: "b", Name: "  CURCUMIN "},                          // by name: two columns up to case, none exact → first
		{ID: "c", Name: "Curcumin"},                             // exact case wins
		{ID: "d", Name: "curcumin", PubChemCID: 11},             // CID first
		{ID: "e", Name: "X", PubChemCID: 99},                    // unknown CID, name matches
		{ID: "f", Name: ""},                                     // nothing to try
	}
	sigs, rep := MatchDrugs(m, info, drugs)
	want := []struct {
		col string
		by  Method
		vec []float32
	}{
		{"Aspirin", ByCID, []float32{3, 7}},
		{"curcumin", ByName, []float32{1, 5}},
		{"Curcumin", ByName, []float32{2, 6}},
		{"curcumin", ByCID, []float32{1, 5}},
		{"x", ByName, []float32{nan32, nan32}},
		{"", None, nil},
	}
	for i, w := range want {
		if sigs.Columns[i] != w.col || sigs.By[i] != w.by || len(sigs.Vectors[i]) != len(w.vec) {
			t.Errorf("drug %s: %q by %q (%v), want %q by %q", drugs[i].ID, sigs.Columns[i], sigs.By[i], sigs.Vectors[i], w.col, w.by)
			continue
		}
		for k := range w.vec {
			if g := sigs.Vectors[i][k]; g != w.vec[k] && !(g != g && w.vec[k] != w.vec[k]) {
				t.Errorf("drug %s value %d = %v, want %v", drugs[i].ID, k, g, w.vec[k])
			}
		}
	}
	if rep.Matched != 5 || rep.ByCID != 2 || rep.ByName != 3 || rep.AllNaN != 1 || len(rep.Missing) != 1 || len(rep.Ambiguous) != 3 {
		t.Errorf("report %+v", rep)
	}
	m.Values[0] = 100 // the vectors are copies
	if sigs.Vectors[1][0] != 1 {
		t.Error("vector shares memory with the matrix")
	}
}

func TestReadPertInfo(t *testing.T) {
	info := pertInfo(t)
	// dhimmel/lincs pertinfo: 51,385 rows; awk counts 20,360 non-empty
	// pubchem_cid fields, 29 of them "-666", four "0" (lines 9138, 21862,
	// 22446, 44146) and one "MLS003116075" (line 13614).
	if info.Rows != 51385 || info.NoCID != 51385-20360+29 || len(info.Invalid) != 5 || info.Invalid[1].Value != "MLS003116075" || info.Invalid[1].Line != 13614 {
		t.Errorf("rows %d, no CID %d, invalid %v", info.Rows, info.NoCID, info.Invalid)
	}
	if got := info.Names[123631]; len(got) != 1 || got[0] != "gefitinib" {
		t.Errorf("CID 123631 → %q, want [gefitinib]", got)
	}
	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct{ name, in string }{
			{"comma separated", "pert_id,pert_iname,pubchem_cid\nx,y,1\n"},
			{"ragged", "pert_iname\tpubchem_cid\naspirin\t2244\textra\n"},
			{"empty", ""},
		} {
			_, err := ReadPertInfo(strings.NewReader(tc.in), "p.tsv")
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "p.tsv" || pe.Line < 1 {
				t.Errorf("%s: err = %v, want a *ParseError with file and line", tc.name, err)
			}
		}
	})
}

func TestSignaturesRoundTrip(t *testing.T) {
	drugs, _ := pc3Drugs(t)
	sigs, _ := MatchDrugs(consensus(t), pertInfo(t), drugs)
	dir := t.TempDir()
	t.Run("write", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		if err := writeSignatures(dir, sigs, mem); err != nil {
			t.Fatal(err)
		}
	})
	check := func(t *testing.T, got *Signatures) {
		t.Helper()
		if !equalStrings(got.Genes, sigs.Genes) || !equalStrings(got.DrugIDs, sigs.DrugIDs) || !equalStrings(got.Columns, sigs.Columns) {
			t.Fatal("ids differ")
		}
		for i := range sigs.Vectors {
			a, b := sigs.Vectors[i], got.Vectors[i]
			if (a == nil) != (b == nil) || len(a) != len(b) || sigs.By[i] != got.By[i] {
				t.Fatalf("drug %d: %v/%q vs %v/%q", i, a == nil, sigs.By[i], b == nil, got.By[i])
			}
			for k := range a {
				if a[k] != b[k] && !(a[k] != a[k] && b[k] != b[k]) {
					t.Fatalf("drug %d value %d: %v != %v", i, k, a[k], b[k])
				}
			}
		}
	}
	for _, name := range []string{"parquet", "arrow"} {
		t.Run(name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			d := dir
			if name == "arrow" {
				d = t.TempDir()
				data, err := os.ReadFile(filepath.Join(dir, SignaturesArrow))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, SignaturesArrow), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := loadSignatures(d, mem)
			if err != nil {
				t.Fatal(err)
			}
			check(t, got)
		})
	}
	t.Run("For aligns by drug id", func(t *testing.T) {
		rev := []drugcomb.Drug{{ID: "nope"}, drugs[1], drugs[0]}
		v := sigs.For(rev)
		if v[0] != nil || len(v[1]) != len(sigs.Vectors[1]) || len(v[2]) != len(sigs.Vectors[0]) {
			t.Error("misaligned")
		}
	})
	t.Run("Features zero-fill", func(t *testing.T) {
		x, has := sigs.Features(drugs)
		n, hasN := 0, 0
		for i := range drugs {
			if len(x[i]) != 960 {
				t.Fatalf("row %d has %d values", i, len(x[i]))
			}
			for _, v := range x[i] {
				if v != v {
					t.Fatalf("NaN in row %d", i)
				}
			}
			if sigs.Vectors[i] != nil {
				n++
			}
			if has[i] {
				hasN++
			}
		}
		// 47 matched, 5 of them all NaN (TestMatchPC3).
		if n != 47 || hasN != 42 {
			t.Errorf("%d with a vector, %d with a finite one; want 47, 42", n, hasN)
		}
	})
	t.Run("no signatures", func(t *testing.T) {
		if _, err := LoadSignatures(t.TempDir()); !errors.Is(err, ErrNoSignatures) {
			t.Errorf("err = %v, want ErrNoSignatures", err)
		}
	})
	t.Run("corrupt file", func(t *testing.T) {
		d := t.TempDir()
		os.WriteFile(filepath.Join(d, SignaturesParquet), []byte("PAR1 not really"), 0o644)
		if _, err := LoadSignatures(d); err == nil || !strings.Contains(err.Error(), SignaturesParquet) {
			t.Errorf("err = %v, want one naming the file", err)
		}
	})
}

// The salt words are those of FDA/USAN salt names; esters that read like
// salts (acetate, phosphate, succinate) are kept.
func TestParentName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"Daunorubicin hydrochloride", "Daunorubicin"},
		{"Lapatinib ditosylate", "Lapatinib"},
		{"Tamoxifen citrate", "Tamoxifen"},
		{"Sunitinib (free base)", "Sunitinib"},
		{"sunitinib malate", "sunitinib"},
		{"Imatinib Mesylate", "Imatinib"},
		{"Pemetrexed Disodium ", "Pemetrexed"},
		{"pemetrexed disodium heptahydrate", "pemetrexed"},
		{"Gemcitabine HCl", "Gemcitabine"},
		{"Vinorelbine tartrate", "Vinorelbine"},
		{"Dasatinib (anhydrous)", "Dasatinib"},
		{"erlotinib-hydrochloride", "erlotinib"},
		{"Megestrol acetate", ""},        // ester
		{"Fludarabine phosphate", ""},    // ester prodrug
		{"Hydrocortisone succinate", ""}, // ester
		{"Zoledronic acid", ""},
		{"Gefitinib", ""},
		{"Sodium", ""}, // nothing would remain
		{"Mitomycin (C)", ""},
		{"", ""},
	} {
		if got := ParentName(tc.name); got != tc.want {
			t.Errorf("ParentName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
