package tui

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/deup-screening/deup/tui/input"
	"github.com/deup-screening/deup/tui/table"
	"github.com/deup-screening/deup/uq"
)

// Options configure a Model. The zero value is usable.
type Options struct {
	// Renderer renders the styles; nil means lipgloss.DefaultRenderer(),
	// which detects the terminal's colour profile (and NO_COLOR).
	Renderer *lipgloss.Renderer
	// Context is the parent of the contexts of queries; nil means
	// context.Background(). Cancelling it stops queries in flight.
	Context context.Context
	// Debounce delays the query after a search keystroke, so that typing a
	// word runs one query; 0 queries on every keystroke.
	Debounce time.Duration
	// ExportPath is the file name the export prompt proposes; "" means
	// "batch.csv".
	ExportPath string
	// Nearest is the number of nearest measured pairs in the detail view;
	// 0 means 5.
	Nearest int
	// Width and Height are the terminal size until the first
	// tea.WindowSizeMsg; 0 means 80×24.
	Width, Height int
	// Campaign, when set, enables running a round from the UI (key R).
	Campaign Campaign
	// Export writes exported batches (key e in the batch view); nil means
	// the UI cannot export.
	Export Exporter
	// Interval, when set, shows each pair's calibrated prediction interval
	// in the detail view and puts it in exported batches.
	Interval *Interval
}

// Interval is a model's calibration and the coverage its intervals are
// shown at.
type Interval struct {
	Coverage    float64 // in (0, 1), e.g. 0.9
	Calibration uq.Calibrator
}

// bounds returns the interval of a row, ok false when the row has no
// usable prediction (the view then shows none).
func (iv *Interval) bounds(r Row) (lo, hi float64, ok bool) {
	if iv == nil {
		return 0, 0, false
	}
	lo, hi, err := iv.Calibration.Interval(r.Mu, r.SigmaTotal, iv.Coverage)
	return lo, hi, err == nil
}

type mode int

const (
	modeTable mode = iota
	modeSearch
	modeLine // choosing the cell line filter by name
	modeDetail
	modeDrug
	modeBatch
	modeExport
	modeExported
	modeHelp
	modeQuit // q with marked pairs not exported since they changed: asking
)

// mark is one pair marked for the next batch.
type mark struct {
	row    int    // Row.Index
	reason string // the view it was picked from
}

// Model is the application: the pairs table and its views. Update and View
// are pure: every long computation (queries, nearest pairs, export, a
// campaign round) runs in a tea.Cmd and comes back as a message.
type Model struct {
	src  Source
	info Info
	opt  Options
	st   styles
	keys keyMap

	width, height int
	mode          mode
	// the screens esc returns to, innermost last (detail, drug view and
	// help open on top of the current screen)
	stack []mode

	// the pairs table
	q       Query
	seq     int // sequence number of the latest query; older answers are dropped
	rows    Rows
	loading bool
	tbl     table.Model
	search  input.Model
	lineIn  input.Model // the cell line typed after L

	// detail of one row
	detail  Row
	near    []Row
	nearFor int // Row.Index the near rows are for; -1 none

	// drug view
	drug       int
	drugSeq    int
	drugRows   Rows
	drugLo     float64
	drugHi     float64
	drugTbl    table.Model
	drugLoaded bool

	// batch
	marks    []mark
	unsaved  bool // the marks changed since the last export
	batchTbl table.Model
	path     input.Model
	exported exportedMsg

	// campaign round
	round *RoundProgress

	status string // one line of feedback (errors, results)
}

// New returns the application browsing src.
func New(src Source, opt Options) Model {
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	if opt.ExportPath == "" {
		opt.ExportPath = "batch.csv"
	}
	if opt.Nearest <= 0 {
		opt.Nearest = 5
	}
	if opt.Width <= 0 {
		opt.Width = 80
	}
	if opt.Height <= 0 {
		opt.Height = 24
	}
	r := opt.Renderer
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	m := Model{
		src: src, info: src.Info(), opt: opt, st: newStyles(r), keys: defaultKeys(),
		q: AllRows(), nearFor: -1, drug: -1,
		search: input.Model{Prompt: "search: "},
		lineIn: input.Model{Prompt: "cell line: "},
		path:   input.Model{Prompt: "export to: ", Value: opt.ExportPath},
	}
	return m.resize(opt.Width, opt.Height)
}

