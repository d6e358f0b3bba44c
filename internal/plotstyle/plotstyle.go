// Package plotstyle holds what the project's figures share: a palette whose
// colours stay distinct for colour-blind readers and in greyscale print,
// and a ticker for axes that count things.
package plotstyle

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// okabeIto is the Okabe–Ito palette (Okabe and Ito 2008, "Color Universal
// Design"), without its yellow, which is hard to see on white.
var okabeIto = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xff}, // blue
	color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xff}, // orange
	color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xff}, // bluish green
	color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xff}, // vermillion
	color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xff}, // reddish purple
	color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xff}, // sky blue
	color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xff}, // black
}

// NumColors is the number of distinct colours Color cycles through.
const NumColors = 7

// Color returns the colour of series i (i >= 0), cycling after NumColors.
func Color(i int) color.Color { return okabeIto[i%len(okabeIto)] }

// CountTicks is a plot.Ticker for axes whose values are counts: gonum's
// default tick positions, keeping only whole numbers and labelling them
// without decimals ("175", never "175.00").
type CountTicks struct{}

// Ticks returns the ticks between min and max.
func (CountTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) { // DefaultTicks panics on an empty range
		v := math.Round(min)
		return []plot.Tick{{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)}}
	}
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(min, max) {
		if t.Label == "" {
			out = append(out, t)
			continue
		}
		if t.Value != math.Trunc(t.Value) {
			out = append(out, plot.Tick{Value: t.Value}) // a minor tick
			continue
		}
		out = append(out, plot.Tick{Value: t.Value, Label: strconv.FormatFloat(t.Value, 'f', 0, 64)})
	}
	return out
}

// MeanBand returns the line of mean[k] at x = x0 + k, in colour c and 1.5
// points wide, and the translucent band mean ± se around it (no outline):
// the "mean ± standard error over seeds" curves of the project's figures.
// Add the band before the line so the line stays on top.
func MeanBand(x0 float64, mean, se []float64, c color.Color) (*plotter.Polygon, *plotter.Line, error) {
	line := make(plotter.XYs, len(mean))
	band := make(plotter.XYs, 0, 2*len(mean))
	for k := range mean {
		line[k] = plotter.XY{X: x0 + float64(k), Y: mean[k]}
		band = append(band, plotter.XY{X: x0 + float64(k), Y: mean[k] + se[k]})
	}
	for k := len(mean) - 1; k >= 0; k-- {
		band = append(band, plotter.XY{X: x0 + float64(k), Y: mean[k] - se[k]})
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return nil, nil, err
	}
	r, g, b, _ := c.RGBA()
	poly.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 50}
	poly.LineStyle.Width = 0
	l, err := plotter.NewLine(line)
	if err != nil {
		return nil, nil, err
	}
	l.Color = c
	l.Width = vg.Points(1.5)
	return poly, l, nil
}
