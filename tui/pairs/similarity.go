package pairs

import (
	"fmt"
	"slices"

	"github.com/deup-screening/deup/chem"
)

// Tanimoto returns the drug similarity |A∩B| / |A∪B| of on-bit sets
// (bits[i] for drug i, sorted ascending without duplicates). A drug with a
// nil or empty set is similar only to itself (1), to no other drug (0).
func Tanimoto(bits [][]int) func(i, j int) float64 {
	return func(i, j int) float64 {
		if i == j {
			return 1
		}
		a, b := bits[i], bits[j]
		if len(a) == 0 || len(b) == 0 {
			return 0
		}
		return chem.Tanimoto(a, b)
	}
}

// UseMorganSimilarity makes Nearest rank measured pairs by the Tanimoto
// similarity of the drugs' Morgan fingerprints (radius 2, 2048 bits, the
// usual ECFP4-like setting for similarity search), each of its largest
// organic fragment (salts left out, chem.LargestFragmentChooser). Drugs whose SMILES is
// missing or does not parse fall back to identity; their number is
// returned. Call it before sharing the table.
func (t *Table) UseMorganSimilarity() (unusable int) {
	smiles := make([]string, len(t.screen.Drugs))
	for i, d := range t.screen.Drugs {
		smiles[i] = d.SMILES
	}
	// The largest organic fragment, as the model features: two
	// hydrochlorides are not similar for sharing their chloride.
	bits, _, errs := chem.LargestFragmentBitsAll(smiles, 2, 2048, 0, chem.LargestFragmentChooser{PreferOrganic: true})
	for i := range bits {
		if errs[i] != nil || smiles[i] == "" {
			bits[i] = nil
			unusable++
			continue
		}
		slices.Sort(bits[i])
		bits[i] = slices.Compact(bits[i])
	}
	t.Similarity = Tanimoto(bits)
	t.simDoc = "Tanimoto, Morgan r=2"
	if unusable > 0 {
		t.simDoc += fmt.Sprintf("; %d of %d drugs lack one", unusable, len(smiles))
	}
	return unusable
}
