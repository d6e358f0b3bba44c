package drugcomb

import (
	"math"
	"sort"

	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/uq"
)

// ScoreSummary summarizes one score column over the pairs' means.
type ScoreSummary struct {
	Name    string `json:"name"`
	Pairs   int    `json:"pairs"`   // pairs with a value
	Missing int    `json:"missing"` // pairs without
	// Floats are written as floats (-225.0, not -225): internal/jsonfloat;
	// nil (null) where there is no value: every one without pairs, the sd
	// with fewer than two.
	Mean   *jsonfloat.Float `json:"mean"`
	SD     *jsonfloat.Float `json:"sd"` // sample standard deviation (uq.MeanSD)
	Min    *jsonfloat.Float `json:"min"`
	Median *jsonfloat.Float `json:"median"`
	Max    *jsonfloat.Float `json:"max"`
}

// Inspection is what deup data inspect reports of a screen (its JSON keys
// are the command's).
type Inspection struct {
	Name                   string         `json:"name"`
	Drugs                  int            `json:"drugs"`
	Pairs                  int            `json:"pairs"`
	Measurements           int            `json:"measurements"`
	CellLines              int            `json:"cell_lines"`
	CellLineNames          []string       `json:"cell_line_names"`
	ReplicatedPairs        int            `json:"replicated_pairs"`
	Truth                  bool           `json:"truth"`
	Scores                 []ScoreSummary `json:"scores"`
	DrugsWithoutSMILES     []string       `json:"drugs_without_smiles"`
	UnusableSMILES         []string       `json:"drugs_with_unusable_smiles"`
	Signatures             bool           `json:"signatures"`               // signatures stored beside the screen (set by the caller)
	DrugsWithoutSignatures []string       `json:"drugs_without_signatures"` // null when no signatures are stored
}

func jf(x float64) *jsonfloat.Float { f := jsonfloat.Float(x); return &f }

// SummarizeScore summarizes the values x of one score (sorted in place)
// and the count of pairs without one.
func SummarizeScore(name string, x []float64, missing int) ScoreSummary {
	s := ScoreSummary{Name: name, Pairs: len(x), Missing: missing}
	if len(x) == 0 {
		return s
	}
	sort.Float64s(x)
	m, sd := uq.MeanSD(x)
	s.Mean, s.Min, s.Max = jf(m), jf(x[0]), jf(x[len(x)-1])
	if len(x)%2 == 1 {
		s.Median = jf(x[len(x)/2])
	} else {
		s.Median = jf((x[len(x)/2-1] + x[len(x)/2]) / 2)
	}
	if len(x) > 1 {
		s.SD = jf(sd)
	}
	return s
}

// Inspect counts s's drugs, pairs, measurements, lines and replicated
// pairs, summarizes each score over the pairs' means, and lists the drugs
// without a SMILES and those whose SMILES check refuses.
func Inspect(s *Screen, check func(smiles string) error) *Inspection {
	o := &Inspection{
		Name: s.Name, Drugs: len(s.Drugs), Pairs: len(s.Pairs), Measurements: s.Measurements(),
		CellLines: len(s.CellLines), CellLineNames: s.CellLines, Truth: s.Truth != nil,
		DrugsWithoutSMILES: []string{}, UnusableSMILES: []string{},
	}
	for _, p := range s.Pairs {
		if p.N > 1 {
			o.ReplicatedPairs++
		}
	}
	for j, n := range s.ScoreNames {
		var x []float64
		miss := 0
		for _, p := range s.Pairs {
			if math.IsNaN(p.Mean[j]) {
				miss++
			} else {
				x = append(x, p.Mean[j])
			}
		}
		o.Scores = append(o.Scores, SummarizeScore(n, x, miss))
	}
	for _, d := range s.Drugs {
		if d.SMILES == "" {
			o.DrugsWithoutSMILES = append(o.DrugsWithoutSMILES, d.ID)
		} else if check(d.SMILES) != nil { // a screen imported before import checked them
			o.UnusableSMILES = append(o.UnusableSMILES, d.ID)
		}
	}
	return o
}
