// Package textplot draws small one-line plots with text: a histogram of
// values, an interval marker under it, an axis, and horizontal bars with
// error whiskers. Every function returns exactly width cells (runes of
// width 1); a value maps to cell floor((v−lo)/(hi−lo)·width), clamped to the
// plot. NaN values are skipped.
package textplot

import (
	"math"
	"strconv"
	"strings"
)

var levels = []rune(" ▁▂▃▄▅▆▇█")

// cell returns the cell of v in a plot of width cells over [lo, hi].
func cell(v, lo, hi float64, width int) int {
	if hi <= lo {
		return width / 2
	}
	c := int(math.Floor((v - lo) / (hi - lo) * float64(width)))
	return max(min(c, width-1), 0)
}

// Histogram draws the counts of values per cell as block heights (the
// tallest cell gets a full block, a non-empty cell at least the lowest one).
func Histogram(values []float64, lo, hi float64, width int) string {
	if width <= 0 {
		return ""
	}
	counts := make([]int, width)
	top := 0
	for _, v := range values {
		if math.IsNaN(v) {
			continue
		}
		c := cell(v, lo, hi, width)
		counts[c]++
		top = max(top, counts[c])
	}
	out := make([]rune, width)
	for i, n := range counts {
		l := 0
		if n > 0 {
			l = max(1, int(math.Round(float64(n)/float64(top)*float64(len(levels)-1))))
		}
		out[i] = levels[l]
	}
	return string(out)
}

// Interval draws mu as ● with a whisker ├──┤ from mu−sigma to mu+sigma.
// With NaN mu it returns blanks; with NaN sigma, the dot alone.
func Interval(mu, sigma, lo, hi float64, width int) string {
	out := []rune(strings.Repeat(" ", max(width, 0)))
	if width <= 0 || math.IsNaN(mu) {
		return string(out)
	}
	if !math.IsNaN(sigma) {
		a, b := cell(mu-sigma, lo, hi, width), cell(mu+sigma, lo, hi, width)
		for i := a; i <= b; i++ {
			out[i] = '─'
		}
		out[a], out[b] = '├', '┤'
	}
	out[cell(mu, lo, hi, width)] = '●'
	return string(out)
}

// Axis labels lo at the left, hi at the right and 0 (when inside and there
// is room) at its cell.
func Axis(lo, hi float64, width int) string {
	out := []rune(strings.Repeat(" ", max(width, 0)))
	put := func(at int, s string) bool {
		r := []rune(s)
		if at < 0 || at+len(r) > width {
			return false
		}
		for i := at; i < at+len(r); i++ {
			if out[i] != ' ' || (i > 0 && out[i-1] != ' ' && i == at) {
				return false
			}
		}
		copy(out[at:], r)
		return true
	}
	l, h := Number(lo), Number(hi)
	put(0, l)
	put(width-len([]rune(h)), h)
	if lo < 0 && hi > 0 {
		z := cell(0, lo, hi, width)
		if z > len(l)+1 && z < width-len(h)-2 {
			put(z, "0")
		}
	}
	return string(out)
}

// Bar draws a horizontal bar from 0 to mu (█), the whisker from mu−sigma to
// mu+sigma (─) where it goes beyond the bar, and the zero line (│).
func Bar(mu, sigma, lo, hi float64, width int) string {
	out := []rune(strings.Repeat(" ", max(width, 0)))
	if width <= 0 {
		return ""
	}
	if lo <= 0 && hi >= 0 {
		out[cell(0, lo, hi, width)] = '│'
	}
	if math.IsNaN(mu) {
		return string(out)
	}
	if !math.IsNaN(sigma) {
		for i := cell(mu-sigma, lo, hi, width); i <= cell(mu+sigma, lo, hi, width); i++ {
			out[i] = '─'
		}
	}
	z := cell(math.Max(math.Min(0, hi), lo), lo, hi, width)
	m := cell(mu, lo, hi, width)
	for i := min(z, m); i <= max(z, m); i++ {
		out[i] = '█'
	}
	return string(out)
}

// Number formats x briefly: at most 3 significant digits below 1000,
// integers above.
func Number(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.Abs(x) >= 1000:
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}
