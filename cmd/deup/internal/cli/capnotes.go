package cli

import "fmt"

// maxPerDrugNote states a per-drug cap (active.Config.MaxPerDrug) as the
// commands print it: "at most 3 pairs per drug (--max-per-drug)" or "no
// per-drug cap (--max-per-drug 0)".
func maxPerDrugNote(k int) string {
	if k <= 0 {
		return "no per-drug cap (--max-per-drug 0)"
	}
	if k == 1 {
		return "at most 1 pair per drug (--max-per-drug)"
	}
	return fmt.Sprintf("at most %d pairs per drug (--max-per-drug)", k)
}

// maxPerLineNote states a per-cell-line cap (active.Config.MaxPerLine) as
// the commands print it, or "" for none.
func maxPerLineNote(k int) string {
	if k <= 0 {
		return ""
	}
	return fmt.Sprintf(", at most %d per cell line (--per-line)", k)
}
