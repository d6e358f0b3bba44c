package plate

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Dispense configures the transfers of an acoustic dispenser. The zero
// value is the defaults stated on each field.
type Dispense struct {
	// AssayVolume is the volume (µL) in each destination well before the
	// transfers (cells in medium); 0: 100 (96-well), 40 (384), 5 (1536).
	AssayVolume float64
	// Total is the volume (nL) of stock and vehicle every used well
	// receives (the backfill makes it up); 0: 0.25 % of AssayVolume
	// (100 nL on a 384-well plate), a whole number of droplets.
	Total float64
	// Droplet is the instrument's droplet (nL); every transfer is a whole
	// number of droplets; 0: 2.5.
	Droplet float64
	// Stock is the top stock concentration (µM) of each drug in a
	// generated source; 0: 10000 (10 mM).
	Stock float64
	// StockSteps is the number of ten-fold dilutions of each drug a
	// generated source holds (Stock, Stock/10, …); 0: 4.
	StockSteps int
	// SourceVolume and DeadVolume (µL) are a source well's fill and the
	// part a dispenser cannot draw; 0: 50 and 15 (a 384-well source plate).
	SourceVolume, DeadVolume float64
	// SourcePlate names the generated source plate(s); "": "Source1", "Source2"…
	SourcePlate string
	// Vehicle is the backfill's name; "": DMSO.
	Vehicle string
	// Positive names the positive control; "": "positive-control".
	Positive string
	// PositiveConc (µM, final) and PositiveStock (µM) are the positive
	// control's dose and stock; 0: 10 and 10000.
	PositiveConc, PositiveStock float64
}

func (p *Dispense) defaults(f Format) error {
	if p.AssayVolume == 0 {
		switch f {
		case Plate96:
			p.AssayVolume = 100
		case Plate1536:
			p.AssayVolume = 5
		default:
			p.AssayVolume = 40
		}
	}
	if p.Droplet == 0 {
		p.Droplet = 2.5
	}
	if p.Total == 0 {
		p.Total = math.Round(p.AssayVolume*1000*0.0025/p.Droplet) * p.Droplet
	}
	if p.Stock == 0 {
		p.Stock = 10000
	}
	if p.StockSteps == 0 {
		p.StockSteps = 4
	}
	if p.SourceVolume == 0 {
		p.SourceVolume = 50
	}
	if p.DeadVolume == 0 {
		p.DeadVolume = 15
	}
	if p.Vehicle == "" {
		p.Vehicle = "DMSO"
	}
	if p.Positive == "" {
		p.Positive = "positive-control"
	}
	if p.PositiveConc == 0 {
		p.PositiveConc = 10
	}
	if p.PositiveStock == 0 {
		p.PositiveStock = 10000
	}
	n := p.Total / p.Droplet
	switch {
	case !(p.AssayVolume > 0) || !(p.Droplet > 0) || !(p.Total > 0) || !(p.Stock > 0) || !(p.PositiveConc > 0) || !(p.PositiveStock > 0):
		return fmt.Errorf("%w: volumes, droplet and concentrations must be positive", ErrDesign)
	case math.Abs(n-math.Round(n)) > 1e-9:
		return fmt.Errorf("%w: transfer volume %g nL is not a whole number of %g nL droplets", ErrDesign, p.Total, p.Droplet)
	case math.Round(n) < 2:
		return fmt.Errorf("%w: transfer volume %g nL holds fewer than two %g nL droplets (one per drug)", ErrDesign, p.Total, p.Droplet)
	case p.StockSteps < 1:
		return fmt.Errorf("%w: stock steps %d: want at least 1", ErrDesign, p.StockSteps)
	case !(p.SourceVolume > p.DeadVolume) || p.DeadVolume < 0:
		return fmt.Errorf("%w: source well volume %g µL must exceed its dead volume %g µL", ErrDesign, p.SourceVolume, p.DeadVolume)
	}
	return nil
}

// Stock is one source well: a compound at a concentration (µM; 0 for the
// vehicle) and the volume it holds (µL).
type Stock struct {
	Plate, Well, Compound string
	Conc, Volume          float64
	Line                  int     // the source file's line (0: generated)
	drawn                 float64 // nL drawn by the plan
}

