package plate

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"gonum.org/v1/gonum/stat"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/jsonfloat"
)

// Readout is the response scale Normalize writes.
type Readout int

// The readouts.
const (
	Inhibition Readout = iota // % inhibition = 100·(neg − x)/(neg − pos)
	Viability                 // % viability = 100·(x − pos)/(neg − pos)
)

// ParseReadout reads "inhibition" (or "") or "viability".
func ParseReadout(s string) (Readout, error) {
	switch strings.ToLower(s) {
	case "", "inhibition":
		return Inhibition, nil
	case "viability":
		return Viability, nil
	}
	return 0, fmt.Errorf("plate: readout %q: want inhibition or viability", s)
}

func (r Readout) String() string {
	if r == Viability {
		return "viability"
	}
	return "inhibition"
}

// DefaultMinZ is the Z′-factor below which a plate is flagged (Zhang,
// Chung and Oldenburg 1999: 0.5 ≤ Z′ < 1 is an excellent assay).
const DefaultMinZ = 0.5

// QC is one plate's control statistics and whether its wells are kept.
//
// In JSON a statistic that does not exist (the sd of one reading, Z′ of a
// plate with fewer than two readings of a control) is null (jsonfloat).
type QC struct {
	Plate    string          `json:"plate"`
	CellLine string          `json:"cell_line"`
	NegMean  jsonfloat.Float `json:"negative_mean"`
	NegSD    jsonfloat.Float `json:"negative_sd"`
	PosMean  jsonfloat.Float `json:"positive_mean"`
	PosSD    jsonfloat.Float `json:"positive_sd"`
	NegCV    jsonfloat.Float `json:"negative_cv_pct"`
	PosCV    jsonfloat.Float `json:"positive_cv_pct"`
	ZPrime   jsonfloat.Float `json:"z_prime"`
	Wells    int             `json:"sample_wells"`
	Kept     bool            `json:"kept"`
	Flag     string          `json:"flag,omitempty"`
}

// ReadReport is what ParseReads and Normalize read, kept and left out.
type ReadReport struct {
	Files      []string          `json:"files"`
	Reads      int               `json:"reads"`
	OtherLines int               `json:"metadata_lines"` // grid-file lines outside any plate
	EmptyReads int               `json:"empty_well_reads"`
	Readout    string            `json:"readout"`
	MinZ       jsonfloat.Float   `json:"min_z_prime"`
	KeepLowZ   bool              `json:"keep_low_z"`
	Plates     []QC              `json:"plates"`
	Flagged    int               `json:"plates_flagged"`
	KeptOut    int               `json:"plates_kept_out"`
	Responses  int               `json:"responses"`
	Blocks     int               `json:"blocks"`
	Skipped    []*drugcomb.Tally `json:"skipped"`
}

// Response is one sample well's normalized response.
type Response struct {
	BlockID, DrugA, DrugB, CellLine string
	ConcA, ConcB, Value             float64
	Plate, Well                     string
}

