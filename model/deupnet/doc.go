// Package deupnet is DEUP on package model's two-tower network: the σ
// path's training (the error predictor of the paper's Algorithm "DEUP for
// Drug Combinations"), its stationarizing σ features (sigmafeat.go,
// sigmadyn.go), the aleatoric estimate (aleatoric.go), the excess link
// that keeps the epistemic part positive (excess.go) and the novelty scale
// for new chemistry (novelty.go). New builds an untrained DEUP from a
// Config (the shared network's model.Config and the σ path's Options);
// Save writes it in package model's file format (method "deup"), Load
// reads it back.
//
// # DEUP training: which parameters each update touches
//
// Parameter sets: tower = {t1.w, t1.b, t2.w, t2.b}; combined = {c1.w,
// c1.b, c2.w, c2.b}; μ head = {mu.w, mu.b}; σ path = {s1.w, s1.bit, s1.b,
// s2.w, s2.b, sig.w, sig.b}.
//
//   - In-sample step (a minibatch of split.Train, s = 0): Gaussian NLL
//     log σ + (μ−y)²/(2σ²) (the constant log √(2π) dropped); updates tower,
//     combined, μ head and σ path.
//   - Out-of-sample step (a minibatch of split.Val, s = 1): the same NLL
//     with μ from the network (μ does not depend on s, so it is the bit-0 μ)
//     and σ with s = 1; updates the σ path only. Tower, combined network and
//     μ head, and their Adam moments and step counts, are untouched (tested
//     bit for bit): the gradient is requested only for the σ path, so
//     nothing flows into μ or the tower.
//
// Each epoch runs one in-sample step per training minibatch, each followed
// by one out-of-sample step (validation minibatches cycle, reshuffled).
// Early stopping: after each epoch the validation RMSE of μ is computed
// (the validation split never updates μ, so it is a fair criterion); the
// best epoch's parameters are restored after Patience epochs without
// improvement or MaxEpochs. At prediction μ comes from bit 0 and
// σ_total from bit 1.
//
// σ refit (sigmafit.go): μ's best epoch is not the σ path's; at the
// default learning rate the σ path is often far from fitted there. With
// the tower, combined network and μ head frozen (so the pair embeddings
// and μ's out-of-sample errors are stationary), the σ path alone takes
// out-of-sample steps (bit 1) on a seeded half of split.Val, early-stopped
// (patience 20, at most 200 epochs) on the out-of-sample NLL of the other
// half (with Config.SigmaLoss "log", steps and criterion are instead the
// regression of log σ on log |μ−y|, and σ is then multiplied by the other
// half's Gaussian maximum-likelihood scale); the best epoch's σ parameters are kept, and the state the joint
// phase left is a candidate, so the refit never raises that held-out NLL
// (tested, with the frozen groups bit-identical). Skipped with fewer than
// 20 validation pairs.
//
// Aleatoric/epistemic split: a(x), the noise variance of one
// measurement, pools the replicate variances of train ∪ val with
// empirical-Bayes shrinkage per drug (Smyth 2004's moderated variances,
// aleatoric.go), with a level per cell line on a screen of several (drug
// within line, line within screen): no threshold on the replicated pairs,
// one replicated pair gives a (wide) estimate; none gives σ_aleatoric = 0
// (AleatoricNote says which). A training target is a mean of RepN
// measurements on average, so σ_aleatoric² = a(x)/RepN. The total error is
// e(x) = a(x)/RepN + u(x), u(x) = τ softplus((c·s(x) − a(x)/RepN)/τ) > 0
// (excess.go): s(x) the σ path's squared output, (c, τ) the
// maximum-likelihood fit of the validation pairs' out-of-sample residuals,
// so that e ≥ a holds by construction (the paper's u = e − a ≥ 0) instead
// of two separate estimates crossing and max(e − a, 0) clipping u to 0;
// e(x) is then scaled for new chemistry by 1 + β₁ν + β₂ν² (novelty.go: ν
// the effective number of unseen drugs, β fitted on a held-out-drug fold),
// σ_total² = e(x) and σ_epistemic² = e(x) − σ_aleatoric². Files written
// before the link keep σ_aleatoric² = min(a(x)/RepN, e(x)).
package deupnet
