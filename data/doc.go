// Package data holds the project's own data: the embedded default (a
// synthetic screen generated deterministically from a seed, with its
// hidden ground truth) and the manifest and downloader of the public
// sources (DrugComb, NCI-ALMANAC, LINCS).
//
// # The synthetic screen
//
// Synth assembles drugs as SMILES from a fixed library of real
// medicinal-chemistry fragments (aryl and heteroaryl rings, saturated
// heterocycles, amide/ether/sulfonamide linkers, terminal groups). Two
// fragment families (fused bicycles, strained small rings) are rare: few
// drugs contain them (7 of 60 for seed 1), their latent vectors are larger,
// and pairs with such a drug are sampled with weight 1/4 per rare drug, so
// the screen has regions with few examples. Each fragment has a hidden
// latent vector; a drug's latent is the sum over its fragments, so it is a
// function of the drug's substructures and therefore learnable from Morgan
// fingerprints (the tests fit kernel ridge on Tanimoto similarities: R^2
// 0.90 on the true mean of held-out pairs, seed 1). The true synergy is a
// symmetric function of the two drugs' latents plus a cell-line effect, and
// the measurement noise is heteroscedastic (its standard deviation, 1 to 6,
// depends on the drugs and cell line). The formulas are in Synth's
// documentation. Truth (true mean, true noise variance) is
// returned with the screen and saved beside it (drugcomb.Save writes the
// true_mean and true_noise_var columns).
//
// Determinism: every draw comes from math/rand/v2's PCG seeded with
// SynthConfig.Seed, in a fixed order; the same config gives the same screen
// bit for bit.
package data