// Normalize joins reads to the map m, computes each plate's control
// statistics and Z′ = 1 − 3·(sd_pos + sd_neg)/|mean_neg − mean_pos|, and
// returns the sample wells' responses on the readout's scale against
// their own plate's control means. A plate with Z′ below minZ (or with
// fewer than two readings of a control) is flagged and its wells kept out
// unless keepLow. Every read must have a map well and every used map well
// a read, each map plate reads and each plate read is on the map: the
// first that is not is an error naming the file, line and column (or the
// map well), or with opt.Lenient a counted skip.
func Normalize(m *Map, reads []Read, readout Readout, minZ float64, keepLow bool, opt ReadOptions, rep *ReadReport) ([]Response, error) {
	rep.Readout, rep.MinZ, rep.KeepLowZ = readout.String(), jsonfloat.Float(minZ), keepLow
	if rep.Skipped == nil {
		rep.Skipped = []*drugcomb.Tally{}
	}
	plates := map[string]int{}
	var names []string
	for i, p := range m.Plates {
		plates[p.Name] = i
		names = append(names, p.Name)
	}
	idx := func(p, r, c int) int { return (p*m.Format.Rows+r)*m.Format.Cols + c }
	at := make([]int, len(m.Plates)*m.Format.Wells())
	for i := range at {
		at[i] = -1
	}
	for i, w := range m.Wells {
		at[idx(plates[w.Plate], w.Row, w.Col)] = i
	}
	val := make([]float64, len(m.Wells))
	from := make([]*Read, len(m.Wells))
	readPlate := make([]bool, len(m.Plates))
	for k := range reads {
		rd := &reads[k]
		p, ok := plates[rd.Plate]
		if !ok {
			if opt.Lenient {
				drugcomb.AddTally(&rep.Skipped, ReasonNoMapPlate, rd.loc(), rd.Plate)
				continue
			}
			return nil, &drugcomb.ParseError{File: rd.File, Line: rd.Line, Column: rd.Column,
				Err: fmt.Errorf("plate %q is not on the map (its plates: %s)", rd.Plate, listNames(names))}
		}
		var wi = -1
		if rd.Row < m.Format.Rows && rd.Col < m.Format.Cols {
			wi = at[idx(p, rd.Row, rd.Col)]
		}
		if wi < 0 {
			err := fmt.Errorf("plate %q well %s: a read without a map entry (the map's plates have %d wells)", rd.Plate, WellName(rd.Row, rd.Col), m.Format.Wells())
			if opt.Lenient {
				drugcomb.AddTally(&rep.Skipped, ReasonNoMapWell, rd.loc(), err.Error())
				continue
			}
			return nil, &drugcomb.ParseError{File: rd.File, Line: rd.Line, Column: rd.Column, Err: err}
		}
		if prev := from[wi]; prev != nil {
			err := fmt.Errorf("plate %q well %s read twice (first at %s)", rd.Plate, WellName(rd.Row, rd.Col), prev.loc())
			if opt.Lenient {
				drugcomb.AddTally(&rep.Skipped, ReasonDuplicate2, rd.loc(), err.Error())
				continue
			}
			return nil, &drugcomb.ParseError{File: rd.File, Line: rd.Line, Column: rd.Column, Err: err}
		}
		readPlate[p] = true
		from[wi], val[wi] = rd, rd.Value
	}
	files := strings.Join(rep.Files, ", ")
	for p, ok := range readPlate {
		if ok {
			continue
		}
		err := fmt.Errorf("map plate %q has no reads in %s", m.Plates[p].Name, files)
		if !opt.Lenient {
			return nil, err
		}
		drugcomb.AddTally(&rep.Skipped, ReasonNoReads, m.Plates[p].Name, err.Error())
	}
	for i, w := range m.Wells {
		if w.Role == Empty {
			if from[i] != nil {
				rep.EmptyReads++
			}
			continue
		}
		if from[i] != nil || !readPlate[plates[w.Plate]] {
			continue
		}
		what := string(w.Role)
		if w.BlockID != "" {
			what += ", block " + w.BlockID
		}
		err := fmt.Errorf("map well %s %s (%s) has no read in %s", w.Plate, WellName(w.Row, w.Col), what, files)
		if !opt.Lenient {
			return nil, err
		}
		drugcomb.AddTally(&rep.Skipped, ReasonNoRead, w.Plate+" "+WellName(w.Row, w.Col), err.Error())
	}
	// Control statistics per plate.
	var out []Response
	for p, pl := range m.Plates {
		if !readPlate[p] {
			continue
		}
		var neg, pos []float64
		for i, w := range m.Wells {
			if w.Plate != pl.Name || from[i] == nil {
				continue
			}
			switch w.Role {
			case Negative:
				neg = append(neg, val[i])
			case Positive:
				pos = append(pos, val[i])
			}
		}
		q := QC{Plate: pl.Name, CellLine: pl.CellLine, Kept: true}
		mn, sn := stat.MeanStdDev(neg, nil)
		mp, sp := stat.MeanStdDev(pos, nil)
		z := ZPrime(mn, sn, mp, sp)
		switch {
		case len(neg) < 2 || len(pos) < 2:
			q.Flag, z = ReasonFewCtrl, math.NaN()
		case !(z >= minZ):
			q.Flag = fmt.Sprintf("%s %g", ReasonLowZ, minZ)
		}
		if q.Flag != "" {
			rep.Flagged++
			q.Kept = keepLow && len(neg) >= 2 && len(pos) >= 2 && mn != mp
		}
		q.NegMean, q.NegSD, q.PosMean, q.PosSD = jsonfloat.Float(mn), jsonfloat.Float(sn), jsonfloat.Float(mp), jsonfloat.Float(sp)
		q.NegCV, q.PosCV = jsonfloat.Float(100*sn/math.Abs(mn)), jsonfloat.Float(100*sp/math.Abs(mp))
		q.ZPrime = jsonfloat.Float(z)
		if !q.Kept {
			rep.KeptOut++
		}
		for i, w := range m.Wells {
			if w.Plate != pl.Name || w.Role != Sample || from[i] == nil {
				continue
			}
			q.Wells++
			if !q.Kept {
				continue
			}
			x := val[i]
			v := 100 * (mn - x) / (mn - mp)
			if readout == Viability {
				v = 100 * (x - mp) / (mn - mp)
			}
			out = append(out, Response{BlockID: w.BlockID, DrugA: w.DrugA, DrugB: w.DrugB, CellLine: w.CellLine,
				ConcA: w.ConcA, ConcB: w.ConcB, Value: v, Plate: w.Plate, Well: WellName(w.Row, w.Col)})
		}
		rep.Plates = append(rep.Plates, q)
	}
	// Blocks in the order they first appear on the map.
	first := map[string]int{}
	for _, w := range m.Wells {
		if _, ok := first[w.BlockID]; !ok && w.BlockID != "" {
			first[w.BlockID] = len(first)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return first[out[i].BlockID] < first[out[j].BlockID] })
	blocks := map[string]bool{}
	for _, r := range out {
		blocks[r.BlockID] = true
	}
	rep.Responses, rep.Blocks = len(out), len(blocks)
	return out, nil
}

