package lincs_test

import (
	"fmt"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/lincs"
)

func ExampleMatchDrugs() {
	const gct = "#1.2\n2\t2\nName\tDescription\tgefitinib\tvorinostat\n" +
		"AARS\tAARS\t1\tNaN\n" +
		"ABCF1\tABCF1\t-2\t3\n"
	m, err := lincs.ReadGCT(strings.NewReader(gct), "example.gct")
	if err != nil {
		fmt.Println(err)
		return
	}
	info := &lincs.PertInfo{Names: map[int64][]string{5311: {"vorinostat"}}}
	drugs := []drugcomb.Drug{
		{ID: "123631", Name: "Gefitinib", PubChemCID: 123631},
		{ID: "5311", Name: "SAHA", PubChemCID: 5311},
		{ID: "2244", Name: "Aspirin", PubChemCID: 2244},
	}
	sigs, rep := lincs.MatchDrugs(m, info, drugs)
	for i, d := range drugs {
		fmt.Printf("%-9s %-12q %-11q %v\n", d.Name, sigs.By[i], sigs.Columns[i], sigs.Vectors[i])
	}
	fmt.Printf("%d of %d matched; missing: %s\n", rep.Matched, rep.Drugs, rep.Missing[0].Name)
	// Output:
	// Gefitinib "name"       "gefitinib" [1 -2]
	// SAHA      "pubchem_cid" "vorinostat" [NaN 3]
	// Aspirin   ""           ""          []
	// 2 of 3 matched; missing: Aspirin
}
