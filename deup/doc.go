// Package deup is the generic core of DEUP, Direct Epistemic Uncertainty
// Prediction (Lahlou et al., TMLR 2023): a secondary predictor e learns the
// out-of-sample loss of a main predictor h from "stationarizing features"
// phi_z(x) of the current training set z, and the epistemic uncertainty is
//
//	u(x) = e(phi_z(x)) - a(x)
//
// with a(x) an aleatoric estimate (0 for a noiseless oracle).
//
// The package owns the small interfaces it consumes and imports no
// drug-specific package: a Learner fits a Predictor (the main predictor, the
// error predictor's regressor, the aleatoric regressor); a VarianceLearner
// fits a VarianceModel (the v feature); an ErrorLearner fits e on D_e.
// LogErrors turns any Learner into an ErrorLearner trained on log losses, as
// in the paper (e = exp(g(phi)) - floor, clipped at 0). Subpackage mlp has a
// small MLP Learner; GP wraps the exact GP of package gp (Learner,
// VarianceLearner and, through a Predictor with a Variance method, the
// source of the v feature without a second fit).
//
// Features (paper §3.2), selected by name with ParseFeatures, in the order
// of the vector: "x" the input, "d" log q(x|z) of a Gaussian KDE (Scott,
// Silverman or leave-one-out likelihood bandwidth), "v" log max(V(z, x),
// VarFloor), "b" 1 if x is (bit-for-bit) a training input, else 0.
//
// Algorithms: FitFixed is Algorithm 1 (fixed training set, validation set for
// D_e); Prefill is Algorithm 2 (K-fold pre-filling of D_e from the initial
// data, optionally with in-sample losses as in the paper's SMO runs); Loop
// is Algorithm 3 (each acquired point is an out-of-sample example for the
// predictor that chose it). ReplicateVariance and FitAleatoric build a(x)
// from replicates: targets K/(K-1) times the empirical variance.
//
// NaN behaviour: Fit functions reject NaN and infinite inputs and losses
// with an error; Predict on a NaN input returns NaN (the error predictor's
// output is clipped at 0 only for finite values). Randomness comes only
// from the *rand.Rand (math/rand/v2) passed in. Nothing here logs or keeps
// package-level state. Models are immutable after fitting and safe for
// concurrent prediction if their parts are; a Loop is not.
package deup
