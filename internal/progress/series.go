package progress

import "io"

// Series draws one bar after another on one writer, for work done in
// stages of their own length (one bar per network a command trains, say).
// Next ends the current bar and starts the next; Finish ends the current
// one at the units it reached, as training that stops early ends before its
// maximum.
type Series struct {
	w    io.Writer
	bar  *Bar
	done int
}

// NewSeries returns a series writing its bars to w.
func NewSeries(w io.Writer) *Series { return &Series{w: w} }

// Active reports whether a bar is drawn (Next was called since the last
// Finish).
func (s *Series) Active() bool { return s.bar != nil }

// Next ends the current bar, if any, and starts one labelled label over
// total units.
func (s *Series) Next(label string, total int) {
	s.Finish()
	s.bar = New(s.w, label, total)
	s.done = 0
}

// Set records done units of the current bar, as Bar.Set does.
func (s *Series) Set(done int, detail ...string) {
	s.done = done
	s.bar.Set(done, detail...)
}

// Finish ends the current bar, if any, with its total set to the units
// done.
func (s *Series) Finish() {
	if s.bar == nil {
		return
	}
	s.bar.SetTotal(s.done)
	s.bar.Finish()
	s.bar = nil
}
