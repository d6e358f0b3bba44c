// Package ood is DEUP for rejecting difficult examples (Lahlou et al.,
// TMLR 2023, §5.3.2 and its appendix "Rejecting Difficult Examples"):
// predict, for each input, the loss a main predictor will make on it, from
// stationarizing features that say how far the input lies from the
// training data, so that inputs unlike anything measured can be set aside.
// It is generic: it imports deup and uq, never a drug-specific package. The
// drug-combination use (held-out drug clusters, a Tanimoto density, the
// two-tower networks) is `deup ood` in cmd/deup/internal/cli.
//
// # Data
//
// A Problem holds n examples addressed by index: targets Y, the groups of
// each example (a class; a drug pair's two drug clusters) and optionally
// an x feature per example (the input or an embedding of it). An example is
// out of distribution for a model when one of its groups had no example in
// that model's training set. The caller owns the learners through three
// small interfaces on indices: Fitter (the main predictor with its model
// variance, early-stopped on a validation part), DensityFitter and
// ErrorLearner's regressor (a deup.Learner). RowFitter and RowKDE adapt
// deup's learners and KDE when examples are rows of a matrix.
//
// # Algorithm (Run)
//
// Algorithm 2 of the paper with group folds, as its CIFAR-10 experiment
// (folds of classes):
//
//  1. GroupFolds: the groups of the training examples, in a seeded random
//     order, largest first, each to the fold with the fewest examples.
//  2. For each fold k: out = training examples with a group of fold k
//     (out of distribution for the fold); of the rest, InFrac (0.2) are
//     held out in distribution, ValFrac (0.15) of the remainder is the
//     validation part for early stopping, and the main predictor and the
//     density are fitted on what is left. D_e receives an entry for every
//     out and in example, and for InSampleFrac (0.2) of the fitted
//     examples scored in sample (b = 1): the main predictor's mean, log
//     max(variance, 1e-12), the log-density, the seen bit and the squared
//     error (y − mean)².
//  3. The final estimators are fitted on all training examples (FinalSplit:
//     the same ValFrac set aside, drawn from the seed; baselines that must
//     see the same data use FinalSplit too) and score the test examples.
//  4. For each feature set s (a subset of x, d, v, b in deup's order), an
//     error predictor is fitted on D_e with targets log(loss + 1e-8)
//     (deup.LogErrors) and predicts e(phi_s(x)) = exp(g) − 1e-8, clipped at
//     0, on the test examples. In-sample entries enter only sets with b: b
//     is the paper's seen bit (x is a training input), always 0 at test,
//     so for other sets those entries would be examples whose features
//     cannot tell them from the out-of-sample ones.
//
// One Run trains the main predictor K+1 times whatever the number of
// feature sets: the sets differ only in the error predictor's inputs.
//
// # Metrics
//
// Score: SRCC (uq.SRCC: Spearman of the uncertainty with the realized
// loss), AUROC (uq.AUROC: the uncertainty as a score of out of
// distribution against in distribution, ties one half) and RejectionAUC.
// RejectionCurve: for r = 0, 0.01, ..., 0.99, the mean loss of the examples
// kept when the round(r n) most uncertain are rejected, divided by the mean
// loss of all; ties at the cut count with their block's mean loss, so the
// curve does not depend on the order of tied examples. RejectionAUC is the
// curve's mean by the trapezoid rule: 1 for an uninformative ranking (and
// for a constant uncertainty), lower is better.
//
// # Errors, NaN, randomness
//
// Run rejects non-finite targets, examples without a group, overlapping
// or out-of-range training and test indices, fewer groups than folds, a
// fold that leaves fewer than 3 training examples, and feature sets whose
// estimator is missing; a NaN mean or negative variance from a Fitter is an
// error naming the example. A zero density (log −Inf) is floored at −1000.
// RejectionCurve returns NaN where the mean loss is 0 or an input is NaN.
// Every random draw comes from Config.Seed (math/rand/v2 PCG): the folds,
// the held-out and in-sample parts and, through derived seeds, the
// trainings. Nothing here logs; progress goes to Config.Progress.
//
// # deup ood: settings and disclosure
//
// Fixed before any result was seen, for cost and not tuned: the main
// predictor of the deup-* rows is the MC-Dropout two-tower network
// (p = 0.1, 30 passes; mean and pass variance, so the final network is
// also the mcdropout row), the paper's network sizes, lr 1e-4, early
// stopping with patience 10 and at most 300 epochs, the same for every
// method (patience 10 rather than bench's 25 was chosen for time after a
// first synthetic run took 141 s of CPU per seed: 3 seeds on PC-3 would
// not fit 5 minutes on 2 cores; no PC-3 result had been seen); the error predictor is an MLP 32-32 (Adam lr
// 1e-3, weight decay 1e-4, 300 epochs, batch 256); Butina cutoff 0.6 on
// the Tanimoto distance of the Morgan fingerprints (radius 3, 1024 bits);
// Tanimoto kernel bandwidth 0.1; x = the sum of the two drugs' first 8
// principal components of the training drugs' fingerprints; in-distribution
// pairs split 70/30 into training and test. docs/ood.md of the repository
// records the measured tables (run once, nothing changed after them).
//
// # Where the time goes
//
// Per seed, deup ood trains K+1 = 6 MC-Dropout networks for every deup-*
// row together (they differ only in the error predictor; the final network
// is also the mcdropout row), 3 ensemble members, 1 DUE and 1 two-head
// DEUP network, plus one small error-predictor MLP per deup-* row. On PC-3
// (1,440 pairs) 3 seeds took 220 s of CPU (2 workers: about 2 minutes of
// wall time on 2 free cores); the fold networks are the largest share,
// then DUE and the ensemble.
package ood
