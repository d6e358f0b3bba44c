// Package active runs active-learning campaigns over drug-combination
// screens: each round it fits a surrogate model on the measured pairs,
// scores the open candidate pairs with an acquisition function, proposes a
// batch, and records the measurements that come back, every step durably in
// a ledger (package active/ledger).
//
// # Pieces
//
// The root holds the campaign's vocabulary and state; the models and the
// simulations have their own rooms:
//
//   - Vocabulary (types.go): PairOnLine (a pair by index into the campaign's
//     drugs and cell lines), Measurement, SurrogatePrediction (mu and the
//     sigmas a surrogate gives a candidate), Evidence, and the two small
//     interfaces a campaign consumes: Surrogate (Fit on Evidence, Predict
//     candidates) and Oracle (measures pairs; TableOracle answers from a
//     measured screen, built by ScreenTable; SplitInitial, AllUnmeasured
//     and TopFraction cut it, table.go).
//   - Acquisition (acquisition.go, diversity.go, rank.go, calibrated.go):
//     UCB mu + kappa*sigma_epistemic, EI (expected improvement over the
//     best measured score), Thompson (one draw from N(mu,
//     sigma_epistemic^2) per candidate, seeded), Greedy (mu), Explore
//     (sigma_epistemic), Random. An ExploreWeight w in [0, 1] (the CLI's
//     --explore) blends any of them but Random with Explore by rank:
//     (1-w) r(score) + w r(sigma_epistemic). SelectBatch takes the B best
//     scores, ties to the lower index, optionally with no drug more than k
//     times per batch.
//   - The joint, calibrated batch (joint.go): BUCB, BEI and BThompson
//     read sigma_epistemic scaled by f = q/z, q the split-conformal
//     quantile at CalibrationCoverage (0.9) of |y - mu|/sigma_total over
//     the campaign's measured suggestions (SigmaScale; f = 1 before 9), so
//     that BUCB is the upper end of the calibrated 90 % interval, not a
//     hand-set kappa. SelectJoint then picks the batch one pair at a time,
//     a kriging believer (GP-BUCB with UCB): after each pick p, every
//     candidate's sigma shrinks as a GP posterior would after measuring p
//     at its mean, s_j^2 *= 1 - k_j^2 s_p^2/(s_p^2 + a_p^2), k an RBF
//     kernel on the surrogate's input vectors (Featurizer) with the
//     median heuristic's length-scale (MedianSqDist), a_p the pick's
//     aleatoric sigma. Chosen over local penalization (a Lipschitz
//     constant to estimate) and a DPP (a quality-diversity weight to
//     choose) because it needs only the sigma the model gives and one
//     length-scale taken from the data; no setting was chosen from a
//     campaign's outcome (docs/campaigns.md). A campaign records f, the
//     number of calibration pairs and the length-scale in each suggest
//     event; Rank (deup suggest) refuses these kinds. CUCB and JUCB are
//     BUCB's two halves, for its ablation: CUCB the calibrated score with
//     the top of one ranking, JUCB the joint batch at f = 1 (on PC-3 and
//     the panel the joint batch gives bucb's gain, the calibration none
//     on top of it: docs/campaigns.md).
//   - State (campaign.go, start.go, results.go): a campaign's state
//     replayed from a Store (the on-disk ledger or an in-memory store):
//     Create, Load, Propose/ProposeWith, Record, CloseRound, Step; the
//     results and candidate files a live campaign reads; Report, its
//     rounds as deup campaign report shows them.
//
// Elsewhere:
//
//   - package active/surrogate: the models a campaign fits, by name
//     (surrogate.NewFor, surrogate.ForCampaign): interactive DEUP
//     (InteractiveDEUP, below) with a Bayesian-ridge main predictor
//     ("deup-ridge") or package model's two-tower network ("deup-net", the
//     CLI default), Ridge (Bayesian linear regression), RidgeEnsemble
//     (bootstrap ensemble of Bayesian ridges), NetMethod (package model's
//     Deep Ensemble, MC-Dropout and two-head DEUP used directly:
//     "ensemble-net", "mcdropout-net", "twohead-net"), and the drug
//     encoders they read (surrogate.NewEncoder). Its doc states
//     interactive DEUP (paper Alg. 3 with the Alg. 2 pre-fill).
//   - package active/simulate: retrospective campaigns of several
//     strategies and seeds on a measured screen (simulate.Run) and their
//     per-round summaries; package active/simreport writes their report.
//   - package active/ledger: the durable event log a campaign is replayed
//     from.
//   - package active/campaign: a campaign kept in a directory (its ledger
//     and campaign.json), its rounds run as the deup commands and deup tui
//     do.
//   - package active/activetest: the fixtures the tests of these packages
//     share.
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