// Messages. Each answer carries what it answers, so a late answer to a
// superseded request is recognised and dropped.
type (
	rowsMsg struct {
		seq  int
		rows Rows
		err  error
	}
	drugRowsMsg struct {
		seq    int
		rows   Rows
		lo, hi float64
		err    error
	}
	searchTickMsg struct{ seq int }
	nearMsg       struct {
		row  int
		rows []Row
		err  error
	}
	exportedMsg struct {
		path string
		n    int
		err  error
	}
)

// Init starts the first query.
func (m Model) Init() tea.Cmd { return m.queryCmd() }

func (m Model) queryCmd() tea.Cmd {
	src, ctx, q, seq := m.src, m.opt.Context, m.q, m.seq
	return func() tea.Msg {
		rows, err := src.Query(ctx, q)
		return rowsMsg{seq: seq, rows: rows, err: err}
	}
}

// requery starts a new query for m.q.
func (m Model) requery() (Model, tea.Cmd) {
	m.seq++
	m.loading = true
	return m, m.queryCmd()
}

func (m Model) drugCmd() tea.Cmd {
	src, ctx, seq := m.src, m.opt.Context, m.drugSeq
	q := Query{Sort: ColMu, Desc: true, Drug: m.drug, CellLine: m.q.CellLine, Measured: AnyMeasured}
	return func() tea.Msg {
		rows, err := src.Query(ctx, q)
		if err != nil {
			return drugRowsMsg{seq: seq, err: err}
		}
		lo, hi := 0.0, 0.0
		for i := range rows.Len() {
			r := rows.Row(i)
			mu, s := r.Mu, r.SigmaTotal
			if math.IsNaN(mu) {
				mu = r.Measured
			}
			if math.IsNaN(mu) {
				continue
			}
			if math.IsNaN(s) {
				s = 0
			}
			lo, hi = math.Min(lo, mu-s), math.Max(hi, mu+s)
		}
		return drugRowsMsg{seq: seq, rows: rows, lo: lo, hi: hi}
	}
}

func (m Model) nearCmd(row int) tea.Cmd {
	src, ctx, k := m.src, m.opt.Context, m.opt.Nearest
	return func() tea.Msg {
		rows, err := src.Nearest(ctx, row, k)
		return nearMsg{row: row, rows: rows, err: err}
	}
}

// Update handles a message; it never blocks.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.resize(msg.Width, msg.Height), nil
	case rowsMsg:
		if msg.seq != m.seq {
			return m, nil
		}
		m.loading = false
		if msg.err != nil {
			m.status = "query failed: " + msg.err.Error()
			return m, nil
		}
		m.rows = msg.rows
		m.tbl = m.tbl.MoveTo(0, m.rows.Len())
		m.tbl.Offset = 0
		return m, nil
	case drugRowsMsg:
		if msg.seq != m.drugSeq {
			return m, nil
		}
		if msg.err != nil {
			m.status = "query failed: " + msg.err.Error()
			return m, nil
		}
		m.drugRows, m.drugLo, m.drugHi, m.drugLoaded = msg.rows, msg.lo, msg.hi, true
		m.drugTbl = table.Model{Height: m.drugTbl.Height}
		return m, nil
	case searchTickMsg:
		if msg.seq != m.seq {
			return m, nil
		}
		return m, m.queryCmd()
	case nearMsg:
		if msg.row != m.nearFor {
			return m, nil
		}
		if msg.err != nil {
			m.status = "nearest pairs: " + msg.err.Error()
			return m, nil
		}
		m.near = msg.rows
		return m, nil
	case exportedMsg:
		m.exported = msg
		if msg.err != nil {
			m.status = "export failed: " + msg.err.Error()
			m.mode = modeBatch
			return m, nil
		}
		m.mode, m.unsaved = modeExported, false
		return m, nil
	case roundStartedMsg, roundProgressMsg, roundDoneMsg:
		return m.updateRound(msg)
	case tea.MouseMsg:
		return m.mouse(msg), nil
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && m.mode != modeSearch && m.mode != modeExport && m.mode != modeLine {
			// Keys typed faster than the terminal is read arrive as one
			// message ("jjj", "/cis"): handle them one by one, each in the
			// mode the previous one left.
			var cmds []tea.Cmd
			for _, r := range msg.Runes {
				mm, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
				m = mm.(Model)
				cmds = append(cmds, cmd)
			}
			return m, tea.Batch(cmds...)
		}
		return m.key(msg)
	}
	return m, nil
}

