// Package nn is the project's network kit: the building blocks of every
// neural network in the tree, on gorgonia (the graph and autodiff engine;
// only this package and its subpackages import it), with the project's
// own kernels (package internal/kernels) as gorgonia ops where they beat
// gorgonia's.
//
// Ops (Graph methods; each writes into tensors it keeps from run to run,
// so a compiled graph allocates little per step):
//   - SparseMul: CSR rows (SparseBatch, filled from the one sparse-row type
//     CSR) times a dense weight, nnz·out multiply-adds, with its transposed
//     gradient Xᵀ·G that only rewrites and clears the rows it must;
//   - Dense: the GEMM of internal/kernels (GOMAXPROCS workers), no input
//     gradient for data inputs (Input); AddBias, Linear;
//   - for both, a weight gradient whose state graphs share (SparseGrad,
//     DenseGrad) can be fused into the optimizer's step (Fuse; then
//     AdamStepSparse, AdamStep): the graph only records the product's
//     operands and the gradient is computed a block of rows at a time
//     inside optim.Adam.StepRows, never stored whole (the same numbers);
//   - ReLU, Softplus (gorgonia's formulas), Mask (dropout with seeded
//     masks, Dropout);
//   - Loss: MSE, Gaussian NLL, cross-entropy, one op forward and one back;
//   - SpectralNorm (a weight divided by max(1, σ/coeff), σ from a seeded
//     power iteration, one iteration per step, gradient through σ with u
//     and v held fixed, as PyTorch's spectral_norm), and the fused
//     SpectralSparseMul and SpectralLinear, which compute scale·(X·W)
//     without building the normalized weight (DUE's extractor);
//   - ExternalLoss: a loss computed outside the graph (DUE's SVGP −ELBO)
//     feeding its gradient with respect to a node back into the graph;
//   - gorgonia's own elementwise ops for the rest (Add, Sub, Square, …).
//
// Every gradient is checked against finite differences (grad_test.go).
//
// Also: one seeded initializer (InitLinear, PyTorch's nn.Linear default),
// one parameter file format (Params.Save/Load), and the small dense MLP
// with its Trainer (one compiled graph per Trainer, reused every step;
// inference by a hand-written forward pass on the parameters, no graph).
// The optimizer is nn/optim's Adam (per-parameter step counts, PyTorch's
// coupled weight decay).
//
// Graph construction is serialized package-wide (gorgonia's builder is
// not safe for concurrent use); compiled graphs run concurrently.
//
// Graphs and their gradients are built by gorgonia (its ExprGraph and
// symbolic Grad); Graph.Run executes the compiled program itself, each
// op's Do in topological order, instead of gorgonia's TapeMachine, whose
// RunAll locks an OS thread and starts a goroutine per run (about 80 µs
// of a 6→50→3 MLP step at batch 64 went there).
package nn