// GenerateSource lays out a source plate for drugs: each drug at Stock
// and its StockSteps−1 ten-fold dilutions, the positive control's stock,
// then as many vehicle wells as the backfill needs (added by the plan).
func (p *Dispense) GenerateSource(drugs []string) []Stock {
	var out []Stock
	for _, d := range drugs {
		c := p.Stock
		for k := 0; k < p.StockSteps; k++ {
			out = append(out, Stock{Compound: d, Conc: c, Volume: p.SourceVolume})
			c /= 10
		}
	}
	out = append(out, Stock{Compound: p.Positive, Conc: p.PositiveStock, Volume: p.SourceVolume})
	out = append(out, Stock{Compound: p.Vehicle, Volume: p.SourceVolume})
	for i := range out {
		out[i].Plate, out[i].Well = p.sourceWell(i)
	}
	return out
}

// sourceWell names the i-th generated source well (384-well source
// plates, row by row).
func (p *Dispense) sourceWell(i int) (string, string) {
	name := p.SourcePlate
	if name == "" {
		name = "Source"
	}
	return fmt.Sprintf("%s%d", name, i/Plate384.Wells()+1), WellName(i%Plate384.Wells()/Plate384.Cols, i%Plate384.Cols)
}

// VolumeError is a transfer or a source draw out of the instrument's or
// the source's range.
type VolumeError struct {
	Source string // the source file, "" when generated
	Line   int    // its line, 0 when generated
	Msg    string
}

