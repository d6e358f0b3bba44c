// Package pairs is the in-memory row source of the terminal UI: every
// (drug, drug, cell line) pair of a screen with its measurement and its
// prediction, stored column-wise so that millions of pairs stay small and
// fast (8,592,585 unordered pairs of the 4,146-drug DrugComb catalogue take
// 38 bytes each).
//
// Storage: one slice per column (int32 drug indices, uint16 cell lines,
// float32 numbers; NaN for missing). A query never copies rows: it returns a
// View, a permutation []int32 of row indices.
//
// Queries filter in one pass (a precomputed per-drug match table makes the
// name search O(rows)) and sort with a stable least-significant-digit radix
// sort (three passes of 11 bits) over 64-bit keys holding the column value
// mapped to an order-preserving 32-bit integer and the row index: O(rows),
// ties in row order, NaN values last whichever the direction; sorted by
// cell line, each line's rows come by acquisition, largest first. A query checks
// its context between blocks of rows, so a cancelled query stops quickly.
//
// Acquisition: a prediction without its own acquisition score gets
// μ + κ·σ_epistemic (upper confidence bound on the epistemic uncertainty),
// κ = Builder.Kappa, NewBuilder's kappa: the commands pass the κ of the
// "ucb" acquisition of deup suggest and of campaigns (active.DefaultKappa,
// one constant) or --kappa. The active-learning package owns the
// acquisition functions; this package takes κ as a parameter and does not
// import it.
//
// Nearest measured pairs: the similarity of pairs (a,b) and (c,d) is
// max((s(a,c)+s(b,d))/2, (s(a,d)+s(b,c))/2) for a drug similarity s
// (Table.Similarity; nil means identity: 1 for the same drug, 0 otherwise,
// so pairs sharing both drugs come first, then pairs sharing one). Ties prefer
// the same cell line, then row order. Pairs of similarity 0 are not returned.
//
// What deup tui shows is decided here too: the screen (WhichScreen) and the
// cell lines its predictions go on (ChooseLines), from values the command
// passes in (the flags, the model's trained.Screen).
//
// A Table is immutable after Build and safe for concurrent readers.
package pairs
