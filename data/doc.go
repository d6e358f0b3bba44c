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
// fragment families (fused bicycles, strained small rings) are rare, so the
// drugs that contain them are far from most of the training data and carry
// more epistemic uncertainty. Each fragment has a hidden latent vector; a
// drug's latent is the sum over its fragments, so it is a function of the
// drug's substructures and therefore learnable from Morgan fingerprints.
// The true synergy is a symmetric function of the two drugs' latents plus a
// cell-line effect, and the measurement noise is heteroscedastic (its
// standard deviation depends on the drugs and cell line). The formulas are
// in Synth's documentation. Truth (true mean, true noise variance) is
// returned with the screen and saved beside it (drugcomb.Save writes the
// true_mean and true_noise_var columns).
//
// Determinism: every draw comes from math/rand/v2's PCG seeded with
// SynthConfig.Seed, in a fixed order; the same config gives the same screen
// bit for bit.
package data
