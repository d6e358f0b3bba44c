// Package active runs active-learning campaigns over drug-combination
// screens: each round it fits a surrogate model on the measured pairs,
// scores the open candidate pairs with an acquisition function, proposes a
// batch, and records the measurements that come back, every step durably in
// a ledger (package active/ledger).
//
// # Pieces
//
//   - Surrogate (Fit on Evidence, Predict mu and sigmas for pairs) and Oracle
//     (measures pairs; TableOracle answers from a measured screen) are the
//     small interfaces the campaign consumes. Surrogates here: DEUP
//     (interactive DEUP, below) with a Bayesian-ridge main predictor
//     ("deup-ridge") or package model's two-tower network ("deup-net", the CLI
//     default; Net adapts it to deup.Learner), Ridge (Bayesian linear
//     regression, its posterior variance as the epistemic part), Ensemble
//     (bootstrap ensemble of Bayesian ridges), NetMethod (package model's
//     Deep Ensemble, MC-Dropout and two-head DEUP used directly:
//     "ensemble-net", "mcdropout-net", "twohead-net"). NewSurrogateFor
//     builds them by name.
//   - Acquisition: UCB mu + kappa*sigma_epistemic, EI (expected improvement
//     over the best measured score), Thompson (one draw from
//     N(mu, sigma_epistemic^2) per candidate, seeded), Greedy (mu), Explore
//     (sigma_epistemic), Random. An ExploreWeight w in [0, 1] (the CLI's
//     --explore) blends any of them but Random with Explore by rank:
//     (1-w) r(score) + w r(sigma_epistemic). SelectBatch takes the B best
//     scores, ties to the lower index, optionally with no drug more than k
//     times per batch.
//   - Campaign: the state replayed from a Store (the on-disk ledger or an
//     in-memory store): Create, Load, Propose/ProposeWith, Record,
//     CloseRound, Step. Simulate runs retrospective campaigns of several
//     strategies and seeds; package active/simreport writes their report.
//     Package active/campaign keeps a campaign in a directory (its ledger
//     and campaign.json) and runs its rounds as the deup commands and deup
//     tui do.
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
// # Invariants (checked on every Load)
//
// Pairs have A < B and indices in range; a pair is measured at most once;
// a round is suggested only when the previous one is complete (all results
// in, or closed); every result answers a suggestion of the open round; the
// prefill precedes the first round. Record validates a whole import first
// and writes nothing if any result is refused (ResultsError lists them all).
//
// # Determinism
//
// Every random draw comes from math/rand/v2 PCG sources derived from
// Config.Seed and the round number, and surrogates must be deterministic
// given Evidence.Seed. A round lost to a crash before its suggest event was
// written is therefore proposed again identically on resume.
//
// # NaN
//
// Measurements must be finite (NaN or Inf is refused). A prediction with a
// NaN mean or sigma_epistemic makes Acquisition.Scores fail instead of
// silently ranking the candidate. In the simulation report, a series entry
// with no finite value (test RMSE of the initial set) is NaN, written null
// in JSON.
package active
