package predict

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

func TestLines(t *testing.T) {
	panel := []string{"PC-3", "MCF7", "A549"}
	for _, c := range []struct {
		names []string
		one   string
		spec  string
		want  []int
		err   bool
	}{
		{nil, "PC-3", "", []int{0}, false},
		{nil, "PC-3", "all", []int{0}, false},
		{nil, "PC-3", "pc-3", []int{0}, false}, // its own line, ignoring case
		{nil, "PC-3", "MCF7", nil, true},
		{nil, "", "PC-3", nil, true}, // a model without metadata knows no line by name
		{panel, "", "", []int{0, 1, 2}, false},
		{panel, "", "a549, pc-3", []int{2, 0}, false}, // the order given
		{panel, "", "HeLa", nil, true},
	} {
		got, err := Lines(c.names, c.one, c.spec)
		if (err != nil) != c.err || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Lines(%v, %q, %q) = %v, %v; want %v (error %v)", c.names, c.one, c.spec, got, err, c.want, c.err)
		}
	}
}

func TestKeptDrugs(t *testing.T) {
	drugs := []drugcomb.Drug{{ID: "1", Name: "a", SMILES: "C"}, {ID: "2", Name: "b"}, {ID: "3", Name: "c", SMILES: "CC", PubChemCID: 702}}
	got := KeptDrugs(drugs, []int{0, 2})
	want := Drugs{IDs: []string{"1", "3"}, Names: []string{"a", "c"}, SMILES: []string{"C", "CC"}, CIDs: []int64{0, 702}, Row: map[string]int{"1": 0, "3": 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("KeptDrugs = %+v, want %+v", got, want)
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadPairs(t *testing.T) {
	drugs := []drugcomb.Drug{{ID: "d1", Name: "Aspirin", PubChemCID: 2244}, {ID: "d2", Name: "Caffeine"}, {ID: "d3", Name: "NoStructure"}}
	row := map[string]int{"d1": 0, "d2": 1} // d3 has no feature row
	for _, c := range []struct {
		name, text string
		want       *Pairs
		errHas     string
	}{
		{"ids, names and CIDs; extra columns kept", "well,drug_a,drug_b_id,notes\nA1,2244,caffeine,x\nA2,d2,D1,\n",
			&Pairs{Pairs: []model.PairRef{{A: 0, B: 1}, {A: 1, B: 0}}, ExtraNames: []string{"well", "notes"}, Extra: [][]string{{"A1", "x"}, {"A2", ""}}}, ""},
		{"no drug columns", "a,b\n1,2\n", nil, "need drug_a_id and drug_b_id"},
		{"unknown drug", "drug_a_id,drug_b_id\nd1,zzz\n", nil, `unknown drug "zzz": not among the drugs scored`},
		{"drug without a row", "drug_a_id,drug_b_id\nd1,d3\n", nil, "drug d3 has no usable structure or signature"},
		{"extra column named as a prediction column", "drug_a_id,drug_b_id,mu\nd1,d2,3\n", nil, `column "mu" is also a prediction column`},
		{"short row", "drug_a_id,x,drug_b_id\nd1\n", nil, ":2: 1 fields, want at least 3"},
		// Issue 40: a cell_line column scores each row on its own line
		// (any case), and is not passed through.
		{"cell_line column", "drug_a_id,cell_line,drug_b_id,well\nd1,l2,d2,A1\nd2,L1,d1,A2\n",
			&Pairs{Pairs: []model.PairRef{{A: 0, B: 1, Line: 1}, {A: 1, B: 0, Line: 0}}, ExtraNames: []string{"well"}, Extra: [][]string{{"A1"}, {"A2"}}, OwnLines: true}, ""},
		{"unknown cell line names the row", "drug_a_id,drug_b_id,cell_line\nd1,d2,L1\nd1,d2,L9\n", nil, `p.csv:3: column cell_line: unknown cell line "L9": the model knows 2 lines (L1, L2)`},
		{"empty cell line", "drug_a_id,drug_b_id,cell_line\nd1,d2,\n", nil, `p.csv:2: column cell_line: empty`},
		{"cell_line column short", "drug_a_id,drug_b_id,cell_line\nd1,d2\n", nil, `:2: 2 fields, want at least 3`},
		// Issue 43: an empty file says so, naming it.
		{"empty file", "", nil, "p.csv: the file is empty: want a header naming drug_a_id and drug_b_id"},
	} {
		got, err := ReadPairs(writeFile(t, "p.csv", c.text), row, drugs, []string{"L1", "L2"})
		if c.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), c.errHas) {
				t.Errorf("%s: error %v, want one containing %q", c.name, err, c.errHas)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
}

// fakeModel predicts mu = 10·A + B + 100·Line, sigma_total 1.
type fakeModel struct{ calls int }

func (m *fakeModel) Predict(f *model.Features, pairs []model.PairRef) ([]model.Prediction, error) {
	m.calls++
	out := make([]model.Prediction, len(pairs))
	for i, p := range pairs {
		out[i] = model.Prediction{Mu: float64(10*p.A + p.B + 100*p.Line), SigmaTotal: 1}
	}
	return out, nil
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestRun (floats as the CSV writer prints them, 7 significant digits with a
// decimal point): all pairs of three drugs (rows 0 and 2 named "b" and "a" so that
// id order differs from row order), a shard of them, on two lines; and a
// pairs file with its extra column. Expected rows worked out by hand from
// the order the package comment gives: ids sorted, a-major, line-minor.
func TestRun(t *testing.T) {
	f := &model.Features{IDs: []string{"b", "c", "a"}, RowPtr: []int{0, 0, 0, 0}}
	tab := &Table{Drugs: Drugs{IDs: f.IDs, Names: []string{"B", "C", "A"}}, Lines: []string{"L0", "L1"}, Score: "s",
		Measured: []map[drugcomb.PairKey]float64{{drugcomb.NewPairKey("c", "a"): -2.5}, nil}}
	path := filepath.Join(t.TempDir(), "out.csv")
	w, err := Create(path, tab)
	if err != nil {
		t.Fatal(err)
	}
	m := &fakeModel{}
	// Pairs in id order: (a,b)=(2,0), (a,c)=(2,1), (b,c)=(0,1); rows [1, 3).
	n, err := Run(context.Background(), m, f, Job{Lo: 1, Hi: 3, Lines: []int{1, 0}}, w, func(int) {})
	if err != nil || n != 4 {
		t.Fatalf("Run: %d rows, %v; want 4", n, err)
	}
	got := readCSV(t, path)
	var ab [][]string
	for _, r := range got[1:] {
		ab = append(ab, []string{r[0], r[1], r[2], r[4], r[6], r[10], r[11]})
	}
	want := [][]string{
		{"a", "c", "A", "L1", "121.0", "false", ""},
		{"a", "c", "A", "L0", "21.0", "true", "-2.5"},
		{"b", "c", "B", "L1", "101.0", "false", ""},
		{"b", "c", "B", "L0", "1.0", "false", ""},
	}
	if !reflect.DeepEqual(ab, want) {
		t.Fatalf("rows %v, want %v", ab, want)
	}

	pf := &Pairs{Pairs: []model.PairRef{{A: 1, B: 0}, {A: 2, B: 2}}, ExtraNames: []string{"well"}, Extra: [][]string{{"A1"}, {"B7"}}}
	tab2 := &Table{Drugs: tab.Drugs, Lines: []string{"L0"}, Extra: pf.ExtraNames}
	w, err = Create(path, tab2)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := Run(context.Background(), m, f, Job{Pairs: pf, Lo: 0, Hi: 2, Lines: []int{0}}, w, func(int) {}); err != nil || n != 2 {
		t.Fatalf("Run pairs: %d, %v", n, err)
	}
	got = readCSV(t, path)
	if h := got[0][len(got[0])-1]; h != "well" || got[1][0] != "c" || got[1][6] != "10.0" || got[1][12] != "A1" || got[2][12] != "B7" {
		t.Fatalf("pairs-file rows %v", got)
	}
	if Total(pf, 3) != 2 || Total(nil, 3) != 3 {
		t.Fatalf("Total: %d, %d", Total(pf, 3), Total(nil, 3))
	}
}

// TestRunOwnLines (issue 40): a pairs file with a cell_line column scores
// each row on its own line alone, in file order, with the line's measured
// value (mu = 10·A + B + 100·Line, fakeModel's rule); rows of shard [1, 3).
func TestRunOwnLines(t *testing.T) {
	f := &model.Features{IDs: []string{"b", "c", "a"}, RowPtr: []int{0, 0, 0, 0}}
	pf := &Pairs{Pairs: []model.PairRef{{A: 0, B: 1, Line: 0}, {A: 2, B: 1, Line: 1}, {A: 2, B: 1, Line: 0}, {A: 0, B: 2, Line: 1}},
		ExtraNames: []string{"well"}, Extra: [][]string{{"A1"}, {"A2"}, {"A3"}, {"A4"}}, OwnLines: true}
	tab := &Table{Drugs: Drugs{IDs: f.IDs, Names: []string{"B", "C", "A"}}, Lines: []string{"L0", "L1"}, Score: "s",
		Measured: []map[drugcomb.PairKey]float64{{drugcomb.NewPairKey("c", "a"): -2.5}, nil}, Extra: pf.ExtraNames}
	path := filepath.Join(t.TempDir(), "out.csv")
	w, err := Create(path, tab)
	if err != nil {
		t.Fatal(err)
	}
	job := Job{Pairs: pf, Lo: 1, Hi: 3, Lines: pf.linesOf(1, 3, 2)}
	if job.Rows() != 2 || !reflect.DeepEqual(job.Lines, []int{0, 1}) {
		t.Fatalf("job rows %d, lines %v", job.Rows(), job.Lines)
	}
	if n, err := Run(context.Background(), &fakeModel{}, f, job, w, func(int) {}); err != nil || n != 2 {
		t.Fatalf("Run: %d rows, %v; want 2", n, err)
	}
	var got [][]string
	for _, r := range readCSV(t, path)[1:] {
		got = append(got, []string{r[0], r[1], r[4], r[6], r[10], r[11], r[12]})
	}
	want := [][]string{
		{"a", "c", "L1", "121.0", "false", "", "A2"},
		{"a", "c", "L0", "21.0", "true", "-2.5", "A3"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
}

// TestRunCancelled: a cancelled context leaves no file.
func TestRunCancelled(t *testing.T) {
	f := &model.Features{IDs: []string{"a", "b"}, RowPtr: []int{0, 0, 0}}
	path := filepath.Join(t.TempDir(), "out.parquet")
	w, err := Create(path, &Table{Drugs: Drugs{IDs: f.IDs, Names: f.IDs}, Lines: []string{""}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, &fakeModel{}, f, Job{Lo: 0, Hi: 1, Lines: []int{0}}, w, func(int) {}); err == nil {
		t.Fatal("no error")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("file left behind: %v", err)
	}
}

func TestMeasured(t *testing.T) {
	sc := &drugcomb.Screen{Drugs: []drugcomb.Drug{{ID: "a"}, {ID: "b"}}, CellLines: []string{"L0", "L1"}, ScoreNames: []string{"s"},
		Pairs: []drugcomb.Pair{{A: 0, B: 1, CellLine: 1, Mean: []float64{2}}}}
	got := Measured(sc, []string{"L1", "L0", "L9"}, "s")
	want := []map[drugcomb.PairKey]float64{{{A: "a", B: "b"}: 2}, {}, {}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Measured = %v, want %v", got, want)
	}
}
