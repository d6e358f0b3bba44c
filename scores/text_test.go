package scores

import (
	"bytes"
	"testing"
)

// TestWriteText: the text is the report's values, digests cut to 12
// characters (short), floats to 7 significant digits.
func TestWriteText(t *testing.T) {
	ok := &Report{Dir: "d", Lines: []Line{{CellLine: "PC-3", Parts: 2, Found: 2,
		Identity: Identity{Model: "0123456789abcdef", NDrugs: 3, Pairs: "fedcba9876543210", Total: 3}, Sum: Checksum{Rows: 3, Sum: [2]uint64{1, 2}}}},
		Sum: Checksum{Rows: 3, Sum: [2]uint64{1, 2}}}
	bad := &Report{Dir: "e", Problems: []string{"x: missing", "y: twice"}}
	for _, tc := range []struct {
		name                string
		r                   *Report
		wantOut, wantProble string
	}{
		{"complete", ok, "cell_line=PC-3: 2 of 2 parts, 3 rows of 3 (3 drugs, pairs fedcba987654), model 0123456789ab, checksum 3:0000000000000001:0000000000000002\n" +
			"d: complete: 1 cell lines, 3 rows, checksum 3:0000000000000001:0000000000000002\n", ""},
		{"problems", bad, "e: INCOMPLETE (2 problems): 0 cell lines, 0 rows, checksum 0:0000000000000000:0000000000000000\n", "p: x: missing\np: y: twice\n"},
	} {
		var out, probs bytes.Buffer
		if err := tc.r.WriteText(&out, &probs, "p: "); err != nil {
			t.Fatal(err)
		}
		if out.String() != tc.wantOut || probs.String() != tc.wantProble {
			t.Errorf("%s: got\n%q\n%q\nwant\n%q\n%q", tc.name, out.String(), probs.String(), tc.wantOut, tc.wantProble)
		}
	}
	s := &Summary{Lines: []LineSummary{{CellLine: "PC-3", Rows: 3, MeanMu: 1.0 / 3, MaxMu: 100, MeanSigmaEpistemic: 2.5, MeasuredRows: 1}}}
	var out bytes.Buffer
	if err := s.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	// 1/3 to 7 digits; 'g' writes 100 without a decimal point
	if want := "PC-3: 3 pairs, mean mu 0.3333333, max mu 100, mean sigma_epistemic 2.5, 1 measured\n"; out.String() != want {
		t.Errorf("summary: got %q, want %q", out.String(), want)
	}
}
