// Package surrogate holds the models an active-learning campaign (package
// active) fits each round: each implements active.Surrogate (Fit on the
// campaign's Evidence, Predict mu and the sigmas of candidate pairs) and is
// deterministic given Evidence.Seed.
//
// # Surrogates, by name (NewFor, ForCampaign)
//
//	deup-net       InteractiveDEUP whose main predictor is package model's
//	               two-tower network (Net, NetConfig), the CLI default
//	deup-ridge     InteractiveDEUP on a Bayesian-ridge main predictor (RidgeDEUP)
//	bayes-ridge    Ridge: Bayesian linear regression, its posterior variance
//	               as the epistemic part
//	ensemble       RidgeEnsemble: a bootstrap ensemble of Bayesian ridges
//	ensemble-net   NetMethod: package model's Deep Ensemble
//	mcdropout-net  NetMethod: MC-Dropout
//	twohead-net    NetMethod: the benchmark's two-head DEUP
//
// The network surrogates train NetConfig's networks; on a panel (measured
// pairs on several lines) with the panel's batch, patience and learning
// rate (PanelTraining: a first deup-net round on NCI-ALMANAC's 43 lines in
// minutes, not a quarter of an hour). Net leaves out DEUP's held-out-drug
// μ′ when its training pairs hold every drug: the novelty scale is then 1
// for every pair of the campaign, so no prediction changes
// (TestNetSkipsNoveltyExactly).
//
// The drug features they read are an Encoder (NewEncoder: identity,
// morgan or identity+morgan, the default). WithTrainProgress reports the
// epochs of the networks a surrogate trains.
//
// # Interactive DEUP (paper Alg. 3 with the Alg. 2 pre-fill)
//
// The main predictor h is fitted on D, every measured pair. The error
// predictor e is trained on D_e: before the first round, Alg. 2 fills D_e
// with K-fold out-of-sample losses on the initial pairs (5 folds, at least
// 2N_0 examples); then every acquired pair contributes one out-of-sample
// example (phi_D(x), (y - h_D(x))^2) where h_D and phi_D are the model and
// stationarizing features of the round that chose the pair, stored with
// the suggestion in the ledger, so D_e is rebuilt exactly after a restart.
// phi_D(x) = (x, log KDE density of x under D, log Var of h at x, seen bit);
// for "deup-net" the density is PairCountDensity, the product of the two
// drugs' smoothed frequencies among the measured pairs (the KDE over the
// identity and fingerprint coordinates hardly separates a pair of rarely
// measured drugs from others: issue 29).
// The prediction is
//
//	sigma_total     = sqrt(e(phi_D(x)))          (e clipped to the largest loss in D_e)
//	sigma_aleatoric = sqrt(a(x))                 (0 when no aleatoric estimator is set)
//	sigma_epistemic = sqrt(max(e - a, 0))
//
// Errors keep the "active: " prefix of the messages the commands have
// always printed.
package surrogate