// ZPrime is the Z′-factor of a plate's controls (Zhang, Chung and
// Oldenburg 1999): 1 − 3·(sdPos + sdNeg)/|meanNeg − meanPos|; −Inf when
// the means are equal.
func ZPrime(meanNeg, sdNeg, meanPos, sdPos float64) float64 {
	d := math.Abs(meanNeg - meanPos)
	if d == 0 {
		return math.Inf(-1)
	}
	return 1 - 3*(sdPos+sdNeg)/d
}

func listNames(ns []string) string {
	if len(ns) > 6 {
		return strings.Join(ns[:3], ", ") + ", …, " + ns[len(ns)-1]
	}
	return strings.Join(ns, ", ")
}

// ResponseColumns are the responses table's columns for a readout: those
// deup data synergy and campaign import-results --plates read (block_id,
// drug_row, drug_col, cell_line, conc_r, conc_c, conc_unit and the
// response, named by its unit), then the well it came from.
func ResponseColumns(r Readout) []string {
	return []string{"block_id", "drug_row", "drug_col", "cell_line", "conc_r", "conc_c", "conc_unit", r.String(), "plate", "well"}
}

// WriteResponses writes rs to path (CSV, Arrow or Parquet by its
// extension), atomically.
func WriteResponses(path string, rs []Response, r Readout) error {
	cols := ResponseColumns(r)
	f64 := arrow.PrimitiveTypes.Float64
	rec := stringsRecord(cols, map[string]arrow.DataType{"conc_r": f64, "conc_c": f64, r.String(): f64}, len(rs), func(i, c int) any {
		x := rs[i]
		return [...]any{x.BlockID, x.DrugA, x.DrugB, x.CellLine, x.ConcA, x.ConcB, "uM", x.Value, x.Plate, x.Well}[c]
	})
	defer rec.Release()
	return writeRecord(path, rec)
}

// WriteText writes the report: one line per plate, then what was left out.
func (r *ReadReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d reads from %d files", r.Reads, len(r.Files))
	if r.OtherLines > 0 {
		fmt.Fprintf(&b, " (%d metadata lines outside the plates)", r.OtherLines)
	}
	b.WriteString("\n")
	for _, q := range r.Plates {
		state := "kept"
		if !q.Kept {
			state = "kept out"
		}
		fmt.Fprintf(&b, "  %s %s: Z′ %.3f, negative %.5g ± %.3g (CV %.1f %%), positive %.5g ± %.3g (CV %.1f %%), %d sample wells, %s", q.Plate, q.CellLine,
			float64(q.ZPrime), float64(q.NegMean), float64(q.NegSD), float64(q.NegCV), float64(q.PosMean), float64(q.PosSD), float64(q.PosCV), q.Wells, state)
		if q.Flag != "" {
			fmt.Fprintf(&b, " (%s)", q.Flag)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d plates, %d flagged, %d kept out; %d responses (%% %s) in %d blocks\n", len(r.Plates), r.Flagged, r.KeptOut, r.Responses, r.Readout, r.Blocks)
	if n := drugcomb.TallyCount(r.Skipped); n > 0 {
		fmt.Fprintf(&b, "%d skipped (--lenient):\n", n)
		drugcomb.WriteTallies(&b, r.Skipped)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
