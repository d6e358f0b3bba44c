// Package bench runs the paper's 40/30/30 uncertainty benchmark: for each
// seed one random split of a screen's pairs shared by every method, each
// method trained on it (model.Method.Fit sees the train and validation
// parts only) and scored on the same test pairs with every metric of
// package uq.
//
// Config.Split replaces the random split (a split by combination, drug or
// cell line: Splitter), and Config.Folds replaces the one split per seed
// with K-fold cross-validation (FoldSplitter over drugcomb.SplitFolds:
// every unit of the split tested exactly once per seed). Each fold is a
// run of its own (Result.Runs, seed-major): every per-seed slice of a Row
// holds one entry per run, the table's mean ± sd is over the runs, and
// results.json adds "folds" and "protocol" (docs/protocol.md). Either
// split may then have its validation part redrawn by combination or drug
// (drugcomb.DrawOOS, deup bench --oos-by).
//
// Rows of the table:
//   - one per trained method (deup, ensemble, ensemble-nll, mcdropout, due);
//   - mcdropout-t<T>: the same trained MC-Dropout network with T stochastic
//     passes at prediction instead of 3 (no retraining);
//   - constant: DEUP's μ with one σ for every pair, equal to the RMSE of
//     DEUP's μ on the validation split. A method claims per-pair uncertainty
//     only if it beats this row's loglik and crps.
//   - per-line (a panel, Config.PerLineReference): one network per cell
//     line, trained on that line's pairs of the seed's train and
//     validation split alone and scored on the same test pairs: the
//     two-tower μ alone (the paper's sizes and the one-line settings,
//     squared error, as an ensemble member is trained), σ the line's
//     validation RMSE of μ, one number per line (the constant row's
//     recipe, per line). Its per-line corr is null (σ constant within a
//     line). Not a DEUP per line: see PerLine.
//
// On a panel (a dataset with several cell lines) the methods train with
// the panel's settings in the fields Config.Model and Config.DUE leave
// zero (methods.Config.Panel: batch 512, patience 5, at most 30
// epochs, learning rate 3e-4; docs/panel.md), the per-line reference's
// networks with the one-line defaults. A one-line dataset is trained as
// before.
//
// DEUP's novelty fold (model/novelty.go, a second training of μ′) is
// skipped where it cannot change a scored number: when every drug of the
// validation and test pairs is a drug of a training pair (noveltyInert),
// where its σ scale is exactly 1. The numbers are the same (tested); only
// the train seconds drop.
//
// On a screen with a known truth (the synthetic default), Result also holds,
// per method, how σ_epistemic tracks the true excess risk |μ − E[y]| (the
// epistemic part of the error: E[(μ−y)²] − Var[y]) and how σ_aleatoric
// tracks the true noise standard deviation:
//
//	epi_corr     = Pearson(σ_epistemic, |μ − truth|)
//	epi_spearman = Spearman(σ_epistemic, |μ − truth|)
//	epi_ratio    = sqrt(mean σ_epistemic²) / sqrt(mean (μ − truth)²)   (1 is calibrated)
//	alea_corr    = Pearson(σ_aleatoric, true noise sd); NaN when σ_aleatoric is constant
//
// A predicted sigma below SigmaFloor × sd(y) (MC-Dropout gives exactly 0
// when every pass drops the same units) is scored at that floor, and the
// number of such pairs is reported per row: nothing is dropped.
//
// Conformal intervals: every row is also scored by split-conformal
// intervals at coverage 1 − Config.Alpha (default 0.1: 90 %), plain
// (μ ± q, q from |y − μ|) and σ-normalized (μ ± qσ, q from |y − μ|/σ),
// with uq.ScoreIntervals' coverage, width, worst σ-quintile coverage and
// interval score. The calibration pairs must have trained neither μ nor
// σ; in the 40/30/30 split train and validation both trained (DEUP's σ
// path on validation), so the test pairs are used, never a pair for its
// own interval: a permutation drawn from the seed halves them and each
// half is calibrated on the other (uq.CrossConformal, two-fold
// cross-conformal; every row of a seed gets the same halves). Run refuses
// a test split whose halves are smaller than uq.MinCalibration(Alpha).
//
// Every random draw comes from the seeds: the same seeds give the same
// numbers. Trainings (one method on one seed's split) run on
// Config.Workers goroutines, each ensemble member a job of its own (the
// members are independent: model.EnsembleMember, joined by
// model.JoinEnsemble, the same predictions), handed out longest first
// (DEUP, MC-Dropout, DUE, then the ensemble members, so that no long
// training runs alone at the end), and their results are merged in table
// order, so the numbers depend on neither the number of workers nor the
// order of the trainings (tested);
// only the train-seconds column, wall time, does. Libraries never print:
// Run reports progress through a callback, one call at a time.
package bench
