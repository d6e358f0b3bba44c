package drugcomb

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"
)

// testScreen covers every on-disk case: missing scores (NaN means), single
// replicates (NaN variances), per-score counts, an unknown CID, a missing
// SMILES, two cell lines and truth columns.
func testScreen(truth bool) *Screen {
	nan := math.NaN()
	s := &Screen{
		Name:       "test",
		ScoreNames: []string{"css_ri", "synergy_zip"},
		CellLines:  []string{"PC-3", "MCF7"},
		Drugs: []Drug{
			{ID: "5-FU", Name: "Fluorouracil", PubChemCID: 3385, SMILES: "C1=C(C(=O)NC(=O)N1)F"},
			{ID: "x", Name: "x"},
			{ID: "cis", Name: "Cisplatin ünïcode", PubChemCID: 5702198, SMILES: ""},
		},
		Pairs: []Pair{
			{A: 0, B: 1, CellLine: 0, N: 1, Mean: []float64{1.5, -2}, Var: []float64{nan, nan}},
			{A: 0, B: 2, CellLine: 1, N: 3, Mean: []float64{0.25, nan}, Var: []float64{4, nan}, Count: []int{3, 0}},
			{A: 1, B: 2, CellLine: 1, N: 2, Mean: []float64{-1e300, 7}, Var: []float64{0, 1e-300}},
		},
	}
	if truth {
		s.Truth = &Truth{Mean: []float64{1, 2, 3}, NoiseVar: []float64{0.5, 0.25, 4}}
	}
	return s
}

func TestSaveOpenRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		truth bool
		form  Form
	}{
		{"arrow", false, FormArrow},
		{"parquet", false, FormParquet},
		{"arrow-truth", true, FormArrow},
		{"parquet-truth", true, FormParquet},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			dir := filepath.Join(t.TempDir(), "screen")
			want := testScreen(tc.truth)
			if err := saveWith(dir, want, nil, mem); err != nil {
				t.Fatal(err)
			}
			got, err := openWith(dir, tc.form, mem)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Errorf("round trip changed the screen:\n got %+v\nwant %+v", got, want)
			}
			// Saving again over an existing screen directory works.
			want.Name = "renamed"
			if err := saveWith(dir, want, nil, mem); err != nil {
				t.Fatal(err)
			}
			got, err = openWith(dir, tc.form, mem)
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != "renamed" {
				t.Errorf("name after second save = %q", got.Name)
			}
		})
	}
}

func TestSaveRefusesForeignDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Save(dir, testScreen(false)); err == nil {
		t.Fatal("Save wrote into a non-empty directory that is not a screen")
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(s *Screen)
	}{
		{"A not below B", func(s *Screen) { s.Pairs[0].A, s.Pairs[0].B = 1, 0 }},
		{"self pair", func(s *Screen) { s.Pairs[0].B = 0 }},
		{"duplicate pair", func(s *Screen) { s.Pairs[2] = s.Pairs[1] }},
		{"duplicate drug", func(s *Screen) { s.Drugs[1].ID = "5-FU" }},
		{"empty id", func(s *Screen) { s.Drugs[1].ID = "" }},
		{"reserved score name", func(s *Screen) { s.ScoreNames[0] = "n" }},
		{"score named like another's variance", func(s *Screen) { s.ScoreNames = []string{"zip_var", "zip"} }},
		{"score named like another's count", func(s *Screen) { s.ScoreNames = []string{"zip", "zip_n"} }},
		{"n zero", func(s *Screen) { s.Pairs[0].N = 0 }},
		{"short means", func(s *Screen) { s.Pairs[0].Mean = s.Pairs[0].Mean[:1] }},
		{"truth misaligned", func(s *Screen) { s.Truth = &Truth{Mean: []float64{1}, NoiseVar: []float64{1}} }},
		{"cell out of range", func(s *Screen) { s.Pairs[0].CellLine = 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := testScreen(false)
			tc.edit(s)
			if err := s.Validate(); err == nil {
				t.Error("Validate accepted a broken screen")
			}
		})
	}
	if err := testScreen(true).Validate(); err != nil {
		t.Errorf("Validate rejected a good screen: %v", err)
	}
}

// TestParquetRootRequired: the Parquet files have a REQUIRED root, as
// pyarrow writes them. arrow-go's default (REPEATED) made an independent
// reader, parquet-go v0.24.0, fail on every column ("decoding repetition
// levels of data page v1: unexpected EOF"); with REQUIRED it reads all rows.
func TestParquetRootRequired(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	if err := Save(dir, testScreen(true)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{DrugsParquetFile, PairsParquetFile} {
		pf, err := file.OpenParquetFile(filepath.Join(dir, f), false)
		if err != nil {
			t.Fatal(err)
		}
		if got := pf.MetaData().Schema.Root().RepetitionType(); got != parquet.Repetitions.Required {
			t.Errorf("%s: root repetition %v, want required", f, got)
		}
		pf.Close()
	}
}
