package suggest

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/tabular"
)

// batch covers the awkward values: missing CIDs and SMILES, NaN numbers,
// negative and tiny numbers, quotes, commas, newlines and non-ASCII text.
func batch() []Suggestion {
	return []Suggestion{
		{
			Rank:     1,
			DrugA:    drugcomb.Drug{ID: "5702198", Name: "Cisplatin", PubChemCID: 5702198, SMILES: "N.N.Cl[Pt]Cl"},
			DrugB:    drugcomb.Drug{ID: "31703", Name: "Doxorubicin", PubChemCID: 31703, SMILES: "COc1cccc2C(=O)c3c(O)c4C[C@](O)(C[C@H](O[C@H]5C[C@H](N)[C@H](O)[C@H](C)O5)c4c(O)c3C(=O)c12)C(=O)CO"},
			CellLine: "PC-3",
			Mu:       12.5, SigmaTotal: 30.25, SigmaEpistemic: 8.125, SigmaAleatoric: 29.1, Acquisition: 20.625,
			Interval: &Interval{Lower: -40.5, Upper: 65.5},
			Reason:   "picked in the TUI",
		},
		{
			Rank:     2,
			DrugA:    drugcomb.Drug{ID: "x-1", Name: "drug, \"quoted\""},
			DrugB:    drugcomb.Drug{ID: "β2", Name: "β-lapachone", PubChemCID: 3885},
			CellLine: "MCF7",
			Mu:       -1e-300, SigmaTotal: math.NaN(), SigmaEpistemic: 0.1, SigmaAleatoric: math.NaN(), Acquisition: -3,
			Reason: "two\nlines",
		},
		{Rank: 3, DrugA: drugcomb.Drug{ID: "a"}, DrugB: drugcomb.Drug{ID: "b"}, Mu: math.NaN(), SigmaTotal: math.NaN(), SigmaEpistemic: math.NaN(), SigmaAleatoric: math.NaN(), Acquisition: math.NaN()},
	}
}

// same compares suggestions with NaN equal to NaN.
func same(a, b []Suggestion) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		for k := range floats(&x) {
			fx, fy := floats(&x)[k], floats(&y)[k]
			if math.IsNaN(*fx) && math.IsNaN(*fy) {
				*fx, *fy = 0, 0
			}
		}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

func TestRoundTrip(t *testing.T) {
	for _, ext := range []string{".csv", ".parquet", ".pq", ".json", ".CSV"} {
		for _, name := range []string{"batch", "empty"} {
			t.Run(name+ext, func(t *testing.T) {
				in := batch()
				if name == "empty" {
					in = nil
				}
				path := filepath.Join(t.TempDir(), "next"+ext)
				if err := WriteFile(path, in); err != nil {
					t.Fatal(err)
				}
				got, err := ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !same(got, in) {
					t.Fatalf("read back\n%+v\nwant\n%+v", got, in)
				}
				left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp"))
				if len(left) > 0 {
					t.Fatalf("temporary files left: %v", left)
				}
			})
		}
	}
}

func TestParquetCheckedAllocator(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var buf bytes.Buffer
	if err := WriteParquet(&buf, batch(), mem); err != nil {
		t.Fatal(err)
	}
	got, err := ReadParquet(bytes.NewReader(buf.Bytes()), mem)
	if err != nil {
		t.Fatal(err)
	}
	if !same(got, batch()) {
		t.Fatalf("read back %+v", got)
	}
	rec := Record(mem, batch())
	if rec.NumRows() != 3 || int(rec.NumCols()) != len(Columns()) {
		t.Fatalf("record %d×%d", rec.NumRows(), rec.NumCols())
	}
	if !rec.Column(3).IsNull(1) || rec.Column(7).IsNull(1) {
		t.Fatal("PubChem CID 0 must be null, 3885 not")
	}
	rec.Release()
}

func TestCSVGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, batch()[:2]); err != nil {
		t.Fatal(err)
	}
	// Hand-written expectation: header in Columns() order, CID 0 and NaN as
	// empty fields, the shortest decimal that round-trips, with ".0" on a
	// whole number (-3.0) so that the column reads as floats.
	want := `rank,drug_a_id,drug_a_name,drug_a_pubchem_cid,drug_a_smiles,drug_b_id,drug_b_name,drug_b_pubchem_cid,drug_b_smiles,cell_line,mu,sigma_total,sigma_epistemic,sigma_aleatoric,lower,upper,acquisition,reason
1,5702198,Cisplatin,5702198,N.N.Cl[Pt]Cl,31703,Doxorubicin,31703,COc1cccc2C(=O)c3c(O)c4C[C@](O)(C[C@H](O[C@H]5C[C@H](N)[C@H](O)[C@H](C)O5)c4c(O)c3C(=O)c12)C(=O)CO,PC-3,12.5,30.25,8.125,29.1,-40.5,65.5,20.625,picked in the TUI
2,x-1,"drug, ""quoted""",,,β2,β-lapachone,3885,,MCF7,-1e-300,,0.1,,,,-3.0,"two
lines"
`
	if got := buf.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReadErrors(t *testing.T) {
	head := strings.Join(Columns(), ",")
	row := "1,A,a,,,B,b,,,c,1,2,3,4,,,5,r"
	for _, tc := range []struct {
		name, ext, in string
		want          string
	}{
		{"empty csv", ".csv", "", "empty file"},
		{"unknown column", ".csv", head + ",extra\n", `unknown column "extra"`},
		{"missing column", ".csv", strings.TrimSuffix(head, ",reason") + "\n", `missing column "reason"`},
		{"bad rank", ".csv", head + "\n" + row + "\nx" + row[1:] + "\n", "line 3, column rank"},
		{"bad float", ".csv", head + "\n" + strings.Replace(row, ",3,", ",three,", 1) + "\n", "line 2, column sigma_epistemic"},
		{"negative cid", ".csv", head + "\n" + strings.Replace(row, "a,,", "a,-5,", 1) + "\n", "line 2, column drug_a_pubchem_cid"},
		{"one bound", ".csv", head + "\n" + strings.Replace(row, "4,,,5", "4,1,,5", 1) + "\n", "line 2, column lower: lower \"1\" and upper \"\": want both or neither"},
		{"lower above upper", ".csv", head + "\n" + strings.Replace(row, "4,,,5", "4,2,1,5", 1) + "\n", "line 2, column lower: interval [2, 1]"},
		{"bad upper", ".csv", head + "\n" + strings.Replace(row, "4,,,5", "4,1,x,5", 1) + "\n", "line 2, column upper"},
		{"lower without upper column", ".csv", strings.Replace(head, ",upper", "", 1) + "\n", `missing column "upper"`},
		{"json one bound", ".json", `[{"rank":1,"drug_a":"","drug_a_id":"","drug_a_pubchem_cid":null,"drug_a_smiles":"","drug_b":"","drug_b_id":"","drug_b_pubchem_cid":null,"drug_b_smiles":"","cell_line":"","mu":null,"sigma_total":null,"sigma_epistemic":null,"sigma_aleatoric":null,"lower":1,"upper":null,"acquisition":null,"reason":""}]`, "lower and upper: want both or neither"},
		{"json lower above upper", ".json", `[{"rank":1,"drug_a":"","drug_a_id":"","drug_a_pubchem_cid":null,"drug_a_smiles":"","drug_b":"","drug_b_id":"","drug_b_pubchem_cid":null,"drug_b_smiles":"","cell_line":"","mu":null,"sigma_total":null,"sigma_epistemic":null,"sigma_aleatoric":null,"lower":3,"upper":1,"acquisition":null,"reason":""}]`, "interval [3, 1]"},
		{"short row", ".csv", head + "\n1,2\n", "wrong number of fields"},
		{"json not array", ".json", `{"rank":1}`, "want an array"},
		{"json missing key", ".json", `[{"rank":1}]`, `missing key "drug_a_id"`},
		{"json unknown key", ".json", `[{"rank":1,"drug_a":"","drug_a_id":"","drug_a_pubchem_cid":null,"drug_a_smiles":"","drug_b":"","drug_b_id":"","drug_b_pubchem_cid":null,"drug_b_smiles":"","cell_line":"","mu":null,"sigma_total":null,"sigma_epistemic":null,"sigma_aleatoric":null,"acquisition":null,"reason":"","x":1}]`, `unknown field "x"`},
		{"json trailing", ".json", `[] []`, "data after the array"},
		{"not parquet", ".parquet", "PAR1 nope", "parquet"},
		{"bad extension", ".txt", "", "unknown suggestions format"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in"+tc.ext)
			if err := os.WriteFile(path, []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadFile(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "x.txt")); !errors.Is(err, ErrFormat) {
		t.Fatalf("err = %v, want ErrFormat", err)
	}
}

func TestWriteErrors(t *testing.T) {
	s := batch()
	s[0].Mu = math.Inf(1)
	if err := WriteJSON(&bytes.Buffer{}, s); err == nil || !strings.Contains(err.Error(), "rank 1: mu is +Inf") {
		t.Fatalf("err = %v, want an error naming rank 1 and mu", err)
	}
	if err := WriteFile(filepath.Join(t.TempDir(), "x.xlsx"), s); !errors.Is(err, ErrFormat) {
		t.Fatalf("err = %v, want ErrFormat", err)
	}
	if err := WriteFile(filepath.Join(t.TempDir(), "no", "such", "dir.csv"), s); err == nil {
		t.Fatal("no error writing into a missing directory")
	}
	// a failed write leaves neither the file nor a temporary
	dir := t.TempDir()
	if err := WriteFile(filepath.Join(dir, "x.json"), s); err == nil {
		t.Fatal("no error")
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// FuzzCSVRoundTrip: whatever ReadCSV accepts, WriteCSV writes back to
// something ReadCSV reads as the same suggestions.
func FuzzCSVRoundTrip(f *testing.F) {
	var buf bytes.Buffer
	_ = WriteCSV(&buf, batch())
	f.Add(buf.String())
	f.Add(strings.Join(Columns(), ",") + "\n")
	f.Add("rank\n1\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ReadCSV(strings.NewReader(in))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteCSV(&out, s); err != nil {
			t.Fatal(err)
		}
		s2, err := ReadCSV(&out)
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, out.String())
		}
		if !same(s, s2) {
			t.Fatalf("round trip changed\n%+v\n%+v", s, s2)
		}
	})
}

