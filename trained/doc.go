// Package trained is the file a trained model lives in: the fitted method
// (any of package model's methods or model/due's DUE) together with what it
// was trained on, so that every command that uses a model (deup predict,
// suggest, tui, campaign) reads it with one loader and scores the right drugs
// by default.
//
// What a model scores: Model.OpenScreen (the screen given, else the one it
// was trained on: its directory or the synthetic default, with whether
// its pairs changed since), Model.Signatures (what an fp+sig model needs)
// and Model.Features (the feature rows of drugs, with a report of those
// left out). Their errors ErrNoMeta, ErrNoSignatures and ScreenGoneError
// let a command say which flags to give.
//
// File layout (format 1):
//
//	magic    "DEUPTRAINED\n"
//	uint64   little-endian length L of the metadata (at most MaxMeta bytes)
//	L bytes  metadata: a JSON object (Meta)
//	rest     the method's own Save output ("DEUPMODEL\n..." or DUE's)
//
// The metadata records the method name, the screen's identity (name,
// directory, or the seed of the synthetic default; cell line, score column,
// pair count and a SHA-256 digest of the pairs trained on), the drugs (ID,
// name, PubChem CID, SMILES), for fp+sig models the drugs' L1000 signatures,
// and how the model was trained (split, seed, in-sample and out-of-sample
// pair counts, validation error and its trivial references).
//
// The optional "calibration" object (a uq.Calibrator: method, n, scores)
// holds the split-conformal scores of pairs deup train held out of all the
// pairs before the in-sample/out-of-sample split, so that neither mu nor
// sigma saw them; deup predict --coverage, suggest and tui turn it into
// intervals. It is absent when the model was trained with --calibration 0.
//
// Extending the metadata: later sections are added to Meta as optional fields with omitempty.
// Readers ignore fields they do not know, so older files stay readable and
// older programs read newer files; Format changes only for an incompatible
// layout. Files written before this package (a bare method file, starting
// with the method's own magic) still load, with Meta nil: such a model does
// not know its drugs, and commands then ask for --screen or --drugs.
package trained