// mouse scrolls the table of the current screen with the wheel and puts
// the cursor on a clicked row (mouse reporting is optional: the command
// turns it on).
func (m Model) mouse(msg tea.MouseMsg) Model {
	var t *table.Model
	var n, top int // rows, and the screen line of the first body row
	switch m.mode {
	case modeTable:
		t, n, top = &m.tbl, m.n(), 3
	case modeDrug:
		t, top = &m.drugTbl, 3
		if m.drugRows != nil {
			n = m.drugRows.Len()
		}
	case modeBatch:
		t, n, top = &m.batchTbl, len(m.marks), 4
	default:
		return m
	}
	switch {
	case msg.Button == tea.MouseButtonWheelUp:
		*t = t.MoveTo(t.Cursor-3, n)
	case msg.Button == tea.MouseButtonWheelDown:
		*t = t.MoveTo(t.Cursor+3, n)
	case msg.Button == tea.MouseButtonLeft && msg.Action == tea.MouseActionPress:
		if i := t.Offset + msg.Y - top; msg.Y >= top && msg.Y < top+t.Height && i < n {
			*t = t.MoveTo(i, n)
		}
	}
	return m
}

func (m Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if msg.Type == tea.KeyCtrlC {
		return m, tea.Quit
	}
	switch m.mode {
	case modeSearch:
		return m.keySearch(msg)
	case modeLine:
		return m.keyLine(msg)
	case modeExport:
		return m.keyExport(msg)
	case modeHelp:
		return m.pop(), nil
	case modeQuit:
		return m.keyQuit(msg)
	case modeExported:
		m.mode = modeTable
		return m, nil
	case modeDetail:
		return m.keyDetail(msg)
	case modeDrug:
		return m.keyDrug(msg)
	case modeBatch:
		return m.keyBatch(msg)
	}
	return m.keyTable(msg)
}

func (m Model) n() int {
	if m.rows == nil {
		return 0
	}
	return m.rows.Len()
}

