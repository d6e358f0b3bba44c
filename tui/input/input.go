// Package input is a one-line text input for the terminal UI: typed runes
// append, backspace deletes the last rune, ctrl+w the last word, ctrl+u the
// whole line. It has no cursor movement and no clipboard: it is for short
// search terms and file names.
package input

import (
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
)

// Model is the input's state. The zero value is an empty, unfocused input.
type Model struct {
	Prompt string
	Value  string
}

// Update applies a key to the input and reports whether the value changed.
// Keys it does not edit with (enter, esc, arrows) leave it unchanged.
func (m Model) Update(msg tea.KeyMsg) (Model, bool) {
	old := m.Value
	switch msg.Type {
	case tea.KeyRunes, tea.KeySpace:
		m.Value += string(msg.Runes)
		if msg.Type == tea.KeySpace && len(msg.Runes) == 0 {
			m.Value += " "
		}
	case tea.KeyBackspace:
		if r := []rune(m.Value); len(r) > 0 {
			m.Value = string(r[:len(r)-1])
		}
	case tea.KeyCtrlW:
		v := strings.TrimRightFunc(m.Value, unicode.IsSpace)
		i := strings.LastIndexFunc(v, unicode.IsSpace)
		m.Value = v[:i+1]
	case tea.KeyCtrlU:
		m.Value = ""
	}
	return m, m.Value != old
}

// View renders the prompt, the value and a block cursor.
func (m Model) View() string { return m.Prompt + m.Value + "█" }
