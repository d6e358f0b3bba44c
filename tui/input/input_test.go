package input

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestUpdate(t *testing.T) {
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	for _, tc := range []struct {
		name  string
		start string
		keys  []tea.KeyMsg
		want  string
	}{
		{"type", "", []tea.KeyMsg{runes("ci"), runes("s")}, "cis"},
		{"space", "a", []tea.KeyMsg{{Type: tea.KeySpace, Runes: []rune{' '}}, runes("b")}, "a b"},
		{"backspace rune", "β-lap", []tea.KeyMsg{{Type: tea.KeyBackspace}}, "β-la"},
		{"backspace empty", "", []tea.KeyMsg{{Type: tea.KeyBackspace}}, ""},
		{"ctrl+w", "vinca alkaloid  ", []tea.KeyMsg{{Type: tea.KeyCtrlW}}, "vinca "},
		{"ctrl+w one word", "cis", []tea.KeyMsg{{Type: tea.KeyCtrlW}}, ""},
		{"ctrl+u", "abc", []tea.KeyMsg{{Type: tea.KeyCtrlU}}, ""},
		{"enter ignored", "abc", []tea.KeyMsg{{Type: tea.KeyEnter}, {Type: tea.KeyLeft}}, "abc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Model{Value: tc.start}
			for _, k := range tc.keys {
				m, _ = m.Update(k)
			}
			if m.Value != tc.want {
				t.Fatalf("value %q, want %q", m.Value, tc.want)
			}
		})
	}
	m, changed := Model{Prompt: "> ", Value: "x"}.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if changed || m.View() != "> x█" {
		t.Fatalf("changed %v view %q", changed, m.View())
	}
}
