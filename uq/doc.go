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
//	ratio       corr / upper_bound; undefined (NaN) when upper_bound < 2/sqrt(n)
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
// # Prediction intervals and calibration
//
// Split-conformal intervals (Vovk et al. 2005; Lei et al. 2018) at
// miscoverage alpha from n calibration pairs, disjoint from the pairs that
// trained mu and sigma and exchangeable with the pairs scored:
//
//	plain       score s_i = |y_i - mu_i|,          interval mu ± q
//	normalized  score s_i = |y_i - mu_i| / sigma_i, interval mu ± q sigma
//	q           the k-th smallest score, k = ceil((n+1)(1-alpha))
//
// Then a new exchangeable pair is covered with probability at least
// 1 - alpha (and at most 1 - alpha + 1/(n+1) without ties). When
// k > n (n < 1/alpha - 1; MinCalibration gives the exact bound: 9 pairs
// for alpha = 0.1, 19 for 0.05) no finite interval keeps the guarantee:
// ConformalQuantile returns +Inf (the whole line) and Calibrator.Interval
// and CrossConformal return ErrTooFewPairs.
//
// CrossConformal scores a test set without ever calibrating a pair on
// itself: a seeded permutation splits it into two halves, each calibrated
// on the other (a two-fold cross-conformal scheme; each half is an
// ordinary split-conformal test set for the other, so the guarantee holds
// per half). package bench uses it on the test split, the only part of
// the 40/30/30 split that trained neither mu nor sigma (DEUP's sigma path
// trains on the validation split). deup train instead holds a seeded
// calibration fraction out of all the pairs before its split and stores
// the fitted Calibrator in the model file (package trained), for
// deup predict --coverage, suggest and tui (docs/intervals.md).
//
// Recalibration of sigma (Calibrator, FitScale, FitIsotonic): one scale s
// fitted by maximum likelihood, s = sqrt(mean_i ((y_i - mu_i)/sigma_i)^2),
// and the isotonic recalibration of the predictive CDF of Kuleshov et al.
// (2018): R fitted on (p_i, #{j: p_j <= p_i}/n), p_i = Phi((y_i -
// mu_i)/sigma_i), linear between knots, R(0) = 0, R(1) = 1.
//
// Interval metrics (ScoreIntervals), coverages in percent:
//
//	coverage                 100 #{i: lo_i <= y_i <= hi_i} / n
//	width                    mean_i (hi_i - lo_i)
//	quintile_coverage[g]     coverage of the g-th fifth of the pairs by
//	                         increasing sigma (ties in input order)
//	worst_quintile_coverage  min_g quintile_coverage[g]: conditional
//	                         coverage's headline
//	interval_score           mean_i (hi_i - lo_i) + (2/alpha)(lo_i - y_i)1{y_i < lo_i}
//	                         + (2/alpha)(y_i - hi_i)1{y_i > hi_i}   (Gneiting & Raftery 2007)
//
// Calibrator is the serializable form (JSON: method, n, sorted scores or
// scale) that a model file can store; its Interval returns ErrCoverage for
// a coverage outside (0, 1), ErrNoCalibration for a missing calibration
// and ErrTooFewPairs as above, never a silent interval.
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
//   - ratio is NaN when upper_bound is NaN or below RatioMinUpperBound(n) =
//     2/sqrt(n): sigma then barely varies, upper_bound is indistinguishable
//     from 0 and the quotient is noise (reported as null in JSON and "—"
//     in bench's table, with the reason under it);
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
