package tui_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/deup-screening/deup/active"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/tui"
	"github.com/deup-screening/deup/tui/pairs"
)

// BenchmarkCatalogue measures the UI on every unordered pair of 4,146
// synthetic drugs (8,592,585 rows, the DrugComb catalogue's size): a frame,
// a cursor move, and a whole sort round trip (key, query in its Cmd, answer).
//
//	go test ./tui -run '^$' -bench Catalogue -benchtime 5x
func BenchmarkCatalogue(b *testing.B) {
	const nd = 4146
	rng := rand.New(rand.NewPCG(11, 11))
	s := &drugcomb.Screen{Name: "catalogue", ScoreNames: []string{"score"}, CellLines: []string{"PC-3"}}
	for d := range nd {
		s.Drugs = append(s.Drugs, drugcomb.Drug{ID: strconv.Itoa(d), Name: "drug-" + strconv.FormatInt(int64(d)*7919%1000003, 36)})
	}
	for a := 0; a+1 < nd; a += 3 {
		s.Pairs = append(s.Pairs, drugcomb.Pair{A: a, B: a + 1, N: 1, Mean: []float64{rng.NormFloat64() * 46}})
	}
	bl, err := pairs.NewBuilder(s, nd*(nd-1)/2, active.DefaultKappa)
	if err != nil {
		b.Fatal(err)
	}
	for a := range nd {
		for c := a + 1; c < nd; c++ {
			se, sa := rng.ExpFloat64()*5, rng.ExpFloat64()*10
			if err := bl.Add(a, c, 0, pairs.Scored{Mu: rng.NormFloat64() * 20, SigmaTotal: se + sa, SigmaEpistemic: se, SigmaAleatoric: sa, Acquisition: se}); err != nil {
				b.Fatal(err)
			}
		}
	}
	tab, err := bl.Build()
	if err != nil {
		b.Fatal(err)
	}
	m := tui.New(tab, tui.Options{Renderer: asciiRenderer()})
	m2, _ := m.Update(m.Init()())
	if tab.Len() != 8592585 {
		b.Fatalf("%d rows", tab.Len())
	}
	down := tea.KeyMsg{Type: tea.KeyDown}
	b.Run("view", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = m2.View()
		}
	})
	b.Run("down+view", func(b *testing.B) {
		b.ReportAllocs()
		mm := m2
		for b.Loop() {
			mm, _ = mm.Update(down)
			_ = mm.View()
		}
	})
	b.Run("sort-roundtrip", func(b *testing.B) {
		b.ReportAllocs()
		mm := m2
		for i := 0; b.Loop(); i++ {
			k := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'5' + rune(i%3)}} // μ, σ_total, σ_epistemic
			var cmd tea.Cmd
			mm, cmd = mm.Update(k)
			mm, _ = mm.Update(cmd())
			_ = mm.View()
		}
	})
	b.Run("search-roundtrip", func(b *testing.B) {
		b.ReportAllocs()
		mm, _ := m2.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'/'}})
		for i := 0; b.Loop(); i++ {
			var cmd tea.Cmd
			mm, cmd = mm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune('a' + i%26)}})
			mm, _ = mm.Update(cmd())
			mm, cmd = mm.Update(tea.KeyMsg{Type: tea.KeyBackspace})
			mm, _ = mm.Update(cmd())
			_ = mm.View()
		}
	})
}
