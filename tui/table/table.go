// Package table is a virtualized table for the terminal UI: it keeps a
// cursor and a scroll offset over n rows and renders only the rows that fit,
// asking the caller for their cells. n may be millions: nothing is O(n).
package table

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Column is one column: its title, width in cells, and alignment.
type Column struct {
	Title string
	Width int
	Right bool // right-align (numbers)
}

// Styles are the table's styles; the zero value renders plain text.
type Styles struct {
	Header, Selected, Row lipgloss.Style
}

// KeyMap holds the movement keys.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// DefaultKeyMap returns vi-style and arrow movement keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first row")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last row")),
	}
}

// Model is the cursor and scroll state. Height is the number of body rows
// shown (without the header); the zero Model has its cursor on row 0.
type Model struct {
	Cursor, Offset, Height int
}

// SetHeight sets the body height (at least 1) and keeps the cursor visible.
func (m Model) SetHeight(h int, n int) Model {
	m.Height = max(h, 1)
	return m.clamp(n)
}

// MoveTo puts the cursor on row i (clamped to [0, n)) and scrolls to it.
func (m Model) MoveTo(i, n int) Model {
	m.Cursor = i
	return m.clamp(n)
}

func (m Model) clamp(n int) Model {
	m.Cursor = max(min(m.Cursor, n-1), 0)
	h := max(m.Height, 1)
	if m.Cursor < m.Offset {
		m.Offset = m.Cursor
	}
	if m.Cursor >= m.Offset+h {
		m.Offset = m.Cursor - h + 1
	}
	m.Offset = max(min(m.Offset, n-h), 0)
	return m
}

// Update moves the cursor for the movement keys of km over n rows and
// reports whether msg was one of them.
func (m Model) Update(msg tea.KeyMsg, km KeyMap, n int) (Model, bool) {
	h := max(m.Height, 1)
	switch {
	case key.Matches(msg, km.Up):
		m.Cursor--
	case key.Matches(msg, km.Down):
		m.Cursor++
	case key.Matches(msg, km.PageUp):
		m.Cursor -= h
		m.Offset -= h
	case key.Matches(msg, km.PageDown):
		m.Cursor += h
		m.Offset += h
	case key.Matches(msg, km.Top):
		m.Cursor = 0
	case key.Matches(msg, km.Bottom):
		m.Cursor = n - 1
	default:
		return m, false
	}
	return m.clamp(n), true
}

// View renders the header and Height body rows (blank lines below the last
// row) of a table of n rows; cells(i) returns row i's cells, one per column.
// Each line is exactly the sum of the column widths plus one space between
// columns.
func (m Model) View(cols []Column, n int, cells func(i int) []string, st Styles) string {
	var b strings.Builder
	head := make([]string, len(cols))
	for j, c := range cols {
		head[j] = c.Title
	}
	b.WriteString(st.Header.Render(line(cols, head)))
	blank := strings.Repeat(" ", width(cols))
	for k := range max(m.Height, 1) {
		b.WriteByte('\n')
		i := m.Offset + k
		if i >= n {
			b.WriteString(blank)
			continue
		}
		l := line(cols, cells(i))
		if i == m.Cursor {
			b.WriteString(st.Selected.Render(l))
		} else {
			b.WriteString(st.Row.Render(l))
		}
	}
	return b.String()
}

func width(cols []Column) int {
	w := 0
	for _, c := range cols {
		w += c.Width
	}
	return w + max(len(cols)-1, 0)
}

func line(cols []Column, cells []string) string {
	var b strings.Builder
	for j, c := range cols {
		if j > 0 {
			b.WriteByte(' ')
		}
		s := ""
		if j < len(cells) {
			s = cells[j]
		}
		b.WriteString(Fit(s, c.Width, c.Right))
	}
	return b.String()
}

// Fit truncates s to w cells (with "…") or pads it with spaces, on the left
// when right is set.
func Fit(s string, w int, right bool) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	pad := strings.Repeat(" ", w-ansi.StringWidth(s))
	if right {
		return pad + s
	}
	return s + pad
}
