package almanac

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/vocab"
)

// ScoreName is the score column of the screens BuildScreen builds.
const ScoreName = "combo_score"

// Reasons in Report.Drugs (notes on the NSC -> drug mapping).
const (
	NoteMerged    = "NSCs of one drug"        // several NSC numbers with one name became one drug
	NoteRefused   = "structure refused"       // the SDF's structure is refused as RDKit refuses it
	NoteCatalogue = "structure from --drugs"  // a refused or missing structure taken from the catalogue
	NoteNoSMILES  = "no structure"            // neither the SDF nor the catalogue has the drug
	NoteNoName    = "no name"                 // an NSC not in the names file: named "NSC n"
	NoteSelfPair  = "self-pair after merging" // a block of two NSCs of one drug: not in the screen
)

// Sources are the inputs of BuildScreen besides the ComboScores. Any may
// be nil.
type Sources struct {
	Compounds map[int]*Compound   // ReadCompounds
	Names     map[int]string      // ReadNames
	Catalogue *drugcomb.Catalogue // looked up by name for structures the SDF lacks or RDKit refuses
}

// BuildScreen turns ComboScores into a screen: NSC numbers become drugs
// (NSCs with the same name, compared case-insensitively, are one drug, its
// ID the smallest of its NSC numbers, its name the names file's), each
// drug's SMILES is written from its SDF structure (or comes from the
// catalogue by name when the SDF has none or RDKit refuses it), and each
// plate-block sum of an ordered pair and line is one replicate measurement
// of the unordered pair on that line. Notes on the mapping go to
// rep.Drugs.
func BuildScreen(name string, scores []ComboScore, src Sources, rep *Report) (*drugcomb.Screen, error) {
	type drugInfo struct {
		nscs []int
		name string
	}
	byName := map[string]*drugInfo{}
	nscDrug := map[int]*drugInfo{}
	var order []*drugInfo
	seen := map[int]bool{}
	var nscs []int
	for _, c := range scores {
		for _, n := range []int{c.NSC1, c.NSC2} {
			if !seen[n] {
				seen[n] = true
				nscs = append(nscs, n)
			}
		}
	}
	slices.Sort(nscs)
	for _, n := range nscs {
		nm, ok := src.Names[n]
		if !ok {
			nm = "NSC " + strconv.Itoa(n)
			if src.Names != nil {
				drugcomb.AddTally(&rep.Drugs, NoteNoName, "NSC "+strconv.Itoa(n), "not in the names file")
			}
		}
		key := strings.ToLower(nm)
		d := byName[key]
		if d == nil {
			d = &drugInfo{name: nm}
			byName[key] = d
			order = append(order, d)
		}
		d.nscs = append(d.nscs, n)
		nscDrug[n] = d
	}
	// every NSC of a merged drug, those without measures included
	for n, nm := range src.Names {
		if d := byName[strings.ToLower(nm)]; d != nil && !slices.Contains(d.nscs, n) {
			d.nscs = append(d.nscs, n)
			slices.Sort(d.nscs)
		}
	}
	b := drugcomb.NewBuilder(ScoreName)
	idx := map[*drugInfo]int{}
	for _, d := range order {
		if len(d.nscs) > 1 {
			drugcomb.AddTally(&rep.Drugs, NoteMerged, d.name, fmt.Sprintf("NSC %v", d.nscs))
		}
		dr := drugcomb.Drug{ID: strconv.Itoa(d.nscs[0]), Name: d.name}
		var refused []string
		for _, n := range d.nscs {
			c := src.Compounds[n]
			if c == nil {
				continue
			}
			if c.Err != nil {
				refused = append(refused, fmt.Sprintf("NSC %d (%s): %v", n, d.name, c.Err))
				continue
			}
			if dr.SMILES == "" {
				dr.SMILES = c.SMILES
			}
		}
		if dr.SMILES == "" {
			for _, r := range refused {
				drugcomb.AddTally(&rep.Drugs, NoteRefused, d.name, r)
			}
			if src.Catalogue != nil {
				if cd, ok := src.Catalogue.Lookup(d.name); ok && cd.SMILES != "" {
					dr.SMILES, dr.PubChemCID = cd.SMILES, cd.PubChemCID
					drugcomb.AddTally(&rep.Drugs, NoteCatalogue, d.name, src.Catalogue.File)
				}
			}
			if dr.SMILES == "" {
				drugcomb.AddTally(&rep.Drugs, NoteNoSMILES, d.name, fmt.Sprintf("NSC %v: not in the SDF, refused, or not in --drugs", d.nscs))
			}
		}
		idx[d] = b.Drug(dr)
	}
	for _, c := range scores {
		a, bb := idx[nscDrug[c.NSC1]], idx[nscDrug[c.NSC2]]
		if a == bb {
			drugcomb.AddTally(&rep.Drugs, NoteSelfPair, fmt.Sprintf("NSC %d + NSC %d on %s", c.NSC1, c.NSC2, c.Cell), nscDrug[c.NSC1].name)
			continue
		}
		cell := b.CellLine(c.Cell)
		for _, s := range c.Sums {
			if err := b.Measure(a, bb, cell, []float64{s}); err != nil {
				return nil, fmt.Errorf("almanac: NSC %d + NSC %d on %s: %w", c.NSC1, c.NSC2, c.Cell, err)
			}
		}
	}
	s := b.Screen(name)
	if len(s.Pairs) == 0 {
		return nil, fmt.Errorf("almanac: %w: no scored block", drugcomb.ErrNoPairs)
	}
	return s, nil
}

// WriteComboScores writes comboscore.csv: the header
// nsc1,nsc2,cell_line,combo_score,n_wells and one row per ordered pair and
// cell line (cell_line as the file's CELLNAME, combo_score the shortest
// decimal that reads back as the same float64, always with a decimal point
// or exponent so that pandas and DuckDB read a float column:
// vocab.AppendFloat).
func WriteComboScores(w io.Writer, scores []ComboScore) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"nsc1", "nsc2", "cell_line", "combo_score", "n_wells"}); err != nil {
		return err
	}
	for _, c := range scores {
		if err := cw.Write([]string{strconv.Itoa(c.NSC1), strconv.Itoa(c.NSC2), c.Cell,
			string(vocab.AppendFloat(nil, c.Score, -1)), strconv.Itoa(c.Wells)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
