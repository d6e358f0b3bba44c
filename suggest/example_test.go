package suggest_test

import (
	"math"
	"os"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/suggest"
)

func ExampleWriteCSV() {
	batch := []suggest.Suggestion{{
		Rank:     1,
		DrugA:    drugcomb.Drug{ID: "5702198", Name: "Cisplatin", PubChemCID: 5702198, SMILES: "N.N.Cl[Pt]Cl"},
		DrugB:    drugcomb.Drug{ID: "x7", Name: "compound 7"}, // no CID, no SMILES
		CellLine: "PC-3",
		Mu:       12.5, SigmaTotal: 30.25, SigmaEpistemic: 8.125, SigmaAleatoric: math.NaN(),
		Acquisition: 20.625, Reason: "largest UCB",
	}}
	if err := suggest.WriteCSV(os.Stdout, batch); err != nil {
		panic(err)
	}
	// Output:
	// rank,drug_a_id,drug_a_name,drug_a_pubchem_cid,drug_a_smiles,drug_b_id,drug_b_name,drug_b_pubchem_cid,drug_b_smiles,cell_line,mu,sigma_total,sigma_epistemic,sigma_aleatoric,lower,upper,acquisition,reason
	// 1,5702198,Cisplatin,5702198,N.N.Cl[Pt]Cl,x7,compound 7,,,PC-3,12.5,30.25,8.125,,,,20.625,largest UCB
}