func (m Model) keyTable(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if t, ok := m.tbl.Update(msg, m.keys.Move, m.n()); ok {
		m.tbl = t
		return m, nil
	}
	m.status = ""
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m = m.push(modeHelp)
	case key.Matches(msg, k.Sort):
		c := Column(msg.Runes[0] - '1')
		if c == m.q.Sort {
			m.q.Desc = !m.q.Desc
		} else {
			m.q.Sort, m.q.Desc = c, c.Numeric()
		}
		return m.requery()
	case key.Matches(msg, k.Search):
		m.mode = modeSearch
		m.search.Value = m.q.Text
	case key.Matches(msg, k.Cell):
		m.q.CellLine++
		if m.q.CellLine >= len(m.info.CellLines) {
			m.q.CellLine = -1
		}
		return m.requery()
	case key.Matches(msg, k.CellBack):
		m.q.CellLine--
		if m.q.CellLine < -1 {
			m.q.CellLine = len(m.info.CellLines) - 1
		}
		return m.requery()
	case key.Matches(msg, k.Line):
		m.mode = modeLine
		m.lineIn.Value = ""
	case key.Matches(msg, k.Measured):
		m.q.Measured = (m.q.Measured + 1) % 3
		return m.requery()
	case key.Matches(msg, k.Clear):
		q := AllRows()
		q.Sort, q.Desc = m.q.Sort, m.q.Desc
		m.q = q
		return m.requery()
	case key.Matches(msg, k.Mark):
		if r, ok := m.current(); ok {
			m = m.toggle(r.Index, fmt.Sprintf("picked in deup tui from row %d of %d, %s", m.tbl.Cursor+1, m.n(), m.describe()))
			m.tbl = m.tbl.MoveTo(m.tbl.Cursor+1, m.n())
		}
	case key.Matches(msg, k.Detail):
		if r, ok := m.current(); ok {
			return m.openDetail(r)
		}
	case key.Matches(msg, k.DrugA), key.Matches(msg, k.DrugB):
		if r, ok := m.current(); ok {
			d := r.A
			if key.Matches(msg, k.DrugB) {
				d = r.B
			}
			return m.openDrug(d)
		}
	case key.Matches(msg, k.Batch):
		m.mode = modeBatch
		m.batchTbl = m.batchTbl.MoveTo(0, len(m.marks))
	case key.Matches(msg, k.Export):
		return m.startExport()
	case key.Matches(msg, k.Round):
		return m.startRound()
	}
	return m, nil
}

// keyLine edits the name after L: enter keeps the pairs of the cell line
// it names (ChooseCellLine), an empty name every line; esc cancels.
func (m Model) keyLine(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch msg.Type {
	case tea.KeyEsc:
		m.mode = modeTable
		return m, nil
	case tea.KeyEnter:
		m.mode = modeTable
		name := strings.TrimSpace(m.lineIn.Value)
		c := ChooseCellLine(m.info.CellLines, name)
		if c < 0 && name != "" {
			m.status = fmt.Sprintf("no cell line matches %q", name)
			return m, nil
		}
		m.q.CellLine = c
		return m.requery()
	}
	m.lineIn, _ = m.lineIn.Update(msg)
	return m, nil
}

// ChooseCellLine returns the index in lines of the line that name names,
// ignoring case: the line of that name, else the first whose name starts
// with it, else the first that contains it; -1 for none (and for "").
func ChooseCellLine(lines []string, name string) int {
	if name == "" {
		return -1
	}
	n := strings.ToLower(name)
	for _, match := range []func(string) bool{
		func(l string) bool { return l == n },
		func(l string) bool { return strings.HasPrefix(l, n) },
		func(l string) bool { return strings.Contains(l, n) },
	} {
		for i, l := range lines {
			if match(strings.ToLower(l)) {
				return i
			}
		}
	}
	return -1
}

func (m Model) keySearch(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch msg.Type {
	case tea.KeyEnter:
		m.mode = modeTable
		return m, nil
	case tea.KeyEsc:
		m.mode = modeTable
		if m.q.Text == "" {
			return m, nil
		}
		m.q.Text = ""
		return m.requery()
	}
	s, changed := m.search.Update(msg)
	m.search = s
	if !changed {
		return m, nil
	}
	m.q.Text = s.Value
	m.seq++
	m.loading = true
	if m.opt.Debounce <= 0 {
		return m, m.queryCmd()
	}
	seq := m.seq
	return m, tea.Tick(m.opt.Debounce, func(time.Time) tea.Msg { return searchTickMsg{seq} })
}

func (m Model) openDetail(r Row) (Model, tea.Cmd) {
	if m.mode != modeDetail {
		m = m.push(modeDetail)
	}
	m.detail, m.near, m.nearFor = r, nil, r.Index
	return m, m.nearCmd(r.Index)
}