// FuzzJSONRoundTrip is the same for JSON.
func FuzzJSONRoundTrip(f *testing.F) {
	var buf bytes.Buffer
	_ = WriteJSON(&buf, batch())
	f.Add(buf.String())
	f.Add("[]")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ReadJSON(strings.NewReader(in))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteJSON(&out, s); err != nil {
			t.Fatal(err)
		}
		s2, err := ReadJSON(&out)
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, out.String())
		}
		if !same(s, s2) {
			t.Fatalf("round trip changed\n%+v\n%+v", s, s2)
		}
	})
}

// TestReadWithoutInterval: files written before lower and upper existed
// (no such columns or keys) still read, with no interval.
func TestReadWithoutInterval(t *testing.T) {
	old := "rank,drug_a,drug_a_id,drug_a_pubchem_cid,drug_a_smiles,drug_b,drug_b_id,drug_b_pubchem_cid,drug_b_smiles,cell_line,mu,sigma_total,sigma_epistemic,sigma_aleatoric,acquisition,reason\n" +
		"1,A,a,,,B,b,,,c,1,2,3,4,5,r\n"
	s, err := ReadCSV(strings.NewReader(old))
	if err != nil || len(s) != 1 || s[0].Interval != nil || s[0].Acquisition != 5 || s[0].DrugA.Name != "A" || s[0].DrugB.ID != "b" {
		t.Fatalf("csv: %+v, %v", s, err)
	}
	oldJSON := `[{"rank":1,"drug_a":"","drug_a_id":"","drug_a_pubchem_cid":null,"drug_a_smiles":"","drug_b":"","drug_b_id":"","drug_b_pubchem_cid":null,"drug_b_smiles":"","cell_line":"","mu":1,"sigma_total":null,"sigma_epistemic":null,"sigma_aleatoric":null,"acquisition":2,"reason":""}]`
	s, err = ReadJSON(strings.NewReader(oldJSON))
	if err != nil || len(s) != 1 || s[0].Interval != nil || s[0].Mu != 1 {
		t.Fatalf("json: %+v, %v", s, err)
	}
}

