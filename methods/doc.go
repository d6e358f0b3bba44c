// Package methods is the registry of the uncertainty methods and deup
// train's pipeline, apart from flags and printing.
//
// A Registry holds one Spec per method: its name, its constructor (New,
// used by deup train, bench, ood and the campaign's network surrogates),
// the model-file kinds it loads and its loader (Registry.Load reads a
// model file of any registered method: package trained's files hold one),
// its command-line flags (Flag; deup train and bench declare them with
// Registry.DefineFlags) and its place in the benchmark (Bench). Default
// returns a new registry of the built-in methods; Add registers another,
// so that a new method is a package plus one registration. There is no
// package-level registry: the command layer makes one and passes it down.
//
// The pipeline: the seeded calibration hold-out and in-sample/out-of-sample
// split (NewHoldout), and Fit, which trains a method on the split and
// returns a Report: epochs, the out-of-sample (or validation) RMSE beside
// its trivial references, the test RMSE and corr(sigma_total, |residual|)
// under a benchmark split, and the split-conformal calibration fitted on
// the held-out pairs.
//
// Everything is deterministic given the seed: the hold-out is a PCG
// permutation on stream CalibrationStream, the split drugcomb.SplitRandom
// of the remaining pairs.
package methods
