package platesim

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/deup-screening/deup/internal/streams"
	"github.com/deup-screening/deup/plate"
)

// Lab configures the simulated lab; the zero value is the defaults
// stated on each field and no synergy.
type Lab struct {
	Seed uint64
	// Synergy is a pair's true synergy score on a cell line (the
	// synthetic screen's truth); nil or ok false: 0.
	Synergy func(drugA, drugB, cellLine string) (float64, bool)
	// Scale maps a synergy score to the interaction k = tanh(s/Scale);
	// 0: 20.
	Scale float64
	// Noise is the noise sd of a vehicle well in % of the control window
	// (see the package documentation); 0: 3.
	Noise float64
	// EdgeLoss is the fraction of signal the outer ring loses; 0: 0.15,
	// negative: none.
	EdgeLoss float64
	// BadPlate is the 1-based index of the plate read with ten times the
	// noise; 0: none.
	BadPlate int
	// Neg and Pos are the counts of vehicle and of full inhibition; 0:
	// 50000 and 2000.
	Neg, Pos float64
}

func (l *Lab) defaults() {
	if l.Scale == 0 {
		l.Scale = 20
	}
	if l.Noise == 0 {
		l.Noise = 3
	}
	if l.EdgeLoss == 0 {
		l.EdgeLoss = 0.15
	}
	if l.EdgeLoss < 0 {
		l.EdgeLoss = 0
	}
	if l.Neg == 0 {
		l.Neg = 50000
	}
	if l.Pos == 0 {
		l.Pos = 2000
	}
}

// Hill is a single-agent curve: f(x) = Emax·x^Slope/(x^Slope + IC50^Slope).
type Hill struct {
	Emax, Slope, IC50 float64
}

// At is the curve's % inhibition at dose x ≥ 0.
func (h Hill) At(x float64) float64 {
	if x <= 0 {
		return 0
	}
	p := math.Pow(x/h.IC50, h.Slope)
	return h.Emax * p / (1 + p)
}

// Curve is the drug's curve on the cell line, for a drug whose top dose
// on the map is top.
func (l Lab) Curve(drug, cellLine string, top float64) Hill {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s", drug, cellLine)
	rng := rand.New(rand.NewPCG(l.Seed^h.Sum64(), streams.PlateLab))
	return Hill{
		Emax:  70 + 30*rng.Float64(),
		Slope: 0.8 + 1.7*rng.Float64(),
		IC50:  top * math.Pow(10, -2+math.Log10(200)*rng.Float64()),
	}
}

// Response is the true % inhibition of doses ca, cb of two drugs with
// curves ha, hb and interaction k.
func Response(ha, hb Hill, k, ca, cb float64) (y, delta float64) {
	a, b := ha.At(ca)/100, hb.At(cb)/100
	bl := a + b - a*b
	delta = k * math.Sqrt(a*b) * (1 - a) * (1 - b)
	return 100 * (bl + delta), 100 * delta
}

// Truth is one block's true synergy.
type Truth struct {
	BlockID, DrugA, DrugB, CellLine string
	Score                           float64 // the pair's synergy score (Lab.Synergy)
	K                               float64 // the interaction tanh(Score/Scale)
	Bliss                           float64 // mean true Bliss δ over the wells with both doses > 0
}

// Reads is a simulated reader's output for a map: one count per map well.
type Reads struct {
	Map    *plate.Map
	Counts []float64 // aligned with Map.Wells
	Truth  []Truth   // per block, in the order blocks first appear
}

