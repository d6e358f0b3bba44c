package campaign

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/doseresp"
	"github.com/deup-screening/deup/drugcomb"
)

// TestPlateResults: two scored blocks become two results whose score is
// each block's summary (the Bliss mean here), lines 2 and 3 of the table,
// which name their blocks.
func TestPlateResults(t *testing.T) {
	f := func(x, e float64) float64 { return 100 / (1 + math.Pow(x/e, -1.2)) }
	conc := []float64{0, 0.3, 1, 3}
	var blocks []*doseresp.Block
	for k, id := range []string{"B1", "B2"} {
		b := &doseresp.Block{ID: id, DrugRow: "d" + strconv.Itoa(2*k), DrugCol: "d" + strconv.Itoa(2*k+1), CellLine: "A", ConcRow: conc, ConcCol: conc}
		for _, x1 := range conc {
			var row []float64
			for _, x2 := range conc {
				row = append(row, f(x1, 1)+f(x2, 2)-f(x1, 1)*f(x2, 2)/100+float64(k)*x1*x2)
			}
			b.Response = append(b.Response, row)
		}
		blocks = append(blocks, b)
	}
	scored := doseresp.ScoreAll(blocks, doseresp.Options{}, nil)
	cfg := active.Config{Score: "bliss", CellLines: []string{"A"}}
	for i := range 4 {
		cfg.Drugs = append(cfg.Drugs, drugcomb.Drug{ID: "d" + strconv.Itoa(i)})
	}
	rs, block, err := PlateResults(scored, "plates.csv", "bliss", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2", len(rs))
	}
	for k, s := range scored {
		if s.Err != nil {
			t.Fatal(s.Err)
		}
		want := active.Result{Measurement: active.Measurement{Pair: active.NewPairOnLine(2*k, 2*k+1, 0), Y: s.Result.Value("bliss")}, Line: k + 2}
		if rs[k] != want {
			t.Errorf("result %d %+v, want %+v", k, rs[k], want)
		}
	}
	for line, want := range map[int]string{1: "", 2: "block B1", 3: "block B2", 4: ""} {
		if got := block(line); got != want {
			t.Errorf("line %d: %q, want %q", line, got, want)
		}
	}
	// A campaign without these drugs refuses the table, by line.
	cfg.Drugs = cfg.Drugs[:2]
	if _, _, err := PlateResults(scored, "plates.csv", "bliss", cfg); err == nil || !strings.Contains(err.Error(), "line 2 is the first block") || !strings.Contains(err.Error(), ":3:") {
		t.Errorf("unknown drugs: %v", err)
	}
}

// TestReadResults: a results file is read by name; a refusal says the
// ledger is unchanged.
func TestReadResults(t *testing.T) {
	cfg := active.Config{Score: "zip", CellLines: []string{"A"}, Drugs: []drugcomb.Drug{{ID: "d0"}, {ID: "d1"}, {ID: "d2"}}}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		want       []active.Result
		wantErr    string
	}{
		{"good", "drug_a,drug_b,zip\nd0,d1,1.5\nd2,d0,-2\n", []active.Result{
			{Measurement: active.Measurement{Pair: active.NewPairOnLine(0, 1, 0), Y: 1.5}, Line: 2},
			{Measurement: active.Measurement{Pair: active.NewPairOnLine(0, 2, 0), Y: -2}, Line: 3}}, ""},
		{"unknown drug", "drug_a,drug_b,zip\nd0,d9,1\n", nil, "results refused, ledger unchanged:\n"},
	} {
		path := filepath.Join(dir, tc.name+".csv")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		rs, err := ReadResults(path, cfg)
		if tc.wantErr != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(rs, tc.want) {
			t.Errorf("%s: %+v (%v), want %+v", tc.name, rs, err, tc.want)
		}
	}
}
