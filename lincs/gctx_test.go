package lincs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
)

// The fixtures are written by testdata/make_gctx.py with h5py 3.7.0 / HDF5
// 1.10.8: the same 3 x 2 matrix chunked with gzip and contiguous.
func TestReadGCTX(t *testing.T) {
	want := &Matrix{
		Version: "1.3",
		Rows:    []string{"5720", "23", "7849"},
		Cols:    []string{"sigA", "sigB"},
		RowMeta: []Field{{"pr_gene_symbol", []string{"AARS", "ABCF1", "ABL1"}}},
		ColMeta: []Field{{"pert_dose", []string{"10", "0.5"}}, {"pert_iname", []string{"vorinostat", "gefitinib"}}},
		Values:  []float32{0.25, nan32, -1, 100, 3.5e-3, float32(negZero())},
	}
	for _, name := range []string{"small.gctx", "contiguous.gctx"} {
		t.Run(name, func(t *testing.T) {
			m, err := ReadMatrixFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			sameMatrix(t, m, want)
		})
	}
}

func negZero() float64 { z := 0.0; return -z }

func TestReadGCTXErrors(t *testing.T) {
	dir := t.TempDir()
	small, err := os.ReadFile(filepath.Join("testdata", "small.gctx"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing file", filepath.Join(dir, "nope.gctx"), "no such file"},
		{"not HDF5", write("text.gctx", []byte("#1.2\n1\t1\n")), "gctx"},
		{"truncated", write("trunc.gctx", small[:len(small)/3]), "gctx"},
		{"ids and matrix disagree", filepath.Join("testdata", "mismatch.gctx"), "9 values for 3 rows x 2 columns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadGCTXFile(tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), filepath.Base(tc.path)) {
				t.Errorf("err = %v, want one naming the file and containing %q", err, tc.want)
			}
		})
	}
}

// A GCTX of LINCS level 5 names its columns by signature id and carries the
// perturbagen name as the column metadata pert_iname: MatchDrugs uses it.
func TestMatchGCTXOnPertIname(t *testing.T) {
	m, err := ReadGCTXFile(filepath.Join("testdata", "small.gctx"))
	if err != nil {
		t.Fatal(err)
	}
	drugs := []drugcomb.Drug{{ID: "1", Name: "Gefitinib"}, {ID: "2", Name: "aspirin"}, {ID: "3", Name: "x", PubChemCID: 5311}}
	info := &PertInfo{Names: map[int64][]string{5311: {"vorinostat"}}}
	sigs, rep := MatchDrugs(m, info, drugs)
	if sigs.Columns[0] != "sigB" || sigs.By[0] != ByName || sigs.Vectors[1] != nil || sigs.Columns[2] != "sigA" || sigs.By[2] != ByCID {
		t.Errorf("columns %q by %q", sigs.Columns, sigs.By)
	}
	// Column sigB in row order: NaN, 100, -0.
	if v := sigs.Vectors[0]; len(v) != 3 || v[0] == v[0] || v[1] != 100 || v[2] != 0 {
		t.Errorf("gefitinib vector %v", v)
	}
	if rep.Matched != 2 {
		t.Errorf("report %+v", rep)
	}
	// Matching on the ids instead finds nothing.
	if _, rep := MatchDrugsOn(m, "", info, drugs); rep.Matched != 0 {
		t.Errorf("on ids: %+v", rep)
	}
}

// MatchGCTXFile reads only the matched columns and gives what MatchDrugs
// gives on the fully read matrix.
func TestMatchGCTXFile(t *testing.T) {
	drugs := []drugcomb.Drug{{ID: "1", Name: "Gefitinib"}, {ID: "2", Name: "aspirin"}, {ID: "3", Name: "x", PubChemCID: 5311}, {ID: "4", Name: "gefitinib"}}
	info := &PertInfo{Names: map[int64][]string{5311: {"vorinostat"}}}
	for _, name := range []string{"small.gctx", "contiguous.gctx"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			m, err := ReadGCTXFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, wantRep := MatchDrugs(m, info, drugs)
			got, rep, n, err := MatchGCTXFile(path, info, drugs)
			if err != nil {
				t.Fatal(err)
			}
			if n != 2 || rep.Matched != wantRep.Matched || rep.ByCID != wantRep.ByCID || len(rep.Missing) != len(wantRep.Missing) {
				t.Errorf("%d signatures, report %+v, want %+v", n, rep, wantRep)
			}
			if !equalStrings(got.Columns, want.Columns) || !equalStrings(got.Genes, want.Genes) {
				t.Fatalf("columns %q, want %q", got.Columns, want.Columns)
			}
			for i := range want.Vectors {
				a, b := want.Vectors[i], got.Vectors[i]
				if len(a) != len(b) {
					t.Fatalf("drug %d: %v vs %v", i, a, b)
				}
				for k := range a {
					if a[k] != b[k] && !(a[k] != a[k] && b[k] != b[k]) {
						t.Fatalf("drug %d value %d: %v vs %v", i, k, a[k], b[k])
					}
				}
			}
			got.Vectors[0][1] = 7 // drugs 1 and 4 share a column but not memory
			if got.Vectors[3][1] == 7 {
				t.Error("vectors share memory")
			}
		})
	}
	if _, _, _, err := MatchGCTXFile(filepath.Join("testdata", "nope.gctx"), info, drugs); err == nil {
		t.Error("no error for a missing file")
	}
}

// chunked.gctx (gzip chunks of 7 x 11 across a 50 x 30 stored matrix) and
// its GCT 1.3 twin chunked.gct were written from the same numpy array by
// make_gctx.py: the GCTX reader, whole or column by column, must agree
// with the GCT reader.
func TestGCTXAgainstGCTTwin(t *testing.T) {
	want, err := ReadGCTFile(filepath.Join("testdata", "chunked.gct"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadGCTXFile(filepath.Join("testdata", "chunked.gctx"))
	if err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, got, want)

	// drug0..drug9 name two columns each (sig0 and sig40, ...): the first
	// is taken and the other reported.
	var drugs []drugcomb.Drug
	for k := 0; k < 45; k += 3 {
		drugs = append(drugs, drugcomb.Drug{ID: fmt.Sprint(k), Name: fmt.Sprintf("DRUG%d", k)})
	}
	wantSigs, wantRep := MatchDrugs(want, nil, drugs)
	sigs, rep, n, err := MatchGCTXFile(filepath.Join("testdata", "chunked.gctx"), nil, drugs)
	if err != nil {
		t.Fatal(err)
	}
	if n != 50 || rep.Matched != 14 || wantRep.Matched != 14 || len(rep.Ambiguous) != 4 {
		t.Errorf("%d signatures, %d matched (want 14, full read %d), %d ambiguous (want 4: drug0, 3, 6, 9)", n, rep.Matched, wantRep.Matched, len(rep.Ambiguous))
	}
	for i := range drugs {
		a, b := wantSigs.Vectors[i], sigs.Vectors[i]
		if len(a) != len(b) || wantSigs.Columns[i] != sigs.Columns[i] {
			t.Fatalf("drug %s: %q vs %q", drugs[i].Name, wantSigs.Columns[i], sigs.Columns[i])
		}
		for k := range a {
			if a[k] != b[k] && !(a[k] != a[k] && b[k] != b[k]) {
				t.Fatalf("drug %s value %d: %v vs %v", drugs[i].Name, k, a[k], b[k])
			}
		}
	}
}
