// Package gp provides Gaussian-process building blocks on gonum: stationary
// kernels with gradients, exact GP regression with marginal-likelihood
// fitting, a sparse variational GP (SVGP) with gradients for joint training
// of a feature extractor, and k-means for inducing points (the optimizer
// is the project's one Adam, package nn/optim).
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
// # Sparse variational GP
//
// SVGP follows Hensman et al. (2015) in the whitened form of GPyTorch's
// VariationalStrategy: M inducing inputs Z, Kzz = k(Z, Z) + 1e-6 s2 I =
// Lz Lz^T, u = c + Lz v with a constant mean c, q(v) = N(m, S), S = L L^T
// (L lower triangular, unconstrained), p(v) = N(0, I). With
// a(x) = Lz^-1 k(Z, x) the marginal is q(f(x)) = N(c + a^T m,
// k(x, x) - a^T a + a^T S a), and on a minibatch of B of n points
//
//	ELBO = (n/B) sum_i [-1/2 log(2 pi s2n) - ((y_i - mu_i)^2 + var_i)/(2 s2n)]
//	       - 1/2 (tr S + m^T m - M - log|S|).
//
// ELBO returns the gradient with respect to every parameter, flattened as
// SVGPLayout describes (kernel, log noise, c, m, lower triangle of L, Z), and
// optionally with respect to the inputs X, so that a feature extractor can
// be trained through it. The backward pass through Lz uses the Cholesky
// derivative of Murray (2016): Kbar = Lz^-T Phi(Lz^T Lbar) Lz^-1 with Phi
// taking the lower triangle and halving the diagonal. SetOptimalQ sets q to
// the Titsias (2009) optimum for fixed hyperparameters, with which an SVGP
// whose Z equals the training inputs reproduces the exact GP. KMeans
// (k-means++ seeding, Lloyd iterations) places inducing points. Train the
// flat parameter vector (Params, SetParams) with nn/optim's Adam on the
// negated ELBO gradient.
//
// # Errors, NaN and panics
//
// Data (inputs, targets) with NaN or Inf is rejected with an error naming
// the row and column. Shape mismatches between a kernel, its parameter
// vector and inputs in the low-level Kernel methods and in Predict are
// programmer errors and panic with a message prefixed "gp: ". A fitted GP is
// read-only and safe for concurrent Predict calls.
package gp
