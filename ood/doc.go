// Package ood is DEUP for rejecting difficult examples (Lahlou et al.,
// TMLR 2023, §5.3.2 and its appendix): predict, for each input, the loss a
// main predictor will make, from stationarizing features that say how far
// the input is from the training data, so that inputs unlike anything
// measured can be set aside. It is generic: it imports deup and uq, never a
// drug-specific package.
package ood
