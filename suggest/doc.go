// Package suggest writes and reads a batch of suggested experiments: the
// drug pairs a scientist (in the terminal UI) or an acquisition function (in
// `deup suggest`) picked for the next round of a screen.
//
// From a trained model (deup suggest --model): Where resolves the cell
// lines and score it suggests on, Predict scores the unmeasured pairs
// there (with calibrated intervals when asked) and Candidates.Pick ranks
// them with an acquisition function into the rows of the file.
//
// A file holds one row per suggestion with these columns, in this order:
//
//	rank                  1 for the first suggestion
//	drug_a_id             the first drug's ID in the screen
//	drug_a_name           its name; empty when it has none of its own
//	                      (drugcomb.Drug.OwnName: a catalogue without names
//	                      gives a drug its PubChem CID, written in the next
//	                      column, not repeated here)
//	drug_a_pubchem_cid    its PubChem CID; missing (empty, null) when unknown
//	drug_a_smiles         its SMILES; empty when unknown
//	drug_b_id, drug_b_name, drug_b_pubchem_cid, drug_b_smiles   the same for the second drug
//	cell_line
//	mu                    predicted mean score
//	sigma_total           predicted total (out-of-sample) uncertainty
//	sigma_epistemic       predicted epistemic uncertainty
//	sigma_aleatoric       predicted aleatoric uncertainty
//	lower, upper          calibrated prediction interval of the score (deup
//	                      suggest from a model with a calibration, at the
//	                      coverage it states); missing when there is none
//	acquisition           acquisition score that ranked the suggestion
//	reason                why it was suggested, free text
//
// The format follows the file name's extension: ".csv" (RFC 4180, header
// row, numbers in Go's shortest round-trip form), ".parquet" (Arrow types
// int64, utf8 and float64; nullable), ".json" (an array of objects keyed by
// the column names). A missing number (NaN, or a PubChem CID of 0) is written
// as an empty CSV field, a Parquet null or a JSON null, and read back as NaN
// (or 0). JSON cannot hold infinities: writing one is an error.
//
// Files written before docs/vocabulary.md, with the names under drug_a and
// drug_b, still read.
//
// Readers check the header or schema (every column present, no unknown
// column; lower and upper may both be absent, as in files written before
// they existed, and a row has both or neither) and report bad values with their line and column (CSV), row and
// column (Parquet) or byte offset (JSON). Writing a file goes through a
// temporary file in the same directory renamed into place, so a crash never
// leaves half a batch under the final name.
package suggest
