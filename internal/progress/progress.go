// Package progress draws a one-line text progress bar for long work in the
// command-line tool. Libraries never draw: they send events; the CLI turns
// them into calls on a Bar.
//
// A Bar redraws in place with a carriage return when its writer is a
// terminal (or when Redraw is set), and otherwise prints one line per
// percent-step at most, so logs stay short. A Bar is not safe for concurrent
// use.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Bar is a progress bar over Total units of work.
type Bar struct {
	w       io.Writer
	label   string
	total   int
	done    int
	start   time.Time
	last    time.Time
	lastPct int
	tty     bool
	detail  string
	now     func() time.Time
	// printedEnd is set once a line showing all work done was printed.
	printedEnd bool
}

// New returns a bar writing to w. Total may be 0 for unknown amounts of work.
func New(w io.Writer, label string, total int) *Bar {
	b := &Bar{w: w, label: label, total: total, lastPct: -1, now: time.Now}
	b.start = b.now()
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			b.tty = true
		}
	}
	return b
}

// SetTotal changes the amount of work.
func (b *Bar) SetTotal(total int) { b.total = total }

// Add records n more units done and redraws.
func (b *Bar) Add(n int) { b.Set(b.done + n) }

// Set records done units and redraws, with an optional detail text (for
// example the current epoch and loss).
func (b *Bar) Set(done int, detail ...string) {
	b.done = done
	if len(detail) > 0 {
		b.detail = strings.Join(detail, " ")
	}
	b.draw(false)
}

// Detail replaces the detail text and redraws.
func (b *Bar) Detail(s string) {
	b.detail = s
	b.draw(false)
}

// Finish draws the final state and ends the line. It returns the elapsed
// time; on a nil Bar (one never started) it does nothing.
func (b *Bar) Finish() time.Duration {
	if b == nil {
		return 0
	}
	if b.total > 0 && b.done < b.total {
		b.done = b.total
	}
	now := b.now()
	b.drawAt(now, true)
	if b.tty {
		fmt.Fprintln(b.w)
	}
	return now.Sub(b.start)
}

func (b *Bar) draw(final bool) { b.drawAt(b.now(), final) }

func (b *Bar) drawAt(now time.Time, final bool) {
	pct := 0
	if b.total > 0 {
		pct = 100 * b.done / b.total
		if pct > 100 {
			pct = 100
		}
	}
	if b.tty {
		if !final && now.Sub(b.last) < 100*time.Millisecond {
			return
		}
		b.last = now
		fmt.Fprintf(b.w, "\r\033[K%s", b.line(pct, now))
		return
	}
	// Not a terminal: one line per 10 % step; the final line only if the
	// last line printed did not already show the end state.
	step := pct / 10
	if final {
		if b.printedEnd {
			return
		}
	} else if step == b.lastPct {
		return
	}
	b.lastPct = step
	b.printedEnd = final || (b.total > 0 && b.done >= b.total)
	fmt.Fprintln(b.w, b.line(pct, now))
}

func (b *Bar) line(pct int, now time.Time) string {
	const width = 24
	el := now.Sub(b.start).Round(100 * time.Millisecond)
	var sb strings.Builder
	sb.WriteString(b.label)
	if b.total > 0 {
		fill := width * pct / 100
		fmt.Fprintf(&sb, " [%s%s] %3d%% %d/%d", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), pct, b.done, b.total)
		if b.done > 0 && b.done < b.total {
			eta := time.Duration(float64(now.Sub(b.start)) * float64(b.total-b.done) / float64(b.done)).Round(time.Second)
			fmt.Fprintf(&sb, " eta %s", eta)
		}
	} else {
		fmt.Fprintf(&sb, " %d", b.done)
	}
	fmt.Fprintf(&sb, " %s", el)
	if b.detail != "" {
		sb.WriteString(" ")
		sb.WriteString(b.detail)
	}
	return sb.String()
}

// Lazy returns a progress callback that draws a bar of label on w from its
// first call (a quick job shows none), with the count and unit as detail,
// and a function that ends the bar.
func Lazy(w io.Writer, label, unit string) (set func(n int), finish func()) {
	var bar *Bar
	set = func(n int) {
		if bar == nil {
			bar = New(w, label, 0)
		}
		bar.Set(n, unit)
	}
	return set, func() { bar.Finish() }
}
