package campaign

import (
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/doseresp"
)

// TestPlateResults: two scored blocks become a two-row results table whose
// score is each block's summary (the Bliss mean here), and lines 2 and 3 of
// the table name their blocks.
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
	r, block, err := PlateResults(scored, "bliss", false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || lines[0] != "drug_a,drug_b,score" {
		t.Fatalf("table %q, want a header and 2 rows", lines)
	}
	for k, s := range scored {
		if s.Err != nil {
			t.Fatal(s.Err)
		}
		want := "d" + strconv.Itoa(2*k) + ",d" + strconv.Itoa(2*k+1) + "," + strconv.FormatFloat(s.Result.Summary.Bliss, 'g', -1, 64)
		if lines[k+1] != want {
			t.Errorf("row %d %q, want %q", k+1, lines[k+1], want)
		}
	}
	for line, want := range map[int]string{1: "", 2: "block B1", 3: "block B2", 4: ""} {
		if got := block(line); got != want {
			t.Errorf("line %d: %q, want %q", line, got, want)
		}
	}
}
