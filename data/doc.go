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
// fragment families (fused bicycles, strained small rings) are rare
// chemotypes: about one drug in five contains one (13 of 60 for seed 1),
// their latent vectors are larger, they carry a large effect whose sign
// depends on the partner drug, and pairs with such a drug are sampled with
// weight 1/4 per rare drug, so the screen has regions with few examples
// where a model's error is large (kernel ridge on fingerprints: test MSE
// 166 on pairs with a rare drug against 20 on the others, seed 1). Each
// fragment has a hidden latent vector; a drug's latent is the sum over its
// fragments, so it is a function of the drug's substructures and therefore
// learnable from Morgan fingerprints (the tests fit kernel ridge on
// Tanimoto similarities: R^2 0.81 on the true mean of held-out pairs, seed
// 1). The true synergy is a symmetric function of the two drugs' latents
// plus a cell-line effect, and the measurement noise is strongly
// heteroscedastic: its standard deviation, 1 to 12, is set by the drugs
// and cell line (5th–95th percentile 1.3–9.0 for seed 1). The formulas are
// in Synth's documentation. Truth (true mean, true noise variance) is
// returned with the screen and saved beside it (drugcomb.Save writes the
// true_mean and true_noise_var columns).
//
// Determinism: every draw comes from math/rand/v2's PCG seeded with
// SynthConfig.Seed, in a fixed order; the same config gives the same screen
// bit for bit.
package data
