// Package almanac reads NCI-ALMANAC as the NCI distributes it: the
// dose-level wells file ComboDrugGrowth (CSV, or the official zip read
// without unpacking), the compound names (NSC -> name) and the structures
// of ComboCompoundSet.sdf, and turns them into NCI's ComboScores and a
// drugcomb screen.
//
// # Wells to ComboScore
//
// Import streams the wells. A single-agent well (NSC2 empty) gives the
// percent growth of its drug at its concentration on its plate (a plate is
// STUDY, PLATE and CELLNAME; several wells of one drug and concentration
// on a plate are averaged). A combination well's expected growth is NCI's
// rule (ALMANAC_DataFields.txt) applied to the same-plate growths g1, g2 of
// its two drugs at its two concentrations:
//
//	min(g1, g2)                         if g1 < 0 or g2 < 0
//	min(g1, 100) * min(g2, 100) / 100   otherwise
//
// and its score is expected minus observed growth, rounded half away from
// zero to an integer as NCI's NUMBER(4) column stores it. The ComboScore of
// an ordered pair (NSC1, NSC2 as the file orders them; NCI keeps both
// orders apart) on a cell line is the sum of its well scores on a plate,
// averaged over the plates that measured it. The recomputed expected
// growth and score are checked against the file's EXPECTEDGROWTH (within
// Options.Tolerance) and SCORE, and disagreements are reported.
//
// Every well is accounted for: WellsRead = ScoredWells + ReferenceWells +
// the wells not used, counted by reason (invalid, no percent growth, unit,
// missing partner, single-agent only) with their first file:line examples.
//
// # Memory
//
// A plate is resolved (scored and released) once Options.PlateWindow other
// plates have had rows after its last row; NCI's file keeps a plate's rows
// together, so memory is bounded by the window, the accumulators of the
// ordered pairs and lines, and one key per plate seen, not by the number
// of wells.
//
// # Dose level
//
// Options.Block receives each plate-block's scored wells (concentrations,
// growths of the combination and of each drug alone, expected growth) as
// its plate is resolved: the point where a dose-response scorer (Bliss,
// HSA, Loewe, ZIP) can take them. No such scorer is called here.
//
// # Screen
//
// BuildScreen maps NSC numbers to drugs (NSCs with one name are one drug),
// takes structures from the SDF as SMILES written from the molecule graph,
// or from a catalogue for those RDKit refuses, and aggregates the
// ComboScores per unordered pair and cell line (both orders and every
// plate are replicates) into a drugcomb.Screen with the score combo_score.
package almanac
