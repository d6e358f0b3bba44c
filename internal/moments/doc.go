// Package moments is the module's one rule for a sample's mean and
// standard deviation: MeanSD (sample sd, n-1 denominator), PopMeanSD
// (population sd, n denominator) and MeanScale (the sd as a standardizing
// scale). It is a leaf: it imports only the standard library, so the leaves
// and data packages that need a mean and sd (gp, drugcomb) take it from
// here, and package uq, which exports the same functions, delegates to it.
//
// Degenerate samples, the one rule: both are NaN for no value; for one
// value the mean is the value and the sample sd NaN (n-1 = 0: no estimate),
// the population sd 0. NaN values propagate (a failed seed is never
// silently left out of a table).
//
// Formula: mean = (x[0] + x[1] + ... ) / n summed in order, sd =
// sqrt(sum (x[i] - mean)^2 / (n-1)) (or / n). Not gonum's stat.MeanStdDev:
// its Mean sums with an 8-lane SIMD kernel whose grouping depends on the
// slice's 16-byte alignment (so the last bits could depend on where a slice
// starts), and its corrected two-pass variance differs from this in the
// last bits; this one gives the bits every earlier helper of the module
// gave.
package moments
