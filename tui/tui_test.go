package tui_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/suggest"
	"github.com/deup-screening/deup/tui"
	"github.com/deup-screening/deup/tui/pairs"
	"github.com/deup-screening/deup/uq"
	"github.com/muesli/termenv"
)

var update = flag.Bool("update", false, "rewrite the golden views in testdata/")

// fixture is a small hand-made screen: 8 drugs, 2 cell lines, every pair
// predicted on both cell lines by a fixed formula, 10 pairs measured.
func fixture(t testing.TB) *pairs.Table {
	t.Helper()
	names := []struct {
		name string
		cid  int64
		smi  string
	}{
		{"Cisplatin", 5702198, "N.N.Cl[Pt]Cl"},
		{"Doxorubicin", 31703, "COc1cccc2C(=O)c3c(O)c4CC(O)(CC(OC5CC(N)C(O)C(C)O5)c4c(O)c3C(=O)c12)C(=O)CO"},
		{"Gefitinib", 123631, "COc1cc2ncnc(Nc3ccc(F)c(Cl)c3)c2cc1OCCCN1CCOCC1"},
		{"Imatinib", 5291, "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1"},
		{"Paclitaxel", 36314, ""},
		{"Vinblastine", 13342, ""},
		{"5-Fluorouracil", 3385, "O=c1[nH]cc(F)c(=O)[nH]1"},
		{"Erlotinib", 176870, "COCCOc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OCCOC"},
	}
	s := &drugcomb.Screen{Name: "fixture", ScoreNames: []string{"combo_score"}, CellLines: []string{"PC-3", "MCF7"}}
	for i, n := range names {
		s.Drugs = append(s.Drugs, drugcomb.Drug{ID: fmt.Sprint(n.cid), Name: n.name, PubChemCID: n.cid, SMILES: n.smi})
		_ = i
	}
	measured := map[[3]int]float64{
		{0, 1, 0}: 35, {0, 2, 0}: -12, {1, 3, 0}: 8, {2, 3, 0}: -40, {4, 5, 0}: 61,
		{0, 1, 1}: 22, {3, 6, 1}: -5, {5, 7, 0}: 14, {2, 7, 0}: -27, {1, 6, 1}: 3,
	}
	for a := range 8 {
		for b := a + 1; b < 8; b++ {
			for c := range 2 {
				if v, ok := measured[[3]int{a, b, c}]; ok {
					s.Pairs = append(s.Pairs, drugcomb.Pair{A: a, B: b, CellLine: c, N: 2, Mean: []float64{v}, Var: []float64{16}})
				}
			}
		}
	}
	bl, err := pairs.NewBuilder(s, 56, active.DefaultKappa)
	if err != nil {
		t.Fatal(err)
	}
	for a := range 8 {
		for b := a + 1; b < 8; b++ {
			for c := range 2 {
				mu := float64((a*7+b*13+c*5)%23) - 9.5
				epi := float64((a*3+b*5+c)%7) + 0.5
				ale := float64((a+b+c)%3) + 4
				err := bl.Add(a, b, c, pairs.Scored{Mu: mu, SigmaEpistemic: epi, SigmaAleatoric: ale, SigmaTotal: math.Hypot(epi, ale), Acquisition: math.NaN()})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	tab, err := bl.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func asciiRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return r
}

func newModel(t testing.TB, w, h int) tea.Model {
	m := tui.New(fixture(t), tui.Options{Renderer: asciiRenderer(), Width: w, Height: h, ExportPath: "batch.csv"}) // never written: only TestExportConfirmation exports
	return send(t, m, m.Init()())
}

// send feeds msgs to m one by one; after each it runs the commands Update
// returns synchronously, feeding their messages back depth-first, as if the
// user waited for the screen to settle before the next key. Nothing sleeps:
// the models here use Debounce 0.
func send(t testing.TB, m tea.Model, msgs ...tea.Msg) tea.Model {
	t.Helper()
	for _, msg := range msgs {
		m = process(m, msg)
	}
	return m
}

func process(m tea.Model, msg tea.Msg) tea.Model {
	m, cmd := m.Update(msg)
	if cmd == nil {
		return m
	}
	switch out := cmd().(type) {
	case nil, tea.QuitMsg:
	case tea.BatchMsg:
		for _, c := range out {
			if c != nil {
				m = process(m, c())
			}
		}
	default:
		m = process(m, out)
	}
	return m
}

// keys turns a key script into messages: "7" "space" "enter" "esc" "down"
// and any other string typed rune by rune.
func keys(script ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range script {
		switch k {
		case "space":
			out = append(out, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		case "enter":
			out = append(out, tea.KeyMsg{Type: tea.KeyEnter})
		case "esc":
			out = append(out, tea.KeyMsg{Type: tea.KeyEsc})
		case "down":
			out = append(out, tea.KeyMsg{Type: tea.KeyDown})
		case "up":
			out = append(out, tea.KeyMsg{Type: tea.KeyUp})
		case "backspace":
			out = append(out, tea.KeyMsg{Type: tea.KeyBackspace})
		case "ctrl+u":
			out = append(out, tea.KeyMsg{Type: tea.KeyCtrlU})
		default:
			for _, r := range k {
				out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			}
		}
	}
	return out
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	got = ansi.Strip(got)
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("view %s differs from %s (run go test ./tui -update after checking):\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

func TestGoldenViews(t *testing.T) {
	for _, tc := range []struct {
		name   string
		w, h   int
		script []string
	}{
		{"table", 80, 24, nil},
		{"sorted", 80, 24, []string{"7"}},                                    // σ_epistemic, largest first
		{"sorted-reversed", 80, 24, []string{"5", "5"}},                      // μ, smallest first
		{"filtered", 80, 24, []string{"/", "tinib", "enter", "c", "m", "m"}}, // text, PC-3, unmeasured
		{"search-typing", 80, 24, []string{"/", "cis"}},
		{"detail", 80, 24, []string{"4", "4", "down", "enter"}}, // measured, ascending: 2nd pair
		{"detail-top", 80, 24, []string{"enter"}},
		{"detail-morgan", 80, 24, []string{"enter"}},                     // with Morgan-Tanimoto neighbours
		{"detail-interval", 80, 24, []string{"4", "4", "down", "enter"}}, // the "detail" pair with a 90% interval
		{"drug", 80, 24, []string{"/", "cisplatin", "enter", "a"}},
		{"batch", 80, 24, []string{"7", "space", "space", "space", "B"}},
		{"export-prompt", 80, 24, []string{"space", "e"}},
		{"help", 80, 24, []string{"?"}},
		{"small", 50, 12, []string{"down", "space"}},
		{"wide", 120, 30, []string{"9"}},
		{"empty-filter", 80, 24, []string{"/", "zzz", "enter"}},
		// the cell line of a panel: c/C cycle the filter, L chooses by
		// name, 3 sorts by line (each line's best acquisition first)
		{"line-cycle", 80, 24, []string{"c", "c"}},                   // MCF7
		{"line-cycle-back", 80, 24, []string{"C"}},                   // back from all lines: the last, MCF7
		{"line-choose-typing", 80, 24, []string{"L", "mc"}},          // the prompt
		{"line-choose", 80, 24, []string{"L", "mc", "enter", "4"}},   // MCF7 by prefix, sorted by measured
		{"line-choose-none", 80, 24, []string{"L", "HeLa", "enter"}}, // no such line: the filter stays
		{"line-sorted", 80, 24, []string{"3"}},                       // MCF7 first, each line by acquisition
		{"line-sorted-reversed", 80, 24, []string{"3", "3", "m"}},    // PC-3 first, measured pairs only
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(t, tc.w, tc.h)
			if tc.name == "detail-morgan" {
				tab := fixture(t)
				if n := tab.UseMorganSimilarity(); n != 2 {
					t.Fatalf("%d drugs without a fingerprint, want 2 (the fixture's two without SMILES)", n)
				}
				m = tui.New(tab, tui.Options{Renderer: asciiRenderer(), Width: tc.w, Height: tc.h})
				m = send(t, m, m.(tui.Model).Init()())
			}
			if tc.name == "detail-interval" {
				m = tui.New(fixture(t), tui.Options{Renderer: asciiRenderer(), Width: tc.w, Height: tc.h, Interval: testInterval(t)})
				m = send(t, m, m.(tui.Model).Init()())
			}
			m = send(t, m, keys(tc.script...)...)
			v := m.View()
			checkFrame(t, v, tc.w, tc.h)
			golden(t, tc.name, v)
		})
	}
}

// checkFrame checks that a view fills the terminal exactly and never
// exceeds its width.
func checkFrame(t *testing.T, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, n, w, ansi.Strip(l))
		}
	}
}

func TestExportConfirmation(t *testing.T) {
	dir := t.TempDir()
	m := tui.New(fixture(t), tui.Options{Renderer: asciiRenderer(), ExportPath: filepath.Join(dir, "next.json"), Export: tui.SuggestFiles})
	m2 := send(t, m, m.Init()())
	m2 = send(t, m2, keys("7", "space", "down", "space", "space", "e", "enter")...)
	v := m2.View()
	checkFrame(t, v, 80, 24)
	golden(t, "export-confirmation", strings.ReplaceAll(v, dir, "DIR"))
	got, err := suggest.ReadFile(filepath.Join(dir, "next.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := m2.(tui.Model).Batch()
	if len(got) != 3 || len(want) != 3 {
		// space marks and moves down: rows 1, 3 and 4 marked
		t.Fatalf("exported %d, batch %d; want 3", len(got), len(want))
	}
	for i := range got {
		if got[i].DrugA.ID != want[i].DrugA.ID || got[i].DrugB.ID != want[i].DrugB.ID || got[i].CellLine != want[i].CellLine || got[i].Rank != i+1 {
			t.Errorf("row %d: exported %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestColoursDegrade(t *testing.T) {
	// The same screens with a true-colour renderer carry ANSI styles that,
	// stripped, leave exactly the plain (Ascii profile) text.
	for _, script := range [][]string{nil, {"space", "B"}, {"enter"}, {"?"}} {
		t.Run(strings.Join(script, "+"), func(t *testing.T) {
			color := lipgloss.NewRenderer(io.Discard)
			color.SetColorProfile(termenv.TrueColor)
			color.SetHasDarkBackground(true)
			mc := tui.New(fixture(t), tui.Options{Renderer: color})
			mc2 := send(t, mc, mc.Init()())
			mc2 = send(t, mc2, keys(script...)...)
			mp := newModel(t, 80, 24)
			mp = send(t, mp, keys(script...)...)
			cv, pv := mc2.View(), mp.View()
			if !strings.Contains(cv, "\x1b[") {
				t.Error("true-colour view has no ANSI sequences")
			}
			if strings.Contains(pv, "\x1b[") {
				t.Error("Ascii view has ANSI sequences")
			}
			if ansi.Strip(cv) != pv {
				t.Errorf("stripped colour view differs from the plain view:\n%s\n---\n%s", ansi.Strip(cv), pv)
			}
		})
	}
}

func TestContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := tui.New(fixture(t), tui.Options{Renderer: asciiRenderer(), Context: ctx})
	m2 := send(t, m, m.Init()())
	if v := ansi.Strip(m2.View()); !strings.Contains(v, "query failed: context canceled") {
		t.Fatalf("no error shown:\n%s", v)
	}
}

// testInterval is a sigma-normalized conformal calibration of 19 pairs
// with scores 0.1, 0.2, ..., 1.9: at 90% coverage k = ⌈20 × 0.9⌉ = 18, so
// the interval is mu ± 1.8 sigma_total.
func testInterval(t testing.TB) *tui.Interval {
	t.Helper()
	scores := make([]float64, 19)
	for i := range scores {
		scores[i] = 0.1 * float64(i+1)
	}
	c := uq.Calibrator{Method: uq.MethodConformalNormalized, N: 19, Scores: scores}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return &tui.Interval{Coverage: 0.9, Calibration: c}
}

// TestBatchInterval: with a calibration, an exported batch carries each
// pair's interval, mu ± 1.8 sigma_total (testInterval); without, none.
func TestBatchInterval(t *testing.T) {
	for _, iv := range []*tui.Interval{nil, testInterval(t)} {
		var m tea.Model = tui.New(fixture(t), tui.Options{Renderer: asciiRenderer(), Width: 80, Height: 24, Interval: iv})
		m = send(t, m, m.Init()())
		m = send(t, m, keys("space", "down", "space")...)
		b := m.(tui.Model).Batch()
		if len(b) != 2 {
			t.Fatalf("batch %+v", b)
		}
		for _, s := range b {
			switch {
			case iv == nil && s.Interval != nil:
				t.Errorf("interval %+v without a calibration", s.Interval)
			case iv != nil && (s.Interval == nil || math.Abs(s.Interval.Lower-(s.Mu-1.8*s.SigmaTotal)) > 1e-9 || math.Abs(s.Interval.Upper-(s.Mu+1.8*s.SigmaTotal)) > 1e-9):
				t.Errorf("interval %+v, want mu ± 1.8 sigma_total around %v ± %v", s.Interval, s.Mu, s.SigmaTotal)
			}
		}
	}
}

// quits reports whether key k, sent to m, ends the program (its command
// gives tea.QuitMsg), and the model after it.
func quits(t *testing.T, m tea.Model, k string) (bool, tea.Model) {
	t.Helper()
	msgs := keys(k)
	if len(msgs) != 1 {
		t.Fatalf("key %q is %d messages", k, len(msgs))
	}
	m2, cmd := m.Update(msgs[0])
	if cmd == nil {
		return false, m2
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok, m2
}

// TestQuitAsks: q with marked pairs that were not exported since they
// changed asks first (issue 43: it quit at once and the batch was lost);
// y or q then quits, e opens the export prompt, any other key goes back.
// Without marks, or after the export, q quits at once.
func TestQuitAsks(t *testing.T) {
	if q, _ := quits(t, newModel(t, 80, 24), "q"); !q {
		t.Error("q without marks: does not quit")
	}
	marked := send(t, newModel(t, 80, 24), keys("space")...)
	for _, c := range []struct {
		answer   string
		quit     bool
		viewHas  string // after the answer
		viewHasQ string // the question
	}{
		{answer: "y", quit: true},
		{answer: "q", quit: true},
		{answer: "x", viewHas: "batch: 1 marked"},
		{answer: "e", viewHas: "export to: batch.csv"},
	} {
		t.Run(c.answer, func(t *testing.T) {
			q, asked := quits(t, marked, "q")
			if q {
				t.Fatal("q with an unexported mark quits without asking")
			}
			v := asked.View()
			checkFrame(t, v, 80, 24)
			if !strings.Contains(v, "1 marked pair not exported.") || !strings.Contains(v, "y or q  quit without exporting") {
				t.Fatalf("the question is not shown:\n%s", v)
			}
			q, after := quits(t, asked, c.answer)
			if q != c.quit {
				t.Fatalf("answer %q: quit %v, want %v", c.answer, q, c.quit)
			}
			if c.viewHas != "" && !strings.Contains(after.View(), c.viewHas) {
				t.Errorf("answer %q: the view lacks %q:\n%s", c.answer, c.viewHas, after.View())
			}
		})
	}
	dir := t.TempDir()
	var m tea.Model = tui.New(fixture(t), tui.Options{Renderer: asciiRenderer(), ExportPath: filepath.Join(dir, "b.csv"), Export: tui.SuggestFiles})
	m = send(t, m, m.Init()())
	m = send(t, m, keys("space", "e", "enter", "x")...)
	if q, _ := quits(t, m, "q"); !q {
		t.Error("q after the batch was exported: does not quit")
	}
	m = send(t, m, keys("space")...) // a change after the export
	if q, _ := quits(t, m, "q"); q {
		t.Error("q after a mark changed since the export: quits without asking")
	}
}

// TestExportedColumns: the export confirmation lists the file's columns,
// lower and upper among them when the model has a calibration (issue 43:
// they were in the file, not in the list), and they are the file's header.
func TestExportedColumns(t *testing.T) {
	for _, iv := range []*tui.Interval{nil, testInterval(t)} {
		dir := t.TempDir()
		path := filepath.Join(dir, "b.csv")
		var m tea.Model = tui.New(fixture(t), tui.Options{Renderer: asciiRenderer(), ExportPath: path, Export: tui.SuggestFiles, Interval: iv})
		m = send(t, m, m.Init()())
		m = send(t, m, keys("space", "e", "enter")...)
		v := m.View()
		checkFrame(t, v, 80, 24)
		i := strings.Index(v, "columns: ")
		j := strings.Index(v, "The same format")
		if i < 0 || j < i {
			t.Fatalf("no column list:\n%s", v)
		}
		list, _, _ := strings.Cut(v[i+len("columns: "):j], " (")
		listed := strings.Join(strings.Fields(strings.NewReplacer(",", " ").Replace(list)), ",")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		header, _, _ := strings.Cut(string(b), "\n")
		if note := map[bool]string{false: "(lower, upper empty: the model has no calibration)", true: "(lower, upper: the calibrated interval)"}[iv != nil]; !strings.Contains(v, note) {
			t.Errorf("the confirmation lacks %q:\n%s", note, v)
		}
		if listed != header {
			t.Errorf("interval %v: the confirmation lists\n %s\nthe file's header is\n %s", iv != nil, listed, header)
		}
	}
}

// noteSource is the fixture with a model's σ note (tui.Info.SigmaNote).
type noteSource struct{ *pairs.Table }

func (s noteSource) Info() tui.Info {
	in := s.Table.Info()
	in.SigmaNote = "σ_total ≤ 3·√(sd_line² + (μ − mean_line)²), the line's training scores"
	return in
}

// TestDetailSigmaNote (issue 43): the pair detail says how the model
// bounds σ, under the σ line, when the source has a note; the golden
// "detail" view (no note) is unchanged.
func TestDetailSigmaNote(t *testing.T) {
	var m tea.Model = tui.New(noteSource{fixture(t)}, tui.Options{Renderer: asciiRenderer(), Width: 100, Height: 24})
	m = send(t, m, m.(tui.Model).Init()())
	m = send(t, m, keys("4", "4", "down", "enter")...)
	v := m.View()
	checkFrame(t, v, 100, 24)
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		if strings.Contains(l, "σ_epistemic") && strings.Contains(l, "σ_aleatoric") {
			if i+1 >= len(lines) || !strings.Contains(lines[i+1], "σ_total ≤ 3·√(sd_line² + (μ − mean_line)²)") {
				t.Fatalf("no σ note under the σ line:\n%s", v)
			}
			return
		}
	}
	t.Fatalf("no σ line in the detail view:\n%s", v)
}
