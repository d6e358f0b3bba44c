package active_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
	"github.com/deup-screening/deup/drugcomb"
)

// TestStart checks the initial set and candidates of both modes on the
// 10-drug test screen (45 pairs on one line).
func TestStart(t *testing.T) {
	base, table := activetest.Screen(10, 1)
	retro := activetest.Config(base, "bayes-ridge", "ucb", 5, 2, 3)
	live := retro
	live.Mode = active.Live
	for _, c := range []struct {
		name         string
		cfg          active.Config
		table        active.TableOracle
		init         int
		cands        []active.PairOnLine
		nInit, nCand int
		err          bool
	}{
		// DefaultInit(45) = round(4.5) = 5 (round half away from zero).
		{"retrospective default", retro, table, 0, nil, 5, 40, false},
		{"retrospective 12", retro, table, 12, nil, 12, 33, false},
		{"retrospective with candidates", retro, table, 0, []active.PairOnLine{{0, 1, 0}}, 0, 0, true},
		// Live: every measured pair; the unmeasured ones of 10 drugs are
		// none, so take half the table away.
		{"live, all unmeasured", live, half(table), 0, nil, 23, 22, false},
		{"live, given candidates", live, half(table), 0, []active.PairOnLine{{0, 1, 0}}, 23, 1, false},
		{"live with init", live, table, 5, nil, 0, 0, true},
	} {
		init, cands, err := active.Start(c.cfg, c.table, c.init, 10, []int{0}, c.cands)
		if (err != nil) != c.err {
			t.Errorf("%s: error %v, want %v", c.name, err, c.err)
			continue
		}
		if len(init) != c.nInit || len(cands) != c.nCand {
			t.Errorf("%s: %d initial, %d candidates; want %d, %d", c.name, len(init), len(cands), c.nInit, c.nCand)
		}
		for _, m := range init {
			if y, ok := c.table[m.Pair]; !ok || y != m.Y {
				t.Errorf("%s: initial %v = %v is not the table's", c.name, m.Pair, m.Y)
			}
		}
	}
	// The retrospective draw is SplitInitial's with the campaign's seed.
	a, _, _ := active.Start(retro, table, 0, 10, []int{0}, nil)
	b, _, _ := active.SplitInitial(table, 5, retro.Seed)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("initial %d: %v, SplitInitial gives %v", i, a[i], b[i])
		}
	}
}

// half keeps the pairs of t at even positions of its sorted order: 23 of 45.
func half(t active.TableOracle) active.TableOracle {
	out := active.TableOracle{}
	for i, p := range t.SortedPairs() {
		if i%2 == 0 {
			out[p] = t[p]
		}
	}
	return out
}

