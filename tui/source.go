package tui

import (
	"context"
	"fmt"

	"github.com/deup-screening/deup/drugcomb"
)

// Column identifies a column of the pairs table. The order is the order on
// screen and the number keys 1–9 sort by it.
type Column int

// The columns of the pairs table.
const (
	ColDrugA Column = iota
	ColDrugB
	ColCellLine
	ColMeasured
	ColMu
	ColSigmaTotal
	ColSigmaEpistemic
	ColSigmaAleatoric
	ColAcquisition
	NumColumns
)

var columnTitles = [NumColumns]string{"drug A", "drug B", "cell", "meas", "μ", "σ_tot", "σ_epi", "σ_ale", "acq"}

// String returns the column's title as shown in the table header.
func (c Column) String() string {
	if c < 0 || c >= NumColumns {
		return fmt.Sprintf("Column(%d)", int(c))
	}
	return columnTitles[c]
}

// Numeric reports whether the column holds numbers (sorted largest first by
// default) rather than names (sorted A to Z by default).
func (c Column) Numeric() bool { return c >= ColMeasured && c < NumColumns }

// Measured selects pairs by whether the screen measured them.
type Measured int

// The measured filters.
const (
	AnyMeasured    Measured = iota // measured and unmeasured pairs
	OnlyMeasured                   // pairs the screen measured
	OnlyUnmeasured                 // pairs with a prediction only
)

func (m Measured) String() string {
	switch m {
	case OnlyMeasured:
		return "measured"
	case OnlyUnmeasured:
		return "unmeasured"
	default:
		return "all"
	}
}

// Query selects and orders rows. The zero value is not useful (Drug and
// CellLine 0 select the first drug and cell line); start from AllRows.
type Query struct {
	Sort Column // column to order by
	Desc bool   // largest first; NaN values always come last
	// Text keeps the pairs where either drug's name or ID contains Text,
	// case-insensitively; "" keeps all.
	Text     string
	Drug     int // keep only pairs with this drug (index into Info.Drugs); -1 keeps all
	CellLine int // keep only pairs on this cell line (index into Info.CellLines); -1 keeps all
	Measured Measured
}

// AllRows returns the query that keeps every row, ordered by acquisition
// score, largest first.
func AllRows() Query {
	return Query{Sort: ColAcquisition, Desc: true, Drug: -1, CellLine: -1}
}

// Row is one pair of the table: a (drug, drug, cell line) with its
// measurement, if any, and its prediction. Missing numbers are NaN.
type Row struct {
	Index    int // position in the source (stable across queries)
	A, B     int // indices into Info.Drugs, A < B
	CellLine int // index into Info.CellLines
	Pair     int // index into the screen's Pairs, or -1 when unmeasured

	Measured       float64 // mean measured score (first score column); NaN when unmeasured
	Replicates     int     // number of replicate measurements; 0 when unmeasured
	MeasuredSD     float64 // replicate standard deviation; NaN with fewer than 2 replicates
	Mu             float64 // predicted mean score
	SigmaTotal     float64 // predicted total (out-of-sample) uncertainty
	SigmaEpistemic float64 // predicted epistemic uncertainty
	SigmaAleatoric float64 // predicted aleatoric uncertainty
	Acquisition    float64 // acquisition score
}

// IsMeasured reports whether the screen measured the pair.
func (r Row) IsMeasured() bool { return r.Pair >= 0 }

// Info describes a source: what its rows index into.
type Info struct {
	Name        string          // screen name
	ScoreName   string          // name of the measured score, e.g. "combo_score"
	Drugs       []drugcomb.Drug // indexed by Row.A and Row.B
	CellLines   []string        // indexed by Row.CellLine
	Scores      []float64       // measured scores of the screen, sorted ascending, no NaN
	Acquisition string          // how the acquisition column is computed, e.g. "μ + 1·σ_epistemic"
	Similarity  string          // how Nearest ranks measured pairs, e.g. "shared drugs"
	SigmaNote   string          // how the model bounds σ, shown in the pair detail ("": nothing to say)
}

// Rows is an immutable, ordered selection of rows: the result of a query.
// Implementations must be safe to read from several goroutines.
type Rows interface {
	Len() int
	Row(i int) Row // the i-th row in query order, 0 <= i < Len()
}

// Source is what the UI browses: every (drug, drug, cell line) pair with a
// prediction or a measurement. Query and Nearest may take long on millions of
// rows: the UI calls them only from tea.Cmds, never from Update or View, and
// passes a context it cancels when the answer is no longer wanted. Row and
// Info must be cheap (View calls Row for the visible rows only).
type Source interface {
	Info() Info
	Len() int
	Row(i int) Row // by Row.Index
	Query(ctx context.Context, q Query) (Rows, error)
	// Nearest returns up to k measured pairs most similar to row i, most
	// similar first.
	Nearest(ctx context.Context, i, k int) ([]Row, error)
}
