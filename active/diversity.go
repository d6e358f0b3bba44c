package active

import "fmt"

// DefaultMaxPerDrug is the per-drug cap of a batch of b pairs when none is
// given: max(2, ceil(b/10)), so no drug is in more than a tenth of the batch
// (3 of 30 pairs), and a small batch still allows a drug twice. 0 means no
// cap and is never returned.
func DefaultMaxPerDrug(b int) int {
	return max(2, (b+9)/10)
}

// MaxPerDrugNote states a cap as the commands print it: "at most 3 pairs per
// drug (--max-per-drug)" or "no per-drug cap (--max-per-drug 0)".
func MaxPerDrugNote(k int) string {
	if k <= 0 {
		return "no per-drug cap (--max-per-drug 0)"
	}
	if k == 1 {
		return "at most 1 pair per drug (--max-per-drug)"
	}
	return fmt.Sprintf("at most %d pairs per drug (--max-per-drug)", k)
}

// MaxPerLineNote states a per-cell-line cap (Config.MaxPerLine) as the
// commands print it, or "" for none.
func MaxPerLineNote(k int) string {
	if k <= 0 {
		return ""
	}
	return fmt.Sprintf(", at most %d per cell line (--per-line)", k)
}
