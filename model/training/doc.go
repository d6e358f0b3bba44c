// Package training is deup train's pipeline, apart from flags and printing:
// the one constructor of every method by name (New, used by deup train,
// bench, ood and the campaign's network surrogates), the seeded calibration
// hold-out and in-sample/out-of-sample split (NewHoldout), and Fit, which
// trains a method on the split and returns a Report: epochs, the
// out-of-sample (or validation) RMSE beside its trivial references, the
// test RMSE and corr(sigma_total, |residual|) under a benchmark split, and
// the split-conformal calibration fitted on the held-out pairs.
//
// Everything is deterministic given the seed: the hold-out is a PCG
// permutation on stream CalibrationStream, the split drugcomb.SplitRandom
// of the remaining pairs.
package training
