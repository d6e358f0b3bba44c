package features

import (
	"fmt"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
)

// KeepStructured is the one structure rule of the campaigns: a drug whose
// SMILES cannot be fingerprinted (CheckSMILES) is left out with every pair
// that names it, and named in left ("drug LABEL: the parser's message"). A
// drug without any SMILES stays: identity features need none. sc itself is
// returned when every drug stays.
func KeepStructured(sc *drugcomb.Screen) (out *drugcomb.Screen, left []string) {
	bad := map[int]bool{}
	for i, d := range sc.Drugs {
		if d.SMILES == "" {
			continue
		}
		if err := CheckSMILES(d.SMILES); err != nil {
			bad[i] = true
			left = append(left, fmt.Sprintf("drug %s: %s", d.Label(), strings.TrimPrefix(err.Error(), "chem: ")))
		}
	}
	if len(bad) == 0 {
		return sc, nil
	}
	return sc.KeepDrugs(func(i int, _ drugcomb.Drug) bool { return !bad[i] }), left
}
