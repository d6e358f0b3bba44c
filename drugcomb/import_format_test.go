package drugcomb

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// SetFormat: the column maps of AlmanacColumns and DrugCombColumns for the
// fixed formats, cols for table, and the refusals as *FormatErrors (deup
// data import words them: testdata/script/usage_data_import.txtar).
func TestSetFormat(t *testing.T) {
	cat := &Catalogue{}
	table := Columns{DrugA: "a", DrugB: "b", Scores: []string{"s"}}
	for _, c := range []struct {
		name      string
		format    string
		cat       *Catalogue
		known     bool
		cols      Columns
		want      Columns
		wantKnown bool
		wantOne   bool // SingleDrug
		err       FormatProblem
	}{
		{"almanac", "almanac", cat, false, Columns{}, AlmanacColumns(), true, false, 0},
		{"almanac without catalogue", "almanac", nil, false, Columns{}, Columns{}, false, false, FormatNeedsCatalogue},
		{"almanac with a column", "almanac", cat, false, Columns{DrugA: "x"}, Columns{}, false, false, FormatFixedColumns},
		{"drugcomb", "drugcomb", nil, false, Columns{}, DrugCombColumns(), false, true, 0},
		{"drugcomb known-only without catalogue", "drugcomb", nil, true, Columns{}, DrugCombColumns(), true, true, FormatKnownNeedsCatalogue},
		{"drugcomb with a score", "drugcomb", nil, false, Columns{Scores: []string{"s"}}, Columns{}, false, false, FormatFixedColumns},
		{"table", "table", nil, false, table, table, false, false, 0},
		{"table without score", "table", nil, false, Columns{DrugA: "a", DrugB: "b"}, Columns{}, false, false, FormatNeedsColumns},
		{"table with one SMILES column", "table", nil, false, Columns{DrugA: "a", DrugB: "b", Scores: []string{"s"}, SMILESA: "sa"}, Columns{}, false, false, FormatOneSMILES},
		{"unknown", "xlsx", nil, false, Columns{}, Columns{}, false, false, FormatUnknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Options{Catalogue: c.cat, RequireKnown: c.known}
			err := o.SetFormat(c.format, c.cols)
			if c.err != 0 {
				var fe *FormatError
				if !errors.As(err, &fe) || fe.Problem != c.err || fe.Format != c.format || strings.Contains(err.Error(), "--") {
					t.Fatalf("error %v, want a *FormatError %d on %s naming no flag", err, c.err, c.format)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.Format != c.format || !reflect.DeepEqual(o.Columns, c.want) || o.RequireKnown != c.wantKnown || o.SingleDrug != c.wantOne {
				t.Errorf("format %q columns %+v known %v single %v; want %q %+v %v %v", o.Format, o.Columns, o.RequireKnown, o.SingleDrug, c.format, c.want, c.wantKnown, c.wantOne)
			}
		})
	}
}

// SaveReplacing: nothing kept in a new directory; over a screen, the
// report that a report-less save does not replace goes, and other files
// stay and are named.
func TestSaveReplacing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	rep := &Report{Format: "table"}
	kept, err := SaveReplacing(dir, testScreen(false), rep)
	if err != nil || kept != nil {
		t.Fatalf("new directory: kept %v, err %v", kept, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rep        *Report
		wantReport bool
	}{{rep, true}, {nil, false}} {
		kept, err := SaveReplacing(dir, testScreen(true), c.rep)
		if err != nil || !slices.Equal(kept, []string{"notes.txt"}) {
			t.Errorf("report %v: kept %v, err %v; want [notes.txt]", c.rep != nil, kept, err)
		}
		if _, err := os.Stat(filepath.Join(dir, ReportFile)); (err == nil) != c.wantReport {
			t.Errorf("report %v: report.json there: %v, want %v", c.rep != nil, err == nil, c.wantReport)
		}
	}
}

func TestListTail(t *testing.T) {
	ids := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		ids  []string
		n    int
		want string
	}{
		{nil, 10, ""},
		{ids, 10, ": a, b, c, d"},
		{ids, 4, ": a, b, c, d"},
		{ids, 2, ": a, b, ... (2 more)"},
	} {
		if got := ListTail(c.ids, c.n); got != c.want {
			t.Errorf("ListTail(%v, %d) = %q, want %q", c.ids, c.n, got, c.want)
		}
	}
}

// WriteText prints the counts Inspect computed (testScreen: 3 drugs, 3
// pairs, 2 with replicates, 6 measurements; drug x has no SMILES).
func TestInspectionWriteText(t *testing.T) {
	var b strings.Builder
	if err := Inspect(testScreen(true), func(string) error { return nil }).WriteText(&b, "dir"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"screen test (dir)\n",
		"  pairs             3 (2 with replicates)\n",
		"  measurements      6\n",
		"  ground truth      yes",
		"  drugs without SMILES      2: x, cis\n",
		"  signatures                none stored",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}

// WriteJSON writes the bytes of report.json (SaveWithReport's).
func TestReportWriteJSON(t *testing.T) {
	rep := &Report{Format: "table", Inputs: []string{"x.csv"}, RowsRead: 3}
	dir := filepath.Join(t.TempDir(), "s")
	if err := SaveWithReport(dir, testScreen(false), rep); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != string(saved) {
		t.Errorf("WriteJSON:\n%s\nreport.json:\n%s", b.String(), saved)
	}
}

// Write is WriteJSON with asJSON, WriteText without.
func TestReportWrite(t *testing.T) {
	rep := &Report{Format: "table", Inputs: []string{"x.csv"}, RowsRead: 3}
	for _, asJSON := range []bool{false, true} {
		var got, want strings.Builder
		if err := rep.Write(&got, asJSON); err != nil {
			t.Fatal(err)
		}
		write := rep.WriteText
		if asJSON {
			write = rep.WriteJSON
		}
		if err := write(&want); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() || got.Len() == 0 {
			t.Errorf("asJSON %v: got %q, want %q", asJSON, got.String(), want.String())
		}
	}
}
