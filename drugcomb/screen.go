package drugcomb

// Drug is one row of a screen's drugs table.
type Drug struct {
	ID         string // unique within the screen (for ALMANAC: the PubChem CID as text)
	Name       string // display name; may equal ID
	PubChemCID int64  // 0 when unknown
	SMILES     string // "" when unknown
}

// Pair is one unordered (drug, drug, cell line) combination with its
// replicate measurements aggregated. A < B always: (a,b) and (b,a) are the
// same pair.
type Pair struct {
	A, B     int       // indices into Screen.Drugs, A < B
	CellLine int       // index into Screen.CellLines
	N        int       // number of replicate measurements aggregated (>= 1)
	Mean     []float64 // per score column (Screen.ScoreNames): mean over replicates; NaN where no replicate had that score
	Var      []float64 // per score column: sample variance (n-1 denominator); NaN where fewer than 2 replicates
}

// Truth is the hidden ground truth of a synthetic screen, aligned with
// Screen.Pairs. Real screens have none.
type Truth struct {
	Mean     []float64 // true expected score of each pair (first score column)
	NoiseVar []float64 // true variance of one replicate measurement of each pair
}

// Screen is the canonical in-memory form of a screen.
type Screen struct {
	Name       string
	ScoreNames []string // names of the score columns, e.g. ["combo_score"]
	CellLines  []string
	Drugs      []Drug
	Pairs      []Pair
	Truth      *Truth // nil for real screens
}

// Split partitions pair indices (into Screen.Pairs) into train, validation
// and test sets. The three are disjoint and, for a random split, cover every
// pair.
type Split struct {
	Train, Val, Test []int
}
