package tui

import (
	"context"
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/muesli/termenv"
)

// sliceSource is a plain Source for the package's internal tests (the real
// one, tui/pairs, imports this package). It sorts by μ only.
type sliceSource struct {
	info Info
	rows []Row
}

func (s *sliceSource) Info() Info    { return s.info }
func (s *sliceSource) Len() int      { return len(s.rows) }
func (s *sliceSource) Row(i int) Row { return s.rows[i] }
func (s *sliceSource) Nearest(context.Context, int, int) ([]Row, error) {
	return nil, nil
}

type sliceRows []Row

func (r sliceRows) Len() int      { return len(r) }
func (r sliceRows) Row(i int) Row { return r[i] }

func (s *sliceSource) Query(ctx context.Context, q Query) (Rows, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out sliceRows
	for _, r := range s.rows {
		if q.Text == "" || strings.Contains(strings.ToLower(s.info.Drugs[r.A].Name+s.info.Drugs[r.B].Name), strings.ToLower(q.Text)) {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b Row) int {
		if q.Desc {
			a, b = b, a
		}
		switch {
		case a.Mu < b.Mu:
			return -1
		case a.Mu > b.Mu:
			return 1
		}
		return 0
	})
	return out, nil
}

func testSource() *sliceSource {
	s := &sliceSource{info: Info{Name: "t", ScoreName: "score", CellLines: []string{"X"}, Acquisition: "test"}}
	for _, n := range []string{"alpha", "beta", "gamma", "delta"} {
		s.info.Drugs = append(s.info.Drugs, drugcomb.Drug{ID: n[:1], Name: n})
	}
	for a := range 4 {
		for b := a + 1; b < 4; b++ {
			i := len(s.rows)
			s.rows = append(s.rows, Row{Index: i, A: a, B: b, Pair: -1, Measured: math.NaN(), Mu: float64(i), SigmaTotal: 1, SigmaEpistemic: 1, SigmaAleatoric: 0, Acquisition: float64(i)})
		}
	}
	return s
}

func plain() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return r
}

