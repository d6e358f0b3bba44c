package lincs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/drugcomb"
)

// smallScreen has three drugs of testdata/small.gctx's pert_iname column
// (vorinostat, gefitinib) and one without a signature, in two pairs: one
// covered (2 measurements), one not.
func smallScreen() *drugcomb.Screen {
	return &drugcomb.Screen{
		Name:       "t",
		ScoreNames: []string{"s"},
		CellLines:  []string{"L"},
		Drugs:      []drugcomb.Drug{{ID: "1", Name: "vorinostat"}, {ID: "2", Name: "gefitinib"}, {ID: "3", Name: "aspirin"}},
		Pairs: []drugcomb.Pair{
			{A: 0, B: 1, N: 2, Mean: []float64{1}, Var: []float64{0}},
			{A: 0, B: 2, N: 1, Mean: []float64{1}, Var: []float64{0}},
		},
	}
}

// MatchScreen gives the same signatures and summary on the matrix read
// whole and on the GCTX file read column by column: 2 of 3 drugs by name,
// the small file's 3 genes and 2 signatures, 1 of 2 pairs covered with 2
// of 3 measurements.
func TestMatchScreen(t *testing.T) {
	path := filepath.Join("testdata", "small.gctx")
	m, err := ReadMatrixFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sigsM, sumM, err := MatchScreen(path, m, nil, smallScreen())
	if err != nil {
		t.Fatal(err)
	}
	sigsG, sumG, err := MatchScreen(path, nil, nil, smallScreen())
	if err != nil {
		t.Fatal(err)
	}
	// %v: the vectors hold a NaN, which DeepEqual never equals.
	if fmt.Sprintf("%v", sigsM) != fmt.Sprintf("%v", sigsG) || !reflect.DeepEqual(sumM, sumG) {
		t.Errorf("whole matrix: %+v %+v\nGCTX columns: %+v %+v", sigsM, sumM, sigsG, sumG)
	}
	s := sumM
	if s.Matched != 2 || s.ByName != 2 || s.Genes != 3 || s.Signatures != 2 || s.Pairs != 2 || s.PairsCovered != 1 || s.Measurements != 3 || s.MeasurementsCovered != 2 || s.GCT != path {
		t.Errorf("summary %+v", s)
	}
}

// Write: the JSON keys of the command (one line), and the text's lines.
func TestSummaryWrite(t *testing.T) {
	s := Summary{Report: Report{Drugs: 3, Matched: 2, ByName: 2, Missing: []MissingDrug{{ID: "3", Name: "aspirin", Tried: []string{"name aspirin"}}}},
		GCT: "dir/x.gct", Genes: 3, Signatures: 2, Pairs: 2, PairsCovered: 1, Measurements: 3, MeasurementsCovered: 2, Files: []string{"d/signatures.parquet"}}
	var b bytes.Buffer
	if err := s.Write(&b, true); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || strings.Count(b.String(), "\n") != 1 {
		t.Fatalf("JSON %q: %v", b.String(), err)
	}
	for k, want := range map[string]any{"matched": 2.0, "gct": "dir/x.gct", "pairs_covered": 1.0, "measurements_covered": 2.0} {
		if back[k] != want {
			t.Errorf("JSON %s = %v, want %v", k, back[k], want)
		}
	}
	b.Reset()
	if err := s.Write(&b, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"2 of 3 drugs have a signature (0 by PubChem CID, 2 by name, 0 by the parent name of a salt) in x.gct (3 genes x 2 signatures)\n",
		"pairs with both drugs covered: 1 of 2 (2 of 3 measurements)\n",
		"1 drugs without a signature:\n",
		"wrote d/signatures.parquet\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestInvalidExamples(t *testing.T) {
	p := &PertInfo{Invalid: []InvalidCID{{1, "0", "a"}, {5, "MLS1", "b"}, {9, "x", "c"}}}
	for _, c := range []struct {
		n    int
		want string
	}{
		{1, `line 1 "0" (a)`},
		{2, `line 1 "0" (a), line 5 "MLS1" (b)`},
		{5, `line 1 "0" (a), line 5 "MLS1" (b), line 9 "x" (c)`},
	} {
		if got := p.InvalidExamples(c.n); got != c.want {
			t.Errorf("InvalidExamples(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// WriteMatrixFile writes what WriteIPC and WriteParquet write, by the
// extension, and refuses other names (CheckMatrixFile).
func TestWriteMatrixFile(t *testing.T) {
	m, err := ReadMatrixFile(filepath.Join("testdata", "small.gctx"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"m.arrow", func(b *bytes.Buffer) error { return WriteIPC(b, m, memory.DefaultAllocator) }},
		{"m.FEATHER", func(b *bytes.Buffer) error { return WriteIPC(b, m, memory.DefaultAllocator) }},
		{"m.parquet", func(b *bytes.Buffer) error { return WriteParquet(b, m, memory.DefaultAllocator) }},
		{"m.csv", nil},
		{"m.gct", nil},
	} {
		path := filepath.Join(dir, c.name)
		err := WriteMatrixFile(path, m)
		if c.write == nil {
			if err != ErrMatrixFile || CheckMatrixFile(path) != ErrMatrixFile {
				t.Errorf("%s: %v, want ErrMatrixFile", c.name, err)
			}
			continue
		}
		var want bytes.Buffer
		if err := c.write(&want); err != nil {
			t.Fatal(err)
		}
		got, rerr := os.ReadFile(path)
		if err != nil || rerr != nil || !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: %v %v; %d bytes, want %d", c.name, err, rerr, len(got), want.Len())
		}
	}
}

func TestIsGCTX(t *testing.T) {
	for path, want := range map[string]bool{"a.gctx": true, "A.GCTX": true, "a.gct": false, "a.gctx.gz": false, "gctx": false} {
		if got := IsGCTX(path); got != want {
			t.Errorf("IsGCTX(%q) = %v, want %v", path, got, want)
		}
	}
}
