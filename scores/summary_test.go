package scores

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
)

// TestSummaryCSV: the summary files hold the Summary's values, floats with
// 7 significant digits and a decimal point (package tabular's CSV policy),
// ranks from 1, whatever the path's extension.
func TestSummaryCSV(t *testing.T) {
	s := &Summary{
		Lines: []LineSummary{{CellLine: "PC-3", Rows: 3, MeanMu: 1.0 / 3, MaxMu: 100, MeanSigmaEpistemic: 2.5, MeasuredRows: 1}},
		Batch: []Pick{
			{CellLine: "PC-3", A: "1", B: "2", AName: "a, b", BName: "c", Mu: 1, SigmaEpi: 0.5, UCB: 1.25},
			{CellLine: "A549", A: "3", B: "4", AName: "d", BName: "e", Mu: -2.123456789, SigmaEpi: 1e-9, UCB: -2},
		},
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, file, want string
		rec              func(*Summary) arrow.Record
	}{
		// 1/3 to 7 digits; 100 and 1 as floats get ".0" (tabular doc)
		{"lines", "lines.csv", "cell_line,rows,mean_mu,max_mu,mean_sigma_epistemic,measured_rows\nPC-3,3,0.3333333,100.0,2.5,1\n", (*Summary).LinesRecord},
		{"batch", "batch.txt", "rank,cell_line,drug_a_id,drug_b_id,drug_a_name,drug_b_name,mu,sigma_epistemic,ucb\n" +
			"1,PC-3,1,2,\"a, b\",c,1.0,0.5,1.25\n2,A549,3,4,d,e,-2.123457,1e-09,-2.0\n", (*Summary).BatchRecord},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := tc.rec(s)
			defer rec.Release()
			path := filepath.Join(dir, tc.file)
			if err := WriteCSV(path, rec); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