func (m Model) keyDetail(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Back), key.Matches(msg, k.Detail):
		m = m.pop()
	case key.Matches(msg, k.Help):
		m = m.push(modeHelp)
	case key.Matches(msg, k.Mark):
		m = m.toggle(m.detail.Index, "picked in deup tui from the detail view, "+m.describe())
	case key.Matches(msg, k.DrugA):
		return m.openDrug(m.detail.A)
	case key.Matches(msg, k.DrugB):
		return m.openDrug(m.detail.B)
	case key.Matches(msg, k.Move.Up), key.Matches(msg, k.Move.Down):
		// walk the list the detail was opened from
		if len(m.stack) > 0 && m.stack[len(m.stack)-1] == modeTable {
			t, _ := m.tbl.Update(msg, m.keys.Move, m.n())
			m.tbl = t
			if r, ok := m.current(); ok {
				return m.openDetail(r)
			}
		}
	}
	return m, nil
}

func (m Model) openDrug(d int) (Model, tea.Cmd) {
	m = m.push(modeDrug)
	m.drug, m.drugLoaded, m.drugRows = d, false, nil
	m.drugSeq++
	return m, m.drugCmd()
}

func (m Model) keyDrug(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	n := 0
	if m.drugRows != nil {
		n = m.drugRows.Len()
	}
	if t, ok := m.drugTbl.Update(msg, m.keys.Move, n); ok {
		m.drugTbl = t
		return m, nil
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Back):
		m = m.pop()
	case key.Matches(msg, k.Help):
		m = m.push(modeHelp)
	case key.Matches(msg, k.Mark):
		if n > 0 {
			r := m.drugRows.Row(m.drugTbl.Cursor)
			m = m.toggle(r.Index, "picked in deup tui from the partners of "+m.drugName(m.drug))
			m.drugTbl = m.drugTbl.MoveTo(m.drugTbl.Cursor+1, n)
		}
	case key.Matches(msg, k.Detail):
		if n > 0 {
			return m.openDetail(m.drugRows.Row(m.drugTbl.Cursor))
		}
	}
	return m, nil
}

func (m Model) keyBatch(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if t, ok := m.batchTbl.Update(msg, m.keys.Move, len(m.marks)); ok {
		m.batchTbl = t
		return m, nil
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Back), key.Matches(msg, k.Batch):
		m.mode = modeTable
	case key.Matches(msg, k.Help):
		m = m.push(modeHelp)
	case key.Matches(msg, k.Unmark):
		if len(m.marks) > 0 {
			m = m.toggle(m.marks[m.batchTbl.Cursor].row, "")
			m.batchTbl = m.batchTbl.MoveTo(m.batchTbl.Cursor, len(m.marks))
		}
	case key.Matches(msg, k.Export):
		return m.startExport()
	}
	return m, nil
}

// quit ends the program, or, when marked pairs have not been exported
// since they last changed, asks first (ctrl+c quits at once).
func (m Model) quit() (Model, tea.Cmd) {
	if m.unsaved && len(m.marks) > 0 {
		return m.push(modeQuit), nil
	}
	return m, tea.Quit
}

// keyQuit answers the question quit asked: y or q quits without
// exporting, e opens the export prompt, any other key goes back.
func (m Model) keyQuit(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch {
	case msg.String() == "y", key.Matches(msg, m.keys.Quit):
		return m, tea.Quit
	case key.Matches(msg, m.keys.Export):
		m.mode, m.stack = modeBatch, nil
		return m.startExport()
	}
	return m.pop(), nil
}

func (m Model) startExport() (Model, tea.Cmd) {
	if len(m.marks) == 0 {
		m.status = "nothing to export: mark pairs with space first"
		return m, nil
	}
	m.mode = modeExport
	return m, nil
}

func (m Model) keyExport(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch msg.Type {
	case tea.KeyEsc:
		m.mode = modeBatch
		return m, nil
	case tea.KeyEnter:
		path := strings.TrimSpace(m.path.Value)
		ex := m.opt.Export
		if ex == nil {
			m.status = "cannot export: no exporter (Options.Export)"
			return m, nil
		}
		if err := ex.Check(path); err != nil {
			m.status = err.Error()
			return m, nil
		}
		batch := m.Batch()
		return m, func() tea.Msg {
			err := ex.Export(path, batch)
			return exportedMsg{path: path, n: len(batch), err: err}
		}
	}
	m.path, _ = m.path.Update(msg)
	return m, nil
}