// Read reads every well of m.
func (l Lab) Read(m *plate.Map) *Reads {
	l.defaults()
	top := map[string]float64{}
	for _, w := range m.Wells {
		top[w.DrugA] = math.Max(top[w.DrugA], w.ConcA)
		top[w.DrugB] = math.Max(top[w.DrugB], w.ConcB)
	}
	ks := map[string]float64{}
	var truths []Truth
	tIdx := map[string]int{}
	sums := map[string][2]float64{}
	curve := func(drug, line string) Hill { return l.Curve(drug, line, top[drug]) }
	rng := rand.New(rand.NewPCG(l.Seed, streams.PlateLab))
	gain := map[string]float64{}
	noise := map[string]float64{}
	for i, p := range m.Plates {
		gain[p.Name] = 0.9 + 0.2*rng.Float64()
		noise[p.Name] = l.Noise / 100 * (l.Neg - l.Pos)
		if i+1 == l.BadPlate {
			noise[p.Name] *= 10
		}
	}
	out := &Reads{Map: m, Counts: make([]float64, len(m.Wells))}
	for i, w := range m.Wells {
		var y float64
		switch w.Role {
		case plate.Empty:
			out.Counts[i] = math.Round(0.01*l.Pos*gain[w.Plate] + 5*rng.NormFloat64())
			continue
		case plate.Negative:
			y = 0
		case plate.Positive:
			y = 100
		case plate.Sample:
			if _, ok := tIdx[w.BlockID]; !ok {
				s, _ := 0.0, false
				if l.Synergy != nil {
					if v, ok := l.Synergy(w.DrugA, w.DrugB, w.CellLine); ok {
						s = v
					}
				}
				tIdx[w.BlockID] = len(truths)
				truths = append(truths, Truth{BlockID: w.BlockID, DrugA: w.DrugA, DrugB: w.DrugB, CellLine: w.CellLine, Score: s, K: math.Tanh(s / l.Scale)})
				ks[w.BlockID] = math.Tanh(s / l.Scale)
			}
			var d float64
			y, d = Response(curve(w.DrugA, w.CellLine), curve(w.DrugB, w.CellLine), ks[w.BlockID], w.ConcA, w.ConcB)
			if w.ConcA > 0 && w.ConcB > 0 && w.Row >= 0 {
				s := sums[w.BlockID]
				sums[w.BlockID] = [2]float64{s[0] + d, s[1] + 1}
			}
		}
		x := (l.Neg - (l.Neg-l.Pos)*y/100) * gain[w.Plate]
		if w.Row == 0 || w.Col == 0 || w.Row == m.Format.Rows-1 || w.Col == m.Format.Cols-1 {
			x *= 1 - l.EdgeLoss
		}
		// Noise: a quarter additive, three quarters proportional to the
		// signal's share of the window.
		x += noise[w.Plate] * (0.25 + 0.75*(x-l.Pos*gain[w.Plate])/(l.Neg-l.Pos)) * rng.NormFloat64()
		out.Counts[i] = math.Round(x)
	}
	for i := range truths {
		s := sums[truths[i].BlockID]
		truths[i].Bliss = s[0] / s[1]
	}
	out.Truth = truths
	return out
}

// WriteGrid writes the reads as a reader's grid export: a metadata line,
// then per plate its plate line, the column numbers and one line per row.
func (r *Reads) WriteGrid(w io.Writer) error {
	bw := bufio.NewWriter(w)
	f := r.Map.Format
	fmt.Fprintf(bw, "Simulated reader export (deup plate simulate),%d-well\n", f.Wells())
	at := map[string]int{}
	for i, wl := range r.Map.Wells {
		if _, ok := at[wl.Plate]; !ok {
			at[wl.Plate] = i
		}
	}
	for _, p := range r.Map.Plates {
		fmt.Fprintf(bw, "\nPlate: %s\n", p.Name)
		for c := 0; c < f.Cols; c++ {
			fmt.Fprintf(bw, ",%d", c+1)
		}
		bw.WriteString("\n")
		base := at[p.Name]
		for rr := 0; rr < f.Rows; rr++ {
			bw.WriteString(plate.RowName(rr))
			for c := 0; c < f.Cols; c++ {
				fmt.Fprintf(bw, ",%.0f", r.Counts[base+rr*f.Cols+c])
			}
			bw.WriteString("\n")
		}
	}
	return bw.Flush()
}

// WriteLong writes the reads as the long table plate,well,value.
func (r *Reads) WriteLong(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("plate,well,value\n")
	for i, wl := range r.Map.Wells {
		fmt.Fprintf(bw, "%s,%s,%.0f\n", wl.Plate, plate.WellName(wl.Row, wl.Col), r.Counts[i])
	}
	return bw.Flush()
}

// WriteTruth writes the blocks' truth as CSV: block_id, drug_a, drug_b,
// cell_line, score, k, bliss.
func (r *Reads) WriteTruth(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"block_id", "drug_a", "drug_b", "cell_line", "score", "k", "bliss"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, t := range r.Truth {
		cw.Write([]string{t.BlockID, t.DrugA, t.DrugB, t.CellLine, g(t.Score), g(t.K), g(t.Bliss)})
	}
	cw.Flush()
	return cw.Error()
}
