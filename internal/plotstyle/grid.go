package plotstyle

import (
	"image/color"
	"io"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/deup-screening/deup/internal/atomicfile"
)

// SaveGrid draws plots on a grid of cols columns (5 × 3.5 inches a panel,
// white background) and writes dir/base.png and dir/base.svg, each
// atomically. It returns the paths written (none for no plots).
func SaveGrid(dir, base string, plots []*plot.Plot, cols int) ([]string, error) {
	if len(plots) == 0 {
		return nil, nil
	}
	cols = min(cols, len(plots))
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
		for j := range grid[i] {
			if k := i*cols + j; k < len(plots) {
				grid[i][j] = plots[k]
			}
		}
	}
	w, h := vg.Length(cols)*5*vg.Inch, vg.Length(rows)*3.5*vg.Inch
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	draw1 := func(dc draw.Canvas) {
		cs := plot.Align(grid, tiles, dc)
		for i := range grid {
			for j, p := range grid[i] {
				if p != nil {
					p.Draw(cs[i][j])
				}
			}
		}
	}
	img := vgimg.New(w, h)
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	draw1(dc)
	png := filepath.Join(dir, base+".png")
	if err := writeTo(png, vgimg.PngCanvas{Canvas: img}); err != nil {
		return nil, err
	}
	sv := vgsvg.New(w, h)
	draw1(draw.New(sv))
	svg := filepath.Join(dir, base+".svg")
	if err := writeTo(svg, sv); err != nil {
		return nil, err
	}
	return []string{png, svg}, nil
}

func writeTo(path string, c io.WriterTo) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}
