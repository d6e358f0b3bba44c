// Package platesim is a simulated screening lab: it reads a plate map
// (package plate) as a plate reader would, with a dose–response model
// whose synergy is known, so that the loop from suggested pairs to plates
// and back can be tested end to end against the truth.
//
// # The model
//
// Each drug on each cell line has a single-agent Hill curve, its
// parameters drawn from the seed and the drug's and line's names
// (math/rand/v2, streams.PlateLab, FNV-1a of the names): the maximal
// effect E in [70, 100] % inhibition, the slope h in [0.8, 2.5] and the
// IC50 log-uniform between 1/100 and 2 times the drug's top dose on the
// map:
//
//	f(x) = E · x^h / (x^h + IC50^h)
//
// Two drugs combine by Bliss independence plus an interaction of strength
// k = tanh(s/Scale), s the pair's true synergy (the synthetic screen's
// truth, Lab.Synergy; 0 for a pair it does not know): with a = f_A/100,
// b = f_B/100 and B = a + b − a·b,
//
//	y = 100·(B + δ),  δ = k·√(a·b)·(1 − a)·(1 − b)
//
// so y stays in [0, 100] (|δ| ≤ (1 − a)(1 − b) = 1 − B above and
// √(a·b) ≤ B below), the interaction is as strong either way (at most
// 14.8 % at a = b = 1/3), and a block's true Bliss synergy (doseresp's
// Bliss δ averaged over the wells with both doses > 0) is the mean of
// 100·δ over those wells: Truth.Bliss.
//
// # The reader
//
// A well of response y reads neg − (neg − pos)·y/100 counts times the
// plate's gain (uniform in [0.9, 1.1], which normalization to the plate's
// own controls removes), plus Gaussian noise of sd Noise % of (neg − pos)
// times 0.25 + 0.75·(x − pos)/(neg − pos) for a well that reads x (a
// quarter additive, three quarters proportional to the signal: the full
// Noise at the vehicle's level, a quarter of it at full inhibition);
// negative controls read y = 0, positive controls y = 100, empty wells a
// background of 1 % of pos. The outer ring of wells loses EdgeLoss of its
// signal (evaporation), and the plate BadPlate (1-based, 0 none) reads
// with ten times the noise, which puts its Z′ below 0.5. Counts are
// rounded to whole numbers, as readers export them.
package platesim
