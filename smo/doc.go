// Package smo is sequential model optimization, the paper's first use of
// DEUP (Lahlou et al. 2023, §5.1 and App. "Sequential Model Optimization"):
// maximize a black-box function from a few random points, one acquisition per
// step, with Expected Improvement on the mean and standard deviation of a
// surrogate.
//
// Functions (Function, Lookup): the 1-D multi-optima function
// sin(x) cos(5x) cos(22x) on [-1, 2] (global max 0.94989491954321081 at
// x = 1.857228462953138, found by a 3e7-point grid refined by golden-section
// search), Levy N.13 negated on [-10, 10]^2 (max 0 at (1, 1)), Ackley-d on
// [-10, 15]^d with A = 20, B = 0.2, c = 2 pi (max 0 at the origin).
//
// Methods (Run): "random"; "gp-ei" (exact GP, Matern-5/2, ARD when d > 1,
// hyperparameters by marginal likelihood with restarts, standardized
// targets); "deup-ei" (deup.Loop, Algorithm 3, pre-filled by Algorithm 2
// with halves, swapped roles, two partitions and in-sample losses: 4 entries
// per initial point; the main predictor is the paper's 3x128 ReLU MLP for
// d <= 2 and a GP above; features x and log GP variance with an MLP, log GP
// variance alone with a GP; the error predictor a Matern-5/2 GP on log
// squared errors; EI on N(h(x), e(phi(x)))); "mcdropout-ei" (dropout 0.3,
// 100 passes) and "ensemble-ei" (3 networks); "turbo-ei" (TuRBO-1 with
// BoTorch's TuRBO-tutorial state and GP) and "turbo-deup-ei" (the same trust
// region, with DEUP calibrating the GP's variance inside it).
//
// All models work on the unit cube (inputs scaled from the box). EI is
// maximized by Maximizer: uniform random candidates, then Nelder-Mead
// (gonum/optimize) from the best ones on the clamped objective. A run is
// reproducible from its seed: the initial design depends on the seed alone
// (shared by all methods), every other draw on seed and method name.
//
// Deviations from the paper's BoTorch code, stated so results can be read:
// GPs have no hyperparameter priors (BoTorch's SingleTaskGP puts Gamma priors
// on lengthscale and outputscale); the MLP is trained for 500 full-batch
// Adam epochs (the paper does not give a number); a TuRBO restart (length
// below 0.5^7) resets the trust region but keeps the data; DEUP's error GP
// has lengthscales of at least 0.1 feature span and, by default, a prior
// log-error level of log Var(y_init) (Options.ErrorPrior).
package smo
