package features

import (
	"fmt"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/lincs"
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

// KeepSignaturePairs is the one rule of every fp+sig command: a pair is
// kept only when both its drugs have a signature in sig (a vector with at
// least one finite value: an all-NaN column counts as none; a missing
// signature is never replaced by zeros, which would read as "no change in
// expression"). It returns the screen of those pairs and how many of sc's
// drugs have a signature.
func KeepSignaturePairs(sc *drugcomb.Screen, sig *lincs.Signatures) (out *drugcomb.Screen, withSig int) {
	has := map[string]bool{}
	for i, id := range sig.DrugIDs {
		for _, x := range sig.Vectors[i] {
			if x == x {
				has[id] = true
				break
			}
		}
	}
	for _, d := range sc.Drugs {
		if has[d.ID] {
			withSig++
		}
	}
	out = sc.KeepPairs(func(_ int, p *drugcomb.Pair) bool {
		return has[sc.Drugs[p.A].ID] && has[sc.Drugs[p.B].ID]
	})
	return out, withSig
}

// KeepRows returns sc restricted to the drugs kept (the rows of
// BuildLenient's feature matrix, in order) and the pairs of two of them.
func KeepRows(sc *drugcomb.Screen, kept []int) *drugcomb.Screen {
	keep := make([]bool, len(sc.Drugs))
	for _, i := range kept {
		keep[i] = true
	}
	return sc.KeepDrugs(func(i int, _ drugcomb.Drug) bool { return keep[i] })
}
