package doseresp

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/drugcomb"
)

// toyExcess is a toy reference model: δ = y_ij − (y_i0 + y_0j) on the wells
// with both doses > 0, each well where that sum passes 100 counted as a
// fallback. It exists only here: adding it to the score table is all it
// takes for it to be scored, written, drawn and imported.
func toyExcess(f *Fitted) ([][]float64, int) {
	d := make([][]float64, len(f.Response))
	n := 0
	for i, row := range f.Response {
		d[i] = make([]float64, len(row))
		for j := 1; i > 0 && j < len(row); j++ {
			sum := row[0] + f.Response[0][j]
			if sum > 100 {
				n++
			}
			d[i][j] = row[j] - sum
		}
	}
	return d, n
}

var toy = Synergy{Name: "toy", Title: "Toy", Delta: toyExcess,
	Fallback: Fallback{Column: "toy_over", Key: "toy_over_wells", Text: "toy wells over 100"}}

// A score is one row of the table plus its function: a toy row appended to
// Synergies flows through Score (its Surface and block Value), the wells
// and blocks tables (CSV and Parquet columns, its fallback count), the data
// report (JSON and text), the plots, and the screen import (the toy score as
// the screen's target, and an unknown score refused naming it as a choice).
func TestToySynergyFlowsThroughTheTable(t *testing.T) {
	opt := Options{Synergies: append(Synergies(), toy)}
	dir := t.TempDir()
	in := filepath.Join(dir, "plates.csv")
	plates := header + plate("1", "0", "10", "20", "50") + plate("2", "0", "30", "80", "60")
	if err := os.WriteFile(in, []byte(plates), 0o644); err != nil {
		t.Fatal(err)
	}
	scored, rep, err := ScoreFile(in, ReadOptions{}, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Block 1: 50 − (20 + 10) = 20; block 2: 60 − (80 + 30) = −50, over 100.
	want := []float64{20, -50}
	for k, s := range scored {
		if s.Err != nil {
			t.Fatal(s.Err)
		}
		if got := s.Result.Value("toy"); got != want[k] {
			t.Errorf("block %d: toy %v, want %v", k, got, want[k])
		}
		if got := s.Result.Surface("toy").Wells[1][1]; got != want[k] {
			t.Errorf("block %d: toy well %v, want %v", k, got, want[k])
		}
		// The built-in scores are unchanged by the extra row.
		def := ScoreAll([]*Block{s.Block}, Options{}, nil)[0].Result
		if s.Result.Value("bliss") != def.Value("bliss") || len(s.Result.Synergy) != len(def.Synergy)+1 {
			t.Errorf("block %d: bliss %v with the toy, %v without", k, s.Result.Value("bliss"), def.Value("bliss"))
		}
	}

	out := filepath.Join(dir, "out")
	if err := WriteDir(out, scored, rep); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, col string
		want      []string
	}{
		{BlocksCSV, "toy", []string{"20.0", "-50.0"}},
		{BlocksCSV, "toy_over", []string{"0", "1"}},
		{WellsCSV, "toy", []string{"0.0", "0.0", "0.0", "20.0", "0.0", "0.0", "0.0", "-50.0"}},
	} {
		recs := readRecords(t, filepath.Join(out, c.file))
		k := slices.Index(recs[0], c.col)
		if k < 0 {
			t.Fatalf("%s: no column %s in %v", c.file, c.col, recs[0])
		}
		var got []string
		for _, r := range recs[1:] {
			got = append(got, r[k])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %s: %v, want %v", c.file, c.col, got, c.want)
		}
	}
	blocks, wells := Tables(scored)
	if got, want := colNames(blocks), BlockColumns(opt.Synergies); !slices.Equal(got, want) || !slices.Contains(got, "toy") {
		t.Errorf("blocks columns %v, want %v", got, want)
	}
	if got := colNames(wells); !slices.Equal(got, WellColumns(opt.Synergies)) || got[len(got)-3] != "toy" {
		t.Errorf("wells columns %v", got)
	}
	// The Parquet twins carry the column too (TestWriteDirTwins checks
	// they match the CSV).
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	rec := blocks.Record(alloc)
	defer rec.Release()
	if k := rec.Schema().FieldIndices("toy_over"); len(k) != 1 || rec.Schema().Field(k[0]).Type.Name() != "int64" {
		t.Errorf("record schema %v", rec.Schema())
	}

	js, err := os.ReadFile(filepath.Join(out, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	if m["toy_over_wells"] != 1.0 || m["loewe_fallback_wells"] == nil {
		t.Errorf("report.json: %s", js)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil || !strings.Contains(text.String(), "; toy wells over 100: 1\n") {
		t.Errorf("report text %q (%v)", text.String(), err)
	}

	// A heat map per row: seven panels (response, five synergies, curves)
	// on a block with doses enough for the curves' log axis.
	paths, err := WritePlots(filepath.Join(dir, "plots"), ScoreAll([]*Block{grid(doses, doses, bliss0)}, opt, nil), 1)
	if err != nil || len(paths) != 2 {
		t.Errorf("plots %v, %v", paths, err)
	}

	im, err := ImportFile(in, "", "toy", ReadOptions{}, opt, drugcomb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc := im.Screen
	if !slices.Equal(sc.ScoreNames, []string{"toy"}) || len(sc.Pairs) != 1 || sc.Pairs[0].N != 2 || sc.Pairs[0].Mean[0] != -15 {
		t.Errorf("screen scores %v, pairs %+v; want toy, one pair of 2 with mean −15", sc.ScoreNames, sc.Pairs)
	}
	var res strings.Builder
	if _, err := WriteResults(&res, scored, "toy", false); err != nil || res.String() != "drug_a,drug_b,score\nA,B,20\nA,B,-50\n" {
		t.Errorf("WriteResults: %q, %v", res.String(), err)
	}
	_, err = ImportFile(in, "", "dss", ReadOptions{}, opt, drugcomb.Options{})
	var se *ScoreError
	if !errors.Is(err, ErrScore) || !errors.As(err, &se) || !slices.Contains(se.Want, "toy") {
		t.Errorf("unknown score: %v", err)
	}
	// Without the row, "toy" is not a score.
	if _, err := ImportFile(in, "", "toy", ReadOptions{}, Options{}, drugcomb.Options{}); !errors.Is(err, ErrScore) {
		t.Errorf("toy without its row: %v", err)
	}
}

func readRecords(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func colNames(t Table) []string {
	var out []string
	for _, c := range t {
		out = append(out, c.name)
	}
	return out
}

// The default table and Scores: the order of the tables' columns and of
// the screen targets, which the command layer's help prints.
func TestSynergiesDefault(t *testing.T) {
	var names, titles []string
	for _, s := range Synergies() {
		names, titles = append(names, s.Name), append(titles, s.Title)
		if s.Delta == nil {
			t.Errorf("%s: no Delta", s.Name)
		}
	}
	for _, c := range []struct{ got, want []string }{
		{names, []string{"zip", "loewe", "hsa", "bliss"}},
		{titles, []string{"ZIP", "Loewe", "HSA", "Bliss"}},
		{Scores(), []string{"css", "zip", "loewe", "hsa", "bliss", "s"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%v, want %v", c.got, c.want)
		}
	}
	r := &Result{Summary: Summary{CSS: 1, S: 2}, Synergy: []Surface{{Synergy: Synergy{Name: "zip"}, Mean: 3}}}
	for _, c := range []struct {
		score string
		want  float64
	}{{"css", 1}, {"s", 2}, {"zip", 3}, {"bliss", math.NaN()}} {
		if got := r.Value(c.score); strconv.FormatFloat(got, 'g', -1, 64) != strconv.FormatFloat(c.want, 'g', -1, 64) {
			t.Errorf("Value(%q) = %v, want %v", c.score, got, c.want)
		}
	}
}