func (e *VolumeError) Error() string {
	var b strings.Builder
	b.WriteString("volume out of range: ")
	if e.Source != "" {
		if e.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: ", e.Source, e.Line)
		} else {
			fmt.Fprintf(&b, "%s: ", e.Source)
		}
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrVolume matches every *VolumeError (errors.Is).
var ErrVolume = errors.New("volume out of range")

func (e *VolumeError) Is(target error) bool { return target == ErrVolume }

// dispenser chooses stocks and draws source wells.
type dispenser struct {
	p      *Dispense
	src    []Stock
	name   string // source file, "" generated
	byComp map[string][]int
	total  int // droplets per used well
	final  float64
}

// dose is a delivered dose: droplets of a stock and the final concentration.
type dose struct {
	stock, drops int
	conc         float64
}

func newDispenser(p *Dispense, src []Stock, name string) (*dispenser, error) {
	d := &dispenser{p: p, src: append([]Stock(nil), src...), name: name, byComp: map[string][]int{},
		total: int(math.Round(p.Total / p.Droplet)), final: p.AssayVolume*1000 + p.Total}
	for i, s := range d.src {
		d.byComp[s.Compound] = append(d.byComp[s.Compound], i)
	}
	if len(d.byComp[p.Vehicle]) == 0 {
		return nil, &VolumeError{Source: name, Msg: fmt.Sprintf("the source has no %s well for the backfill", p.Vehicle)}
	}
	return d, nil
}

// dose chooses, for drug at the nominal final concentration c (µM), the
// stock whose whole-droplet transfer comes closest to c with at most half
// the total volume (so both drugs of a well fit), the larger volume on a
// tie.
func (d *dispenser) dose(drug string, c float64) (dose, error) {
	return d.choose(drug, c, d.total/2)
}

func (d *dispenser) positive() (dose, error) {
	return d.choose(d.p.Positive, d.p.PositiveConc, d.total)
}

func (d *dispenser) choose(comp string, c float64, maxDrops int) (dose, error) {
	idx := d.byComp[comp]
	if len(idx) == 0 {
		return dose{}, &VolumeError{Source: d.name, Msg: fmt.Sprintf("the source holds no stock of %s", comp)}
	}
	best := dose{stock: -1}
	bestErr := math.Inf(1)
	var tried []string
	seen := map[float64]bool{}
	for _, i := range idx {
		s := d.src[i]
		if seen[s.Conc] || !(s.Conc > 0) {
			continue
		}
		seen[s.Conc] = true
		nl := c * d.final / s.Conc
		n := int(math.Round(nl / d.p.Droplet))
		tried = append(tried, fmt.Sprintf("%s µM: %.3g nL", fmtNum(s.Conc), nl))
		if n < 1 || n > maxDrops {
			continue
		}
		got := float64(n) * d.p.Droplet * s.Conc / d.final
		e := math.Abs(got-c) / c
		if e < bestErr-1e-12 || (math.Abs(e-bestErr) <= 1e-12 && n > best.drops) {
			best, bestErr = dose{stock: i, drops: n, conc: got}, e
		}
	}
	if best.stock < 0 {
		return dose{}, &VolumeError{Source: d.name, Line: d.src[idx[0]].Line, Msg: fmt.Sprintf(
			"%s at %s µM: no stock gives a transfer between %g nL (one droplet) and %g nL (the most a well takes of it) (%s)",
			comp, fmtNum(c), d.p.Droplet, float64(maxDrops)*d.p.Droplet, strings.Join(tried, ", "))}
	}
	return best, nil
}

// Pick is one transfer of a pick list.
type Pick struct {
	SourcePlate, SourceWell, DestPlate, DestWell string
	Volume                                       float64 // nL
	Compound                                     string
}

// picks plans the transfers into every used well of m: each drug's
// stock, then the vehicle to make up Total, drawing source wells in order
// (a generated source gains vehicle and stock wells as needed; a given
// source that runs dry is a *VolumeError).
func (d *dispenser) picks(m *Map) ([]Pick, error) {
	var out []Pick
	usable := (d.p.SourceVolume - d.p.DeadVolume) * 1000 // nL per generated well
	draw := func(stock int, drops int, w *Well) error {
		nl := float64(drops) * d.p.Droplet
		comp, conc := d.src[stock].Compound, d.src[stock].Conc
		// The first well of this compound and concentration with room.
		for _, i := range d.byComp[comp] {
			s := &d.src[i]
			if s.Conc != conc {
				continue
			}
			if s.drawn+nl <= (s.Volume-d.p.DeadVolume)*1000+1e-9 {
				s.drawn += nl
				out = append(out, Pick{SourcePlate: s.Plate, SourceWell: s.Well, DestPlate: w.Plate, DestWell: WellName(w.Row, w.Col), Volume: nl, Compound: comp})
				return nil
			}
		}
		if d.name != "" {
			var vol float64
			for _, i := range d.byComp[comp] {
				if d.src[i].Conc == conc {
					vol += d.src[i].Volume - d.p.DeadVolume
				}
			}
			return &VolumeError{Source: d.name, Line: d.src[stock].Line, Msg: fmt.Sprintf(
				"%s at %s µM runs dry: its wells hold %g µL above the %g µL dead volume, the plan draws more (at %s %s)",
				comp, fmtNum(conc), vol, d.p.DeadVolume, w.Plate, WellName(w.Row, w.Col))}
		}
		if nl > usable {
			return &VolumeError{Msg: fmt.Sprintf("a %g nL transfer exceeds a source well's %g µL above its dead volume", nl, usable/1000)}
		}
		s := Stock{Compound: comp, Conc: conc, Volume: d.p.SourceVolume, drawn: nl}
		s.Plate, s.Well = d.p.sourceWell(len(d.src))
		d.src = append(d.src, s)
		d.byComp[comp] = append(d.byComp[comp], len(d.src)-1)
		out = append(out, Pick{SourcePlate: s.Plate, SourceWell: s.Well, DestPlate: w.Plate, DestWell: WellName(w.Row, w.Col), Volume: nl, Compound: comp})
		return nil
	}
	vehicle := d.byComp[d.p.Vehicle][0]
	for i := range m.Wells {
		w := &m.Wells[i]
		if w.Role == Empty {
			continue
		}
		used := 0
		for _, t := range [][2]int{{w.stockA, w.dropA}, {w.stockB, w.dropB}} {
			if t[0] >= 0 && t[1] > 0 {
				if err := draw(t[0], t[1], w); err != nil {
					return nil, err
				}
				used += t[1]
			}
		}
		if used > d.total {
			return nil, &VolumeError{Source: d.name, Msg: fmt.Sprintf("%s %s takes %g nL, more than the %g nL total", w.Plate, WellName(w.Row, w.Col), float64(used)*d.p.Droplet, d.p.Total)}
		}
		if back := d.total - used; back > 0 {
			if err := draw(vehicle, back, w); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// used is the source with the volume each well needs: a generated
// well's fill, a given well's as given.
func (d *dispenser) used() []Stock { return d.src }

// Drawn is the volume (µL) the plan draws from the well.
func (s Stock) Drawn() float64 { return s.drawn / 1000 }

// fmtNum writes a concentration or volume in the shortest form.
func fmtNum(x float64) string { return fmt.Sprintf("%.6g", x) }