// TestReadOldNames: files that named the drugs' names drug_a, drug_b
// (before docs/vocabulary.md's drug_a_name, drug_b_name) read in every
// format; a file with both spellings of one column is refused.
func TestReadOldNames(t *testing.T) {
	want := batch()
	dir := t.TempDir()
	for _, ext := range []string{".csv", ".json", ".parquet"} {
		path := filepath.Join(dir, "new"+ext)
		if err := WriteFile(path, want); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		old := filepath.Join(dir, "old"+ext)
		switch ext {
		case ".parquet": // rename the columns in the schema
			tbl, err := ReadParquet(bytes.NewReader(b), memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			rec := Record(memory.DefaultAllocator, tbl)
			fields := rec.Schema().Fields()
			for i := range fields {
				if n, ok := map[string]string{"drug_a_name": "drug_a", "drug_b_name": "drug_b"}[fields[i].Name]; ok {
					fields[i].Name = n
				}
			}
			renamed := array.NewRecord(arrow.NewSchema(fields, nil), rec.Columns(), rec.NumRows())
			var buf bytes.Buffer
			if err := tabular.Encode(&buf, tabular.Parquet, renamed, tabular.Options{Mem: memory.DefaultAllocator}); err != nil {
				t.Fatal(err)
			}
			renamed.Release()
			rec.Release()
			b = buf.Bytes()
		default:
			for _, side := range []string{"drug_a", "drug_b"} {
				b = bytes.ReplaceAll(b, []byte(side+"_name"), []byte(side))
			}
		}
		if err := os.WriteFile(old, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(old)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if !same(got, want) {
			t.Errorf("%s: old names read as\n%+v\nwant\n%+v", ext, got, want)
		}
	}
	both := "rank,drug_a,drug_a_name,drug_a_id,drug_a_pubchem_cid,drug_a_smiles,drug_b_name,drug_b_id,drug_b_pubchem_cid,drug_b_smiles,cell_line,mu,sigma_total,sigma_epistemic,sigma_aleatoric,acquisition,reason\n"
	if _, err := ReadCSV(strings.NewReader(both)); err == nil || !strings.Contains(err.Error(), `"drug_a_name" twice`) {
		t.Errorf("both spellings: err = %v", err)
	}
}

// TestUnnamedDrugs: a drug known only by its PubChem CID (its name is the
// CID as text, as a catalogue without names gives it) is written with an
// empty name in every format, its CID in the CID column (issue 43).
func TestUnnamedDrugs(t *testing.T) {
	s := []Suggestion{{Rank: 1, CellLine: "PC-3", Reason: "r",
		DrugA: drugcomb.Drug{ID: "2206", Name: "2206", PubChemCID: 2206, SMILES: "C"},
		DrugB: drugcomb.Drug{ID: "126941", Name: "Methotrexate", PubChemCID: 126941, SMILES: "CC"}}}
	for _, f := range []Format{CSV, Parquet, JSON} {
		path := filepath.Join(t.TempDir(), "b."+f.String())
		if err := WriteFile(path, s); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if a, b := got[0].DrugA, got[0].DrugB; a.Name != "" || a.PubChemCID != 2206 || a.ID != "2206" || b.Name != "Methotrexate" {
			t.Errorf("%v: read back %+v, %+v; want drug A unnamed with CID 2206", f, a, b)
		}
	}
}
