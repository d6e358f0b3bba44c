package table

import (
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestMovement(t *testing.T) {
	km := DefaultKeyMap()
	k := func(s string) tea.KeyMsg {
		switch s {
		case "pgdown":
			return tea.KeyMsg{Type: tea.KeyPgDown}
		case "pgup":
			return tea.KeyMsg{Type: tea.KeyPgUp}
		}
		return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
	}
	const n = 8_592_585 // the catalogue: nothing may be O(n)
	for _, tc := range []struct {
		keys           []string
		cursor, offset int
	}{
		{nil, 0, 0},
		{[]string{"j", "j"}, 2, 0},
		{[]string{"k"}, 0, 0},
		{[]string{"j", "j", "j", "j", "j"}, 5, 1},
		{[]string{"pgdown"}, 5, 5},
		{[]string{"pgdown", "pgup"}, 0, 0},
		{[]string{"G"}, n - 1, n - 5},
		{[]string{"G", "j"}, n - 1, n - 5},
		{[]string{"G", "g"}, 0, 0},
	} {
		t.Run(strings.Join(tc.keys, ","), func(t *testing.T) {
			m := Model{}.SetHeight(5, n)
			for _, s := range tc.keys {
				var ok bool
				if m, ok = m.Update(k(s), km, n); !ok {
					t.Fatalf("%q not handled", s)
				}
			}
			if m.Cursor != tc.cursor || m.Offset != tc.offset {
				t.Fatalf("cursor %d offset %d, want %d %d", m.Cursor, m.Offset, tc.cursor, tc.offset)
			}
		})
	}
	if _, ok := (Model{}).Update(k("x"), km, n); ok {
		t.Fatal("x handled")
	}
	m := Model{}.SetHeight(3, 0)
	if m, _ = m.Update(k("j"), km, 0); m.Cursor != 0 {
		t.Fatalf("empty table: cursor %d", m.Cursor)
	}
}

func TestView(t *testing.T) {
	cols := []Column{{Title: "name", Width: 6}, {Title: "value", Width: 5, Right: true}}
	var asked []int
	m := Model{Cursor: 11, Offset: 10, Height: 3}
	got := m.View(cols, 12, func(i int) []string {
		asked = append(asked, i)
		return []string{"row-number-" + strconv.Itoa(i), strconv.Itoa(i * 100)}
	}, Styles{})
	want := "name   value\n" +
		"row-n…  1000\n" +
		"row-n…  1100\n" +
		"            " // 6 + 1 + 5 cells
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
	if len(asked) != 2 || asked[0] != 10 || asked[1] != 11 {
		t.Fatalf("asked for rows %v, want only the visible 10 and 11", asked)
	}
}
