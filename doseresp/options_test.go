package doseresp

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
)

// ParseOptions: ParseUnit's and ParseBaseline's values and errors, the
// columns and Lenient passed through.
func TestParseOptions(t *testing.T) {
	cols := Columns{Block: "b"}
	for _, c := range []struct {
		unit, baseline string
		lenient        bool
		wantRead       ReadOptions
		wantScore      Options
		err            string
	}{
		{"", "non", false, ReadOptions{Columns: cols, Unit: UnitAuto}, Options{Baseline: BaselineNone}, ""},
		{"viability", "part", true, ReadOptions{Columns: cols, Unit: Viability, Lenient: true}, Options{Baseline: BaselinePart}, ""},
		{"Inhibition", "all", false, ReadOptions{Columns: cols, Unit: Inhibition}, Options{Baseline: BaselineAll}, ""},
		{"percent", "non", false, ReadOptions{}, Options{}, "want inhibition or viability"},
		{"", "some", false, ReadOptions{}, Options{}, "want non, part or all"},
	} {
		r, s, err := ParseOptions(c.unit, c.baseline, cols, c.lenient)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseOptions(%q, %q): error %v, want %q", c.unit, c.baseline, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(r, c.wantRead) || !reflect.DeepEqual(s, c.wantScore) {
			t.Errorf("ParseOptions(%q, %q, %v) = %+v, %+v, %v; want %+v, %+v", c.unit, c.baseline, c.lenient, r, s, err, c.wantRead, c.wantScore)
		}
	}
}

// ScoreFile is Read and ScoreAll on a file; ImportFile builds the screen
// (two blocks of one pair and line: one pair of 2 measurements) named by
// the file; Save puts it in dir and the blocks in dir/blocks.
func TestImportFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "plates.csv")
	if err := os.WriteFile(in, []byte(header+plate("1", "0", "10", "20", "50")+plate("2", "0", "30", "20", "60")), 0o644); err != nil {
		t.Fatal(err)
	}
	scored, rep, err := ScoreFile(in, ReadOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	blocks, rep2, err := Read("plates.csv", strings.NewReader(header+plate("1", "0", "10", "20", "50")+plate("2", "0", "30", "20", "60")), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := ScoreAll(blocks, Options{}, rep2)
	if len(scored) != 2 || rep.Blocks != rep2.Blocks || !reflect.DeepEqual(scored[1].Result.Surface("bliss").Wells, want[1].Result.Surface("bliss").Wells) {
		t.Fatalf("ScoreFile: %d blocks (%d kept), Bliss %v; Read+ScoreAll: %d kept, Bliss %v", len(scored), rep.Blocks, scored[1].Result.Surface("bliss").Wells, rep2.Blocks, want[1].Result.Surface("bliss").Wells)
	}
	if _, _, err := ScoreFile(filepath.Join(dir, "none.csv"), ReadOptions{}, Options{}); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
	im, err := ImportFile(in, "", "zip", ReadOptions{}, Options{}, drugcomb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if im.Screen.Name != "plates" || len(im.Screen.Pairs) != 1 || im.Screen.Pairs[0].N != 2 || im.Report.Measurements != 2 || im.BlocksReport.Blocks != 2 {
		t.Errorf("ImportFile: screen %q, %d pairs; report %+v", im.Screen.Name, len(im.Screen.Pairs), im.Report)
	}
	if im, err := ImportFile(in, "", "dss", ReadOptions{}, Options{}, drugcomb.Options{}); !errors.Is(err, ErrScore) || im == nil || im.Report != nil {
		t.Errorf("unknown score: %v, %+v", err, im)
	}
	out := filepath.Join(dir, "screen")
	if err := im.Save(out); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{drugcomb.MetaFile, drugcomb.ReportFile, filepath.Join(BlocksDir, BlocksCSV), filepath.Join(BlocksDir, ReportFile)} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("Save: %v", err)
		}
	}
}
