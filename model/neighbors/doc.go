// Package neighbors is the drug-neighbour reference of issue 40: item-based
// collaborative filtering on the (drug, partner, cell line) table of the
// training scores, with no network and no structure. It answers, on a
// screen, how much of a held-out combination's score the measured
// combinations of its two drugs already tell.
//
// A training measurement (a, b, line l, score y), averaged over replicates
// of the unordered pair on the line, enters three estimates:
//
//	m(l)     the mean score of line l
//	d(a, l)  drug a's deviation on line l: (Σ y − n·m(l)) / (n + 5) over
//	         its n pairs on l (shrunk toward 0 by 5 pseudo-pairs)
//	r(a,b,l) the residual y − (m(l) + d(a, l) + d(b, l)), kept under both
//	         orders (a's row: partner b; b's row: partner a)
//
// Two drugs are neighbours when their residuals with the same partners on
// the same lines agree: s(a, e) is the Pearson correlation of r(a,·,·) and
// r(e,·,·) over their common (partner, line) keys, times n/(n+10) for n
// common keys (0 below 3 keys); each drug keeps its 40 most similar drugs
// with s > 0. The prediction for (a, b, l) is
//
//	μ = m(l) + d(a, l) + d(b, l) + (Σ s(b,x) r(a,x,l) + Σ s(a,x) r(b,x,l)) / (Σ s + 1)
//
// over the K nearest neighbours x of b (first sum) and of a (second) for
// which the residual exists; the 1 in the denominator is a zero residual
// of weight 1, so that thin evidence shrinks toward the additive part.
// The formula is symmetric in a and b. K is the one of 5, 10, 20, 40 with
// the lowest RMSE on the validation pairs (never the test pairs), of the
// estimates of the training pairs; then the validation pairs join the
// training ones and every estimate is computed again from both (they are
// measured combinations like the others; ValidationRMSE keeps the
// out-of-sample figure, and deup train reports it). A drug
// the training pairs do not have contributes 0 (d = 0, no neighbours): a
// pair of two such drugs is predicted at its line's mean. A line the
// training pairs do not have (a held-out line; one added by AddLines,
// which deup predict --cell-features reaches through Stacked) gets the
// pooled additive part: m = the mean of every training score, d(a) =
// drug a's deviations y − m(l) summed over all its pairs on every line,
// over (n + 5); it has no residuals, so no neighbour term.
//
// The shrinkage constants (5 pseudo-pairs, 10 common keys, weight 1) and
// the neighbour count grid were set before any run and not tuned; the
// similarity on residuals rather than raw scores was chosen after
// comparing both on the 5 leave-combination-out folds of the NCI-ALMANAC
// panel, PC-3 and MCF7 (Pearson r 0.555 and 0.560, 0.471 and 0.467,
// 0.467 and 0.473: no difference; residuals remove the line means, which
// a panel's raw-score correlation would mostly measure). docs/training.md
// has the measurements.
//
// It has no uncertainty of its own: σ is that validation RMSE for every
// pair (SigmaEpistemic the same, SigmaAleatoric 0), as for the one-hot
// reference. Fitting is O(D · R) for D training drugs and R training
// rows (the similarity of every drug pair, by a merge of sorted keys).
//
// File format: Magic, the JSON header's length (uint64 little endian) and
// the header: feature configuration, drug ids, lines, K, σ and the
// averaged training rows, from which Load rebuilds every estimate as Fit
// does (the same numbers). Load checks the header's ranges; bad input is
// an error, never a panic (FuzzLoad).
package neighbors
