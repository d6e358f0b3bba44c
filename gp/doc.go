// Package gp provides Gaussian-process building blocks on gonum: stationary
// kernels with gradients, exact GP regression with marginal-likelihood
// fitting, a sparse variational GP (SVGP) with gradients for joint training
// of a feature extractor, k-means for inducing points, and a small Adam
// optimizer.
//
// # Kernels
//
// Kernel is k(x, y) = s2 * g(r) with r^2 = sum_i (x_i - y_i)^2 / l_i^2,
// for the families RBF (g = exp(-r^2/2)), Matern-1/2 (exp(-r)), Matern-3/2
// ((1 + sqrt3 r) exp(-sqrt3 r)) and Matern-5/2
// ((1 + sqrt5 r + 5r^2/3) exp(-sqrt5 r)). Hyperparameters are held in log
// space, [log s2, log l_1, ..., log l_L] with L = 1 (isotropic) or L = d
// (ARD). Kernel.GradParams gives the gradient with respect to that vector,
// Kernel.GradX the gradient with respect to the first input (the second's is
// its negative). Matern-1/2 is not differentiable at r = 0; there the
// gradients are defined as 0, the symmetric subgradient.
//
// # Exact GP
//
// New conditions a GP on data at given hyperparameters; Fit chooses them by
// maximizing the log marginal likelihood (R&W 2006, eq. 2.30; gradient eq.
// 5.9) with gonum/optimize's L-BFGS from several seeded starts, each
// hyperparameter kept inside bounds by a sigmoid reparametrization. With
// Standardize the GP models (y - mean)/sd; LogNoise and the kernel variance
// are on that scale while Predict, Noise and LogMarginalLikelihood report
// the original scale. The posterior at x* is (R&W eq. 2.25-2.26)
//
//	mean = k*^T (K + s2n I)^-1 y
//	var  = k(x*, x*) - k*^T (K + s2n I)^-1 k*   (latent f; add Noise() for y)
//
// computed from a Cholesky factor. When K + s2n I is not numerically
// positive definite (duplicated inputs with tiny noise), jitter growing
// tenfold from 1e-10 to 1e-3 times the mean diagonal is added until the
// factorization succeeds; GP.Jitter records it. Beyond that,
// ErrNotPositiveDefinite is returned. PredictGrad returns the gradients of
// the mean and variance with respect to x*, for optimizing acquisition
// functions with a local optimizer.
//
// # Errors, NaN and panics
//
// Data (inputs, targets) with NaN or Inf is rejected with an error naming
// the row and column. Shape mismatches between a kernel, its parameter
// vector and inputs in the low-level Kernel methods and in Predict are
// programmer errors and panic with a message prefixed "gp: ". A fitted GP is
// read-only and safe for concurrent Predict calls.
package gp