func press(s string) tea.KeyMsg {
	switch s {
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func update(m Model, msg tea.Msg) (Model, tea.Cmd) {
	mm, cmd := m.Update(msg)
	return mm.(Model), cmd
}

func ready(t *testing.T, opt Options) Model {
	t.Helper()
	opt.Renderer = plain()
	m := New(testSource(), opt)
	m, _ = update(m, m.Init()())
	if m.n() != 6 {
		t.Fatalf("%d rows after Init, want 6", m.n())
	}
	return m
}

func TestUpdateIsPure(t *testing.T) {
	m := ready(t, Options{})
	before := m.View()
	for _, k := range []string{"space", "7", "/", "enter", "?", "B", "e"} {
		_, _ = m.Update(press(k))
	}
	if m.View() != before || len(m.marks) != 0 {
		t.Fatal("Update changed the model it was called on")
	}
	// marks are copied, not shared, between models
	m1, _ := update(m, press("space"))
	m2, _ := update(m1, press("up"))
	m2, _ = update(m2, press("space")) // unmark row 0 in m2
	if len(m1.marks) != 1 || len(m2.marks) != 0 {
		t.Fatalf("marks m1=%v m2=%v, want 1 and 0", m1.marks, m2.marks)
	}
}

func TestStaleAnswersDropped(t *testing.T) {
	m := ready(t, Options{})
	m1, slow := update(m, press("5"))  // μ, largest first
	m2, fast := update(m1, press("5")) // μ, smallest first
	m3, _ := update(m2, fast())
	m4, _ := update(m3, slow()) // the first query answers last
	if got := m4.rows.Row(0).Mu; got != 0 {
		t.Fatalf("first row μ %v, want 0 (the answer to the latest query)", got)
	}
	if m4.loading {
		t.Fatal("still loading")
	}
}

func TestSearchDebounce(t *testing.T) {
	m := ready(t, Options{Debounce: 150 * time.Millisecond})
	m, _ = update(m, press("/"))
	m, c1 := update(m, press("b"))
	m, c2 := update(m, press("e"))
	if c1 == nil || c2 == nil {
		t.Fatal("typing must schedule a query")
	}
	// the ticks the two commands would deliver (not run: they sleep)
	m, q := update(m, searchTickMsg{seq: m.seq - 1})
	if q != nil {
		t.Fatal("a superseded tick started a query")
	}
	m, q = update(m, searchTickMsg{seq: m.seq})
	if q == nil {
		t.Fatal("the latest tick started no query")
	}
	m, _ = update(m, q())
	m, _ = update(m, press("enter"))
	if m.q.Text != "be" || m.n() != 3 {
		t.Fatalf("text %q, %d rows; want \"be\" and the 3 pairs with beta", m.q.Text, m.n())
	}
}

func TestMarksAndBatch(t *testing.T) {
	m := ready(t, Options{})
	for _, k := range []string{"space", "space", "space"} {
		m, _ = update(m, press(k))
	}
	m, _ = update(m, press("k")) // back to the third marked row
	m, _ = update(m, press("space"))
	b := m.Batch()
	if len(b) != 2 || b[0].Rank != 1 || b[1].Rank != 2 {
		t.Fatalf("batch %+v, want 2 ranked suggestions", b)
	}
	// acquisition order (desc) from the source: rows 5, 4 were the first two
	if b[0].Mu != 5 || b[1].Mu != 4 || !strings.Contains(b[0].Reason, "row 1 of 6") {
		t.Fatalf("batch %+v", b)
	}
	m, _ = update(m, press("B"))
	m, _ = update(m, press("space")) // unmark in the batch view
	if len(m.Batch()) != 1 || m.Batch()[0].Rank != 1 {
		t.Fatalf("after unmark: %+v", m.Batch())
	}
}

func TestExportNeedsMarksAndExtension(t *testing.T) {
	m := ready(t, Options{ExportPath: "out.txt", Export: suggestFiles{}})
	m, _ = update(m, press("e"))
	if m.mode != modeTable || !strings.Contains(m.status, "nothing to export") {
		t.Fatalf("mode %v status %q", m.mode, m.status)
	}
	m, _ = update(m, press("space"))
	m, _ = update(m, press("e"))
	m, cmd := update(m, press("enter"))
	if cmd != nil || !strings.Contains(m.status, ".csv, .parquet or .json") {
		t.Fatalf("exporting to .txt: cmd %v status %q", cmd != nil, m.status)
	}
	m, _ = update(m, exportedMsg{path: "x.csv", n: 1, err: errors.New("disk full")})
	if m.mode != modeBatch || !strings.Contains(m.View(), "export failed: disk full") {
		t.Fatalf("mode %v view\n%s", m.mode, m.View())
	}
}

// TestExportWithoutExporter: without Options.Export the prompt opens but
// enter writes nothing and says why.
func TestExportWithoutExporter(t *testing.T) {
	m := ready(t, Options{ExportPath: "out.csv"})
	m, _ = update(m, press("space"))
	m, _ = update(m, press("e"))
	m, cmd := update(m, press("enter"))
	if cmd != nil || m.status != "cannot export: no exporter (Options.Export)" {
		t.Fatalf("cmd %v status %q", cmd != nil, m.status)
	}
}

func TestResize(t *testing.T) {
	m := ready(t, Options{})
	for _, k := range []string{"G"} {
		m, _ = update(m, press(k))
	}
	for _, sz := range [][2]int{{80, 24}, {40, 8}, {200, 60}, {20, 6}} {
		m, _ = update(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		lines := strings.Split(m.View(), "\n")
		if len(lines) != sz[1] {
			t.Errorf("%v: %d lines", sz, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > sz[0] {
				t.Errorf("%v: line too wide: %q", sz, l)
			}
		}
		if !strings.Contains(m.View(), ">") {
			t.Errorf("%v: cursor row not visible:\n%s", sz, m.View())
		}
	}
}

func TestQuit(t *testing.T) {
	m := ready(t, Options{})
	for _, k := range []tea.KeyMsg{press("q"), {Type: tea.KeyCtrlC}} {
		_, cmd := m.Update(k)
		if cmd == nil {
			t.Fatalf("%v: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Fatalf("%v: not a quit", k)
		}
	}
	// q inside the search box is a letter
	m, _ = update(m, press("/"))
	m, cmd := update(m, press("q"))
	if m.q.Text != "q" || cmd == nil {
		t.Fatalf("text %q", m.q.Text)
	}
}

// campaignDouble is a test double of an active-learning campaign: it
// reports two progress steps, then returns a fixed result.
type campaignDouble struct{ err error }

func (c campaignDouble) Round(ctx context.Context, progress func(RoundProgress)) (RoundResult, error) {
	progress(RoundProgress{Stage: "train", Done: 1, Total: 2, Detail: "epoch 1"})
	progress(RoundProgress{Stage: "train", Done: 2, Total: 2, Detail: "epoch 2"})
	return RoundResult{Suggested: 3}, c.err
}

func TestRoundMessageFlow(t *testing.T) {
	t.Run("no campaign", func(t *testing.T) {
		m := ready(t, Options{})
		m, cmd := update(m, press("R"))
		if cmd != nil || !strings.Contains(m.status, "no campaign open") {
			t.Fatalf("status %q", m.status)
		}
	})
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{{"ok", nil, "round done: 3 suggestions"}, {"fails", errors.New("boom"), "round failed: boom"}} {
		t.Run(tc.name, func(t *testing.T) {
			m := ready(t, Options{Campaign: campaignDouble{tc.err}})
			m, cmd := update(m, press("R"))
			var stages []string
			for cmd != nil {
				msg := cmd()
				if p, ok := msg.(roundProgressMsg); ok {
					stages = append(stages, p.p.Detail)
				}
				m, cmd = update(m, msg)
				if m.round != nil && !strings.Contains(m.View(), "round: ") {
					t.Fatalf("progress not shown:\n%s", m.View())
				}
			}
			if !slices.Equal(stages, []string{"epoch 1", "epoch 2"}) {
				t.Fatalf("progress %v", stages)
			}
			if m.round != nil || m.status != tc.want {
				t.Fatalf("round %v status %q, want %q", m.round, m.status, tc.want)
			}
		})
	}
}

func TestKeysArrivingTogether(t *testing.T) {
	m := ready(t, Options{})
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjj")})
	if m.tbl.Cursor != 3 {
		t.Fatalf("cursor %d after \"jjj\", want 3", m.tbl.Cursor)
	}
	m, cmd := update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/be")})
	if m.mode != modeSearch || m.search.Value != "be" || cmd == nil {
		t.Fatalf("mode %v search %q after \"/be\"", m.mode, m.search.Value)
	}
	// in the search box a burst is text, "q" included
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("tq")})
	if m.search.Value != "betq" {
		t.Fatalf("search %q", m.search.Value)
	}
}

func TestMouse(t *testing.T) {
	m := ready(t, Options{})
	m, _ = update(m, tea.MouseMsg{Button: tea.MouseButtonWheelDown})
	if m.tbl.Cursor != 3 {
		t.Fatalf("wheel down: cursor %d, want 3", m.tbl.Cursor)
	}
	m, _ = update(m, tea.MouseMsg{Button: tea.MouseButtonWheelUp})
	m, _ = update(m, tea.MouseMsg{Button: tea.MouseButtonWheelUp})
	if m.tbl.Cursor != 0 {
		t.Fatalf("wheel up twice: cursor %d, want 0", m.tbl.Cursor)
	}
	// line 0 title, 1 filter, 2 column header, 3 first row
	m, _ = update(m, tea.MouseMsg{Button: tea.MouseButtonLeft, Action: tea.MouseActionPress, Y: 5})
	if m.tbl.Cursor != 2 {
		t.Fatalf("click on line 5: cursor %d, want 2", m.tbl.Cursor)
	}
	for _, y := range []int{0, 2, 9, 23} { // title, header, below the 6 rows
		m2, _ := update(m, tea.MouseMsg{Button: tea.MouseButtonLeft, Action: tea.MouseActionPress, Y: y})
		if m2.tbl.Cursor != 2 {
			t.Fatalf("click on line %d moved the cursor to %d", y, m2.tbl.Cursor)
		}
	}
	if v := m.View(); !strings.Contains(strings.Split(v, "\n")[5], ">") {
		t.Fatalf("cursor not on line 5:\n%s", v)
	}
}

func TestNavigationStack(t *testing.T) {
	m := ready(t, Options{})
	run := func(m Model, k tea.KeyMsg) Model {
		m, cmd := update(m, k)
		for cmd != nil {
			m, cmd = update(m, cmd())
		}
		return m
	}
	steps := []struct {
		key  string
		want mode
	}{
		{"enter", modeDetail}, // table → detail
		{"?", modeHelp},
		{"x", modeDetail}, // any key closes help, back to the detail
		{"a", modeDrug},   // detail → drug A's partners
		{"enter", modeDetail},
		{"esc", modeDrug},
		{"esc", modeDetail},
		{"esc", modeTable},
		{"esc", modeTable},
		{"B", modeBatch},
		{"?", modeHelp},
		{"x", modeBatch},
		{"esc", modeTable},
	}
	for i, s := range steps {
		m = run(m, press(s.key))
		if m.mode != s.want {
			t.Fatalf("step %d (%s): mode %v, want %v", i, s.key, m.mode, s.want)
		}
	}
	if len(m.stack) != 0 {
		t.Fatalf("stack %v left", m.stack)
	}
	// j/k in the detail view walk the table without growing the stack
	m = run(m, press("enter"))
	m = run(m, press("j"))
	m = run(m, press("j"))
	if m.mode != modeDetail || len(m.stack) != 1 || m.detail.Index != m.rows.Row(2).Index {
		t.Fatalf("mode %v stack %v detail %d", m.mode, m.stack, m.detail.Index)
	}
}

// TestFooter checks the two footer lines the detail, drug and batch views
// end with: the status line (a message, or a failure in the error style:
// plain renderer, so the text itself), then the view's keys.
func TestFooter(t *testing.T) {
	for _, tc := range []struct {
		status, keys, want string
	}{
		{"", "esc back", "\nesc back"},
		{"3 pairs marked", "e export · esc back", "3 pairs marked\ne export · esc back"},
		{"export failed", "enter write · esc cancel", "export failed\nenter write · esc cancel"},
	} {
		m := ready(t, Options{})
		m.status = tc.status
		if got := m.footer(tc.keys); got != tc.want {
			t.Errorf("footer(%q) with status %q = %q, want %q", tc.keys, tc.status, got, tc.want)
		}
	}
}
