package plate

import (
	"fmt"
	"image/color"
	"os"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/deup-screening/deup/internal/plotstyle"
)

// wellsPlotter draws one plate's wells as discs: grey rings for empty
// wells, grey for negative controls, black for positive ones, and each
// block in its own colour (plotstyle's palette, by block), lighter for
// lower doses (the zero–zero well almost white).
type wellsPlotter struct {
	f     Format
	wells []Well
	color []color.Color
}

func (p wellsPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	tx, ty := plt.Transforms(&c)
	rad := vg.Length(float64(c.Max.X-c.Min.X) / float64(p.f.Cols+1) * 0.42)
	for i, w := range p.wells {
		pt := vg.Point{X: tx(float64(w.Col + 1)), Y: ty(float64(w.Row + 1))}
		c.SetColor(p.color[i])
		c.Fill(circle(pt, rad))
		if w.Role == Empty {
			c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 0xb0}, Width: vg.Points(0.5)})
			c.Stroke(circle(pt, rad))
		}
	}
}

func circle(pt vg.Point, r vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Arc(pt, r, 0, 2*3.141592653589793)
	p.Close()
	return p
}

// mix is c lightened towards white by t in [0, 1] (0: c).
func mix(c color.Color, t float64) color.Color {
	r, g, b, _ := c.RGBA()
	f := func(v uint32) uint8 { return uint8(float64(v>>8)*(1-t) + 255*t) }
	return color.RGBA{R: f(r), G: f(g), B: f(b), A: 0xff}
}

// MapPlot draws plate name of m: wells coloured by role and, for samples,
// by block and dose (rows A… top to bottom, columns 1… left to right).
func MapPlot(m *Map, name string) (*plot.Plot, error) {
	var ws []Well
	for _, w := range m.Wells {
		if w.Plate == name {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return nil, fmt.Errorf("plate: no plate %q on the map", name)
	}
	// Dose ranks per drug, for the shading.
	rank := map[string]map[float64]int{}
	for _, w := range ws {
		for _, d := range [][2]any{{w.DrugA, w.ConcA}, {w.DrugB, w.ConcB}} {
			drug, c := d[0].(string), d[1].(float64)
			if w.Role != Sample || c == 0 {
				continue
			}
			if rank[drug] == nil {
				rank[drug] = map[float64]int{}
			}
			rank[drug][c] = 0
		}
	}
	maxRank := 1
	for _, rs := range rank {
		var cs []float64
		for c := range rs {
			cs = append(cs, c)
		}
		sort.Float64s(cs)
		for i, c := range cs {
			rs[c] = i + 1
		}
		maxRank = max(maxRank, len(cs))
	}
	blocks := map[string]int{}
	cols := make([]color.Color, len(ws))
	for i, w := range ws {
		switch w.Role {
		case Empty:
			cols[i] = color.White
		case Negative:
			cols[i] = color.Gray{Y: 0x99}
		case Positive:
			cols[i] = color.Black
		default:
			k, ok := blocks[w.BlockID]
			if !ok {
				k = len(blocks)
				blocks[w.BlockID] = k
			}
			ra, rb := rank[w.DrugA][w.ConcA], rank[w.DrugB][w.ConcB]
			t := float64(ra+rb) / float64(2*maxRank)
			cols[i] = mix(plotstyle.Color(k%6), 0.85*(1-t)) // six colours: the palette without its black
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("plate %s (%s wells)", name, m.Format)
	p.X.Min, p.X.Max = 0.3, float64(m.Format.Cols)+0.7
	p.Y.Min, p.Y.Max = 0.3, float64(m.Format.Rows)+0.7
	p.Y.Scale = flipScale{}
	p.Y.Tick.Marker = rowTicks(m.Format.Rows)
	p.X.Tick.Marker = colTicks(m.Format.Cols)
	p.Add(wellsPlotter{f: m.Format, wells: ws, color: cols})
	return p, nil
}

// flipScale puts row A at the top.
type flipScale struct{}

func (flipScale) Normalize(min, max, x float64) float64 { return (max - x) / (max - min) }

type rowTicks int

func (n rowTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for r := 0; r < int(n); r++ {
		ts = append(ts, plot.Tick{Value: float64(r + 1), Label: RowName(r)})
	}
	return ts
}

type colTicks int

func (n colTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for c := 0; c < int(n); c++ {
		l := ""
		if n <= 24 || c%2 == 0 {
			l = strconv.Itoa(c + 1)
		}
		ts = append(ts, plot.Tick{Value: float64(c + 1), Label: l})
	}
	return ts
}

// WritePlots draws the first n plates of m (n < 0: all) into dir as
// plate-NAME.png and .svg and returns the paths written.
func WritePlots(dir string, m *Map, n int) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for i, pl := range m.Plates {
		if n >= 0 && i >= n {
			break
		}
		p, err := MapPlot(m, pl.Name)
		if err != nil {
			return paths, err
		}
		out, err := plotstyle.SaveGrid(dir, "plate-"+pl.Name, []*plot.Plot{p}, 1)
		paths = append(paths, out...)
		if err != nil {
			return paths, err
		}
	}
	return paths, nil
}
