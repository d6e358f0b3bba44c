package doseresp

import "math"

// Synergy is one reference model of drug interaction: a row of the score
// table (Synergies). Everything that names the synergy scores reads the
// table: Score computes a Surface per row, Tables writes a wells column and
// a blocks column per row (and a blocks column per Fallback), Scores lists
// the rows' names as screen targets, WritePlots draws a heat map per row,
// and the command layer's help names them. A new score is one row and its
// Delta function.
type Synergy struct {
	// Name is the score's column in the wells and blocks tables and its
	// name as a screen target ("zip"): lower case, no spaces.
	Name string
	// Title names the score in plots and help ("ZIP").
	Title string
	// Delta returns the per-well synergy δ of a block: the block's shape,
	// 0 on the single-drug row and column, NaN where undefined; and the
	// number of fallbacks it took (see Fallback; 0 for a model without).
	// It must not change f.
	Delta func(f *Fitted) (delta [][]float64, fallbacks int)
	// Fallback names what Delta's count counts; the zero value for a model
	// that takes no fallback (then no column or report entry is written).
	Fallback Fallback
}

// Fallback describes the places where a reference model could not be
// evaluated as stated and used its documented fallback.
type Fallback struct {
	Column string // column of the blocks table ("zip_unsmoothed")
	Key    string // key of the data report's JSON ("zip_unsmoothed_lines")
	Text   string // in the data report's text ("ZIP lines left unsmoothed")
}

// Fitted is a block as a reference model sees it: the responses as scored
// (% inhibition after baseline correction; Response[i][0] the row drug
// alone, Response[0][j] the column drug alone), the doses and the two
// single-drug fits.
type Fitted struct {
	Response         [][]float64
	ConcRow, ConcCol []float64
	RowFit, ColFit   Curve
}

// Surface is one reference model's synergy on one block.
type Surface struct {
	Synergy Synergy     // the row of the score table
	Wells   [][]float64 // δ per well (the block's shape; 0 on the single-drug row and column)
	// Mean is the block's score: the mean of Wells over the wells with
	// both doses > 0 (NaN ones left out).
	Mean      float64
	Fallbacks int // as counted by Synergy.Delta
}

// Synergies returns the score table of DrugComb's pipeline, in the order of
// the tables' columns: ZIP, Loewe, HSA and Bliss (see the package doc for
// their formulas). Each call returns a new slice, which the caller may
// extend with its own rows and pass as Options.Synergies.
func Synergies() []Synergy {
	return []Synergy{
		{Name: "zip", Title: "ZIP", Delta: func(f *Fitted) ([][]float64, int) {
			return zip(f.Response, f.ConcRow, f.ConcCol, f.RowFit, f.ColFit)
		}, Fallback: Fallback{Column: "zip_unsmoothed", Key: "zip_unsmoothed_lines", Text: "ZIP lines left unsmoothed"}},
		{Name: "loewe", Title: "Loewe", Delta: func(f *Fitted) ([][]float64, int) {
			return loewe(f.Response, f.ConcRow, f.ConcCol, f.RowFit, f.ColFit)
		}, Fallback: Fallback{Column: "loewe_fallback", Key: "loewe_fallback_wells", Text: "Loewe fallback wells"}},
		{Name: "hsa", Title: "HSA", Delta: func(f *Fitted) ([][]float64, int) { return HSA(f.Response), 0 }},
		{Name: "bliss", Title: "Bliss", Delta: func(f *Fitted) ([][]float64, int) { return Bliss(f.Response), 0 }},
	}
}

// Sensitivity scores that a screen can take as its target besides the
// synergies (Summary's CSS and S).
const (
	ScoreCSS = "css"
	ScoreS   = "s"
)

// Scores are the block scores a screen can take as its target with the
// default table: css, the Synergies' names (zip, loewe, hsa, bliss) and s.
func Scores() []string { return targets(Synergies()) }

func targets(syn []Synergy) []string {
	out := []string{ScoreCSS}
	for _, s := range syn {
		out = append(out, s.Name)
	}
	return append(out, ScoreS)
}

// Surface returns the surface of the synergy named name, nil if r has none.
func (r *Result) Surface(name string) *Surface {
	for k := range r.Synergy {
		if r.Synergy[k].Synergy.Name == name {
			return &r.Synergy[k]
		}
	}
	return nil
}

// Value returns the block score named score: css, s or a synergy's name
// (its Surface's Mean); NaN for another name.
func (r *Result) Value(score string) float64 {
	switch score {
	case ScoreCSS:
		return r.Summary.CSS
	case ScoreS:
		return r.Summary.S
	}
	if s := r.Surface(score); s != nil {
		return s.Mean
	}
	return math.NaN()
}

// synergiesOf is the score table the scored blocks were scored with (that
// of the first scored block: one ScoreAll uses one table), or Synergies()
// when none was scored.
func synergiesOf(scored []Scored) []Synergy {
	for _, s := range scored {
		if s.Result != nil {
			syn := make([]Synergy, len(s.Result.Synergy))
			for k, sf := range s.Result.Synergy {
				syn[k] = sf.Synergy
			}
			return syn
		}
	}
	return Synergies()
}