// push opens screen next on top of the current one.
func (m Model) push(next mode) Model {
	st := append(m.stack[:len(m.stack):len(m.stack)], m.mode) // copy: other Models may share the array
	if len(st) > 32 {
		st = st[len(st)-32:]
	}
	m.stack, m.mode = st, next
	return m
}

// pop returns to the screen below the current one (the table when none).
func (m Model) pop() Model {
	if len(m.stack) == 0 {
		m.mode = modeTable
		return m
	}
	m.mode, m.stack = m.stack[len(m.stack)-1], m.stack[:len(m.stack)-1]
	return m
}

// toggle marks row (with reason) or unmarks it if marked.
func (m Model) toggle(row int, reason string) Model {
	for i, mk := range m.marks {
		if mk.row == row {
			m.marks = append(m.marks[:i:i], m.marks[i+1:]...)
			m.unsaved = true
			return m
		}
	}
	m.marks = append(m.marks[:len(m.marks):len(m.marks)], mark{row: row, reason: reason})
	m.unsaved = true
	return m
}

func (m Model) marked(row int) bool {
	for _, mk := range m.marks {
		if mk.row == row {
			return true
		}
	}
	return false
}

// Batch returns the marked pairs, ranked in marking order.
func (m Model) Batch() []Pick {
	out := make([]Pick, len(m.marks))
	for i, mk := range m.marks {
		r := m.src.Row(mk.row)
		out[i] = Pick{
			Rank: i + 1, DrugA: m.info.Drugs[r.A], DrugB: m.info.Drugs[r.B], CellLine: m.info.CellLines[r.CellLine],
			Mu: r.Mu, SigmaTotal: r.SigmaTotal, SigmaEpistemic: r.SigmaEpistemic, SigmaAleatoric: r.SigmaAleatoric,
			Acquisition: r.Acquisition, Reason: mk.reason,
		}
		if lo, hi, ok := m.opt.Interval.bounds(r); ok {
			out[i].Interval = &Bounds{Lower: lo, Upper: hi}
		}
	}
	return out
}

// current returns the row under the table cursor.
func (m Model) current() (Row, bool) {
	if m.n() == 0 {
		return Row{}, false
	}
	return m.rows.Row(m.tbl.Cursor), true
}

// describe says what the table shows, for the reasons of marked pairs.
func (m Model) describe() string {
	s := "sorted by " + m.q.Sort.String() + map[bool]string{true: " desc", false: " asc"}[m.q.Desc]
	if f := m.filters(); f != "" {
		s += ", " + f
	}
	return s
}

func (m Model) filters() string {
	var f []string
	if m.q.Text != "" {
		f = append(f, fmt.Sprintf("drug %q", m.q.Text))
	}
	if m.q.CellLine >= 0 {
		f = append(f, "cell line "+m.info.CellLines[m.q.CellLine])
	}
	if m.q.Measured != AnyMeasured {
		f = append(f, m.q.Measured.String()+" only")
	}
	return strings.Join(f, ", ")
}

func (m Model) drugName(d int) string {
	dr := m.info.Drugs[d]
	if dr.Name != "" {
		return dr.Name
	}
	return dr.ID
}

// resize adapts every table to a terminal of w×h cells.
func (m Model) resize(w, h int) Model {
	m.width, m.height = w, h
	m.tbl = m.tbl.SetHeight(h-5, m.n())
	dn := 0
	if m.drugRows != nil {
		dn = m.drugRows.Len()
	}
	m.drugTbl = m.drugTbl.SetHeight(h-5, dn)
	m.batchTbl = m.batchTbl.SetHeight(h-7, len(m.marks))
	return m
}
