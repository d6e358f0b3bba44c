package chem

// Tanimoto returns the Tanimoto (Jaccard) similarity |A∩B| / |A∪B| of two
// fingerprints given as their on-bits, each sorted ascending without
// duplicates (as MorganBits returns them). Two empty sets are identical
// (1); callers that want an empty fingerprint to match nothing check for
// it first.
func Tanimoto[T ~int | ~int32](a, b []T) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	common := 0
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch {
		case a[x] == b[y]:
			common++
			x++
			y++
		case a[x] < b[y]:
			x++
		default:
			y++
		}
	}
	return float64(common) / float64(len(a)+len(b)-common)
}
