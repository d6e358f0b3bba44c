package tui_test

import (
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/deup-screening/deup/tui"
)

// FuzzKeys feeds arbitrary key sequences (one byte a key; a few bytes stand
// for special keys and resizes) through every screen: Update never panics
// and every frame fills the terminal exactly.
func FuzzKeys(f *testing.F) {
	f.Add([]byte("7   Be\r"))
	f.Add([]byte("/cis\r\x1bcmm\rab\x1b?x"))
	f.Add([]byte("\x01\x02jjjGg 5 5\r\x1b"))
	tab := fixture(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 200 {
			in = in[:200]
		}
		w, h := 80, 24
		var m tea.Model = tui.New(tab, tui.Options{Renderer: asciiRenderer(), ExportPath: filepath.Join(t.TempDir(), "b.json"), Export: tui.SuggestFiles})
		m = send(t, m, m.(tui.Model).Init()())
		for _, c := range in {
			var msg tea.Msg
			switch c {
			case '\r':
				msg = tea.KeyMsg{Type: tea.KeyEnter}
			case 0x1b:
				msg = tea.KeyMsg{Type: tea.KeyEsc}
			case 0x7f:
				msg = tea.KeyMsg{Type: tea.KeyBackspace}
			case 0x01:
				w, h = 20+int(len(in))%100, 5+int(len(in))%40
				msg = tea.WindowSizeMsg{Width: w, Height: h}
			case 0x02:
				msg = tea.KeyMsg{Type: tea.KeyDown}
			case 0x03:
				msg = tea.KeyMsg{Type: tea.KeyPgDown}
			case 'q':
				continue // quitting ends the session; tested elsewhere
			default:
				msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(c)}}
			}
			m = send(t, m, msg)
			checkFrame(t, m.View(), w, h)
		}
	})
}
