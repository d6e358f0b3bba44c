package active

// DefaultMaxPerDrug is the per-drug cap of a batch of b pairs when none is
// given: max(2, ceil(b/10)), so no drug is in more than a tenth of the batch
// (3 of 30 pairs), and a small batch still allows a drug twice. 0 means no
// cap and is never returned.
func DefaultMaxPerDrug(b int) int {
	return max(2, (b+9)/10)
}