// TestCandidatePairs: rows move to the cell line; a repeat and a measured
// pair are each named by file:line.
func TestCandidatePairs(t *testing.T) {
	measured := active.TableOracle{{1, 2, 3}: 4}
	rs := []active.Result{
		{active.Measurement{Pair: active.PairOnLine{0, 1, 0}}, 2},
		{active.Measurement{Pair: active.PairOnLine{1, 2, 0}}, 3},
		{active.Measurement{Pair: active.PairOnLine{0, 1, 0}}, 4},
		{active.Measurement{Pair: active.PairOnLine{0, 2, 0}}, 5},
	}
	got, err := active.CandidatePairs(rs, "c.csv", []int{3}, measured)
	if len(got) != 2 || got[0] != (active.PairOnLine{0, 1, 3}) || got[1] != (active.PairOnLine{0, 2, 3}) {
		t.Errorf("pairs %v, want (0,1)@3 and (0,2)@3", got)
	}
	for _, want := range []string{"c.csv:3: pair already measured", "c.csv:4: pair listed twice (first on line 2)"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}

// TestOracleFor: the oracle is the screen's table on the campaign's score;
// other drugs are ErrScreenChanged.
func TestOracleFor(t *testing.T) {
	sc := &drugcomb.Screen{Name: "s", ScoreNames: []string{"a", "b"}, CellLines: []string{"L"},
		Drugs: []drugcomb.Drug{{ID: "x"}, {ID: "y"}},
		Pairs: []drugcomb.Pair{{A: 0, B: 1, Mean: []float64{1, 2}}}}
	cfg := active.Config{Score: "b", Drugs: sc.Drugs}
	o, err := active.OracleFor(cfg, sc)
	if err != nil || len(o) != 1 || o[active.PairOnLine{0, 1, 0}] != 2 {
		t.Errorf("oracle %v, %v; want (0,1)@0 = 2", o, err)
	}
	cfg.Drugs = []drugcomb.Drug{{ID: "x"}, {ID: "z"}}
	if _, err := active.OracleFor(cfg, sc); !errors.Is(err, active.ErrScreenChanged) {
		t.Errorf("other drugs: %v, want ErrScreenChanged", err)
	}
}

// TestSummaries checks BestOf and Round.Summary on hand-computed values.
func TestSummaries(t *testing.T) {
	if b := active.BestOf(nil); !math.IsInf(b, -1) {
		t.Errorf("BestOf(nil) = %v, want -Inf", b)
	}
	if b := active.BestOf([]active.Measurement{{Y: 1}, {Y: 7}, {Y: -3}}); b != 7 {
		t.Errorf("BestOf = %v, want 7", b)
	}
	r := &active.Round{Suggestions: []active.Suggestion{{Pair: active.PairOnLine{0, 1, 0}, SurrogatePrediction: active.SurrogatePrediction{Mu: 2}}, {Pair: active.PairOnLine{0, 2, 0}, SurrogatePrediction: active.SurrogatePrediction{Mu: 5}}},
		Measured: map[active.PairOnLine]float64{{0, 1, 0}: 3}}
	if mu, y := r.Summary(); mu != 5 || y != 3 {
		t.Errorf("Summary = %v, %v; want 5, 3", mu, y)
	}
}

// TestCheckScreen: the campaign's drugs in order, more only with extra,
// and the cell lines only with lines.
func TestCheckScreen(t *testing.T) {
	cfg := active.Config{Drugs: []drugcomb.Drug{{ID: "a"}, {ID: "b"}}, CellLines: []string{"L1"}}
	d := func(ids ...string) []drugcomb.Drug {
		var out []drugcomb.Drug
		for _, id := range ids {
			out = append(out, drugcomb.Drug{ID: id})
		}
		return out
	}
	for _, c := range []struct {
		name         string
		sc           *drugcomb.Screen
		extra, lines bool
		ok           bool
	}{
		{"same", &drugcomb.Screen{Drugs: d("a", "b"), CellLines: []string{"L1"}}, false, true, true},
		{"more drugs, extra", &drugcomb.Screen{Drugs: d("a", "b", "c"), CellLines: []string{"L1"}}, true, true, true},
		{"more drugs, no extra", &drugcomb.Screen{Drugs: d("a", "b", "c")}, false, false, false},
		{"fewer drugs", &drugcomb.Screen{Drugs: d("a")}, true, false, false},
		{"other order", &drugcomb.Screen{Drugs: d("b", "a")}, true, false, false},
		{"other line, not checked", &drugcomb.Screen{Drugs: d("a", "b"), CellLines: []string{"L2"}}, false, false, true},
		{"other line", &drugcomb.Screen{Drugs: d("a", "b"), CellLines: []string{"L2"}}, false, true, false},
	} {
		err := active.CheckScreen(cfg, c.sc, c.extra, c.lines)
		if (err == nil) != c.ok || err != nil && !errors.Is(err, active.ErrScreenChanged) {
			t.Errorf("%s: %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// TestStartLines: a live campaign across lines starts from every measured
// pair of them and proposes the unmeasured pairs of each line; candidate
// rows parsed against the campaign's lines (index into cellLines) move to
// those lines.
func TestStartLines(t *testing.T) {
	table := active.TableOracle{{0, 1, 2}: 1, {1, 2, 5}: 2}
	cfg := active.Config{Mode: active.Live}
	init, cands, err := active.Start(cfg, table, 0, 3, []int{2, 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 3 drugs: pairs (0,1) (0,2) (1,2) on lines 2 and 5, less the 2 measured
	if len(init) != 2 || len(cands) != 4 {
		t.Fatalf("%d initial, %d candidates %v; want 2 and 4", len(init), len(cands), cands)
	}
	for _, p := range cands {
		if p.CellLine != 2 && p.CellLine != 5 {
			t.Errorf("candidate %v on another line", p)
		}
	}
	rs := []active.Result{{active.Measurement{Pair: active.PairOnLine{0, 2, 0}}, 2}, {active.Measurement{Pair: active.PairOnLine{0, 2, 1}}, 3}, {active.Measurement{Pair: active.PairOnLine{1, 2, 1}}, 4}}
	got, err := active.CandidatePairs(rs, "c.csv", []int{2, 5}, table)
	if len(got) != 2 || got[0] != (active.PairOnLine{0, 2, 2}) || got[1] != (active.PairOnLine{0, 2, 5}) {
		t.Errorf("pairs %v, want (0,2)@2 and (0,2)@5", got)
	}
	if err == nil || !strings.Contains(err.Error(), "c.csv:4: pair already measured") {
		t.Errorf("error %v, want the measured (1,2)@5 named", err)
	}
}
