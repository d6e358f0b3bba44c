package pairs

import (
	"github.com/deup-screening/deup/active"
	"strings"
	"testing"
)

// FuzzReadPredictionsCSV: any input either fails with an error or yields a
// table whose rows all index the screen, never a panic.
func FuzzReadPredictionsCSV(f *testing.F) {
	f.Add("drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\n5702198,31703,1.5,2,1,1.5\ngefitinib,Cisplatin,-3,4,,2\n")
	f.Add("acquisition,sigma_aleatoric,sigma_epistemic,sigma_total,mu,cell_line,drug_b,drug_a\n9,1,1,1,1,MCF7,D3,31703\n")
	f.Add("drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\nD3,D3,1,1,1,1\n")
	f.Add("drug_a,drug_b,mu\n\"a\n")
	f.Fuzz(func(t *testing.T, in string) {
		s := predScreen("PC-3", "MCF7")
		bl, _ := NewBuilder(s, 0, active.DefaultKappa)
		if err := bl.readCSV(strings.NewReader(in), 0); err != nil {
			return
		}
		tab, err := bl.Build()
		if err != nil {
			return
		}
		for i := range tab.Len() {
			r := tab.Row(i)
			if r.A < 0 || r.A >= r.B || r.B >= len(s.Drugs) || r.CellLine < 0 || r.CellLine >= len(s.CellLines) {
				t.Fatalf("row %d out of range: %+v", i, r)
			}
		}
	})
}
