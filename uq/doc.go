// Package uq scores predictive uncertainty: the metrics defined in
// docs/metrics.md of this repository, their aggregation over seeds, and
// calibration curves for plots.
//
// For example i of a test split, y_i is the observed score, mu_i the
// predicted mean, sigma_i > 0 the predicted standard deviation (the total
// predictive uncertainty) and r_i = |mu_i - y_i| the residual. All metrics
// are in the units of y: undo any standardization before scoring.
//
//	corr        Pearson(r, sigma)
//	upper_bound Pearson over (i, j) of (|sigma_i z_ij|, sigma_i), z_ij ~ N(0, 1),
//	            j = 1..5, drawn from rand.NewPCG(seed, 0) in order i, then j
//	ratio       corr / upper_bound
//	loglik      mean_i -log(sigma_i) - log(2 pi)/2 - ((y_i - mu_i)/sigma_i)^2/2
//	coverage    100 * #{i: r_i <= sigma_i} / n          (nominal 68.27)
//	ci_width    mean_i 2 sigma_i
//	spearman    Spearman(r, sigma), ties at their average rank
//	rmse        sqrt(mean_i (mu_i - y_i)^2)
//	pearson_mu  Pearson(mu, y)
//	crps        mean_i sigma_i (z_i (2 Phi(z_i) - 1) + 2 phi(z_i) - 1/sqrt(pi)),
//	            z_i = (y_i - mu_i)/sigma_i
//	miscal_area area between the calibration curve and the diagonal: the curve
//	            has one point per level p_k = k/101, k = 1..100 (100 levels
//	            evenly spaced strictly inside (0, 1)), observed fraction of
//	            r_i <= sigma_i Phi^-1(0.5 + p_k/2); the area is taken over
//	            [p_1, p_100] by the trapezoid rule on |observed - p|, with a
//	            segment that crosses the diagonal split at the crossing (exact
//	            for the piecewise-linear curve)
//	sharpness   sqrt(mean_i sigma_i^2)
//
// For the out-of-distribution use: srcc is Spearman(uncertainty, loss) and
// auroc the area under the ROC curve of the uncertainty as a score for
// out-of-distribution (positive) examples, ties counting one half
// (Mann-Whitney U / (n_pos n_neg)).
//
// Aggregate reports each metric as the mean and the sample standard
// deviation (n-1 denominator) over seeds.
//
// # NaN and degenerate input
//
// Score and the metric functions never drop an example and never return an
// error; they return NaN where a metric is undefined:
//   - a correlation (corr, upper_bound, spearman, pearson_mu, srcc) is NaN
//     with fewer than two examples or when either variable is constant (all
//     values equal), as scipy.stats.pearsonr/spearmanr return nan. So a
//     model that predicts the same sigma everywhere has corr, spearman and
//     upper_bound NaN, and ratio NaN: it ranks nothing;
//   - ratio is NaN when upper_bound is 0 or NaN;
//   - every metric is NaN for zero examples (Score(nil, nil, nil, s) is
//     fine), and any NaN in y, mu or sigma makes the metrics that read it
//     NaN; auroc is NaN when either class is empty;
//   - sigma_i = 0 is taken at its limit: its loglik term is +Inf if
//     y_i = mu_i and -Inf otherwise, its crps term is |y_i - mu_i|, and it
//     counts as inside an interval exactly when y_i = mu_i;
//   - MeanSD and Aggregate propagate NaN: a failed seed shows as NaN in the
//     table rather than vanishing; the sd of a single run is NaN.
//
// Validate refuses what docs/metrics.md excludes (unequal or zero lengths,
// non-finite values, sigma <= 0) with an error naming the first bad
// example; callers scoring model output should call it first.
//
// JSON: Metrics and OOD marshal with the metric names as keys and NaN or
// ±Inf as null (encoding/json cannot write them as numbers).
//
// Panics: only on slices of different lengths, a programmer error, with the
// message "uq: slice length mismatch".
package uq
