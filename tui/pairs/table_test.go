package pairs

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/tui"
)

// randomTable builds a table over nd drugs and nc cell lines predicting
// every unordered pair on every cell line, with a fraction of pairs measured,
// values quantized so that ties occur, and some NaN predictions.
func randomTable(t testing.TB, seed uint64, nd, nc int) (*Table, *drugcomb.Screen) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	s := &drugcomb.Screen{Name: "random", ScoreNames: []string{"score"}}
	for c := range nc {
		s.CellLines = append(s.CellLines, []string{"PC-3", "MCF7", "A549", "HT29"}[c%4]+strings.Repeat("'", c/4))
	}
	names := []string{"cisplatin", "Doxorubicin", "vinblastine", "Imatinib", "5-FU", "gefitinib", "Erlotinib", "paclitaxel"}
	for d := range nd {
		s.Drugs = append(s.Drugs, drugcomb.Drug{ID: "D" + string(rune('a'+d%26)) + strings.Repeat("x", d/26), Name: names[d%len(names)] + strings.Repeat("+", d/len(names))})
	}
	q := func() float64 { return float64(rng.IntN(7)-3) * 0.5 }
	bl, err := NewBuilder(s, nd*(nd-1)/2*nc, active.DefaultKappa)
	if err != nil {
		t.Fatal(err)
	}
	for a := range nd {
		for b := a + 1; b < nd; b++ {
			for c := range nc {
				p := Scored{Mu: q(), SigmaTotal: q(), SigmaEpistemic: q(), SigmaAleatoric: q(), Acquisition: math.NaN()}
				if rng.IntN(10) == 0 {
					p.SigmaEpistemic = math.NaN()
				}
				if rng.IntN(4) == 0 {
					s.Pairs = append(s.Pairs, drugcomb.Pair{A: a, B: b, CellLine: c, N: 2, Mean: []float64{q()}, Var: []float64{1}})
				}
				if rng.IntN(8) == 0 {
					continue // measured or not, no prediction
				}
				if rng.IntN(2) == 0 {
					err = bl.Add(b, a, c, p) // either order
				} else {
					err = bl.Add(a, b, c, p)
				}
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
	return tab, s
}

// value is the reference accessor of a sortable value; names compare as
// strings.
func value(t *Table, r tui.Row, c tui.Column) (float64, string) {
	switch c {
	case tui.ColDrugA:
		return 0, strings.ToLower(t.screen.Drugs[r.A].Name)
	case tui.ColDrugB:
		return 0, strings.ToLower(t.screen.Drugs[r.B].Name)
	case tui.ColCellLine:
		return 0, strings.ToLower(t.screen.CellLines[r.CellLine])
	case tui.ColMeasured:
		return r.Measured, ""
	case tui.ColMu:
		return r.Mu, ""
	case tui.ColSigmaTotal:
		return r.SigmaTotal, ""
	case tui.ColSigmaEpistemic:
		return r.SigmaEpistemic, ""
	case tui.ColSigmaAleatoric:
		return r.SigmaAleatoric, ""
	default:
		return r.Acquisition, ""
	}
}

// reference selects with a plain loop and sorts with slices.SortStableFunc.
func reference(t *Table, q tui.Query) []int {
	var out []int
	for i := range t.Len() {
		r := t.Row(i)
		if q.Text != "" {
			n := strings.ToLower(q.Text)
			da, db := t.screen.Drugs[r.A], t.screen.Drugs[r.B]
			if !strings.Contains(strings.ToLower(da.Name), n) && !strings.Contains(strings.ToLower(da.ID), n) &&
				!strings.Contains(strings.ToLower(db.Name), n) && !strings.Contains(strings.ToLower(db.ID), n) {
				continue
			}
		}
		if q.Drug >= 0 && r.A != q.Drug && r.B != q.Drug {
			continue
		}
		if q.CellLine >= 0 && r.CellLine != q.CellLine {
			continue
		}
		if (q.Measured == tui.OnlyMeasured && !r.IsMeasured()) || (q.Measured == tui.OnlyUnmeasured && r.IsMeasured()) {
			continue
		}
		out = append(out, i)
	}
	if q.Sort == tui.ColCellLine {
		// within a line, the largest acquisition first (package doc)
		sortStable(t, out, tui.ColAcquisition, true)
	}
	sortStable(t, out, q.Sort, q.Desc)
	return out
}

// sortStable sorts rows by column c with slices.SortStableFunc, NaN last.
func sortStable(t *Table, out []int, c tui.Column, desc bool) {
	slices.SortStableFunc(out, func(i, j int) int {
		xi, si := value(t, t.Row(i), c)
		xj, sj := value(t, t.Row(j), c)
		if ni, nj := math.IsNaN(xi), math.IsNaN(xj); ni || nj {
			switch {
			case ni && nj:
				return 0
			case ni:
				return 1
			default:
				return -1
			}
		}
		c := cmp.Compare(xi, xj)
		if c == 0 {
			c = strings.Compare(si, sj)
		}
		if desc {
			c = -c
		}
		return c
	})
}

func TestSelectMatchesReference(t *testing.T) {
	tab, _ := randomTable(t, 1, 23, 3)
	queries := map[string]tui.Query{
		"all":              tui.AllRows(),
		"text cis":         {Text: "CIS", Drug: -1, CellLine: -1},
		"text id":          {Text: "dbx", Drug: -1, CellLine: -1},
		"text none":        {Text: "zzz", Drug: -1, CellLine: -1},
		"drug 4":           {Drug: 4, CellLine: -1},
		"cell 2":           {Drug: -1, CellLine: 2},
		"measured":         {Drug: -1, CellLine: -1, Measured: tui.OnlyMeasured},
		"unmeasured cell0": {Drug: -1, CellLine: 0, Measured: tui.OnlyUnmeasured},
		"everything":       {Text: "i", Drug: 7, CellLine: 1, Measured: tui.OnlyMeasured},
	}
	for name, q := range queries {
		for c := range tui.NumColumns {
			for _, desc := range []bool{false, true} {
				q.Sort, q.Desc = c, desc
				t.Run(name+"/"+c.String()+map[bool]string{false: "↑", true: "↓"}[desc], func(t *testing.T) {
					v, err := tab.Select(context.Background(), q)
					if err != nil {
						t.Fatal(err)
					}
					got := make([]int, v.Len())
					for i := range got {
						got[i] = v.Index(i)
					}
					want := reference(tab, q)
					if !slices.Equal(got, want) {
						t.Fatalf("got %d rows %v…, want %d rows %v…", len(got), got[:min(10, len(got))], len(want), want[:min(10, len(want))])
					}
				})
			}
		}
	}
}

func TestBuildAttachesMeasurements(t *testing.T) {
	tab, s := randomTable(t, 2, 9, 2)
	measured := 0
	for i := range tab.Len() {
		r := tab.Row(i)
		if r.A >= r.B {
			t.Fatalf("row %d: A=%d >= B=%d", i, r.A, r.B)
		}
		if !r.IsMeasured() {
			if !math.IsNaN(r.Measured) || r.Replicates != 0 {
				t.Fatalf("row %d unmeasured but has measurement %v n=%d", i, r.Measured, r.Replicates)
			}
			continue
		}
		measured++
		p := s.Pairs[r.Pair]
		if p.A != r.A || p.B != r.B || p.CellLine != r.CellLine {
			t.Fatalf("row %d %+v attached to screen pair %+v", i, r, p)
		}
		if r.Measured != p.Mean[0] || r.Replicates != p.N || r.MeasuredSD != 1 {
			t.Fatalf("row %d: measured %v n=%d sd=%v, want %v n=%d sd=1", i, r.Measured, r.Replicates, r.MeasuredSD, p.Mean[0], p.N)
		}
	}
	if measured != len(s.Pairs) {
		t.Fatalf("%d measured rows, want %d (every screen pair)", measured, len(s.Pairs))
	}
	if got := tab.Info().Scores; len(got) != len(s.Pairs) || !slices.IsSorted(got) {
		t.Fatalf("Scores: %d values sorted=%v, want %d sorted", len(got), slices.IsSorted(got), len(s.Pairs))
	}
}

func TestDefaultAcquisition(t *testing.T) {
	s := &drugcomb.Screen{Drugs: []drugcomb.Drug{{ID: "a"}, {ID: "b"}}, CellLines: []string{"c"}}
	for _, tc := range []struct {
		name  string
		kappa float64
		p     Scored
		want  float64
	}{
		{"ucb kappa 1", 1, Scored{Mu: 2, SigmaEpistemic: 3, Acquisition: math.NaN()}, 5},    // 2 + 1·3
		{"ucb kappa 2", 2, Scored{Mu: -1, SigmaEpistemic: 0.5, Acquisition: math.NaN()}, 0}, // −1 + 2·0.5
		{"given", 1, Scored{Mu: 2, SigmaEpistemic: 3, Acquisition: 7}, 7},                   // passed through
	} {
		t.Run(tc.name, func(t *testing.T) {
			bl, _ := NewBuilder(s, 1, active.DefaultKappa)
			bl.Kappa = tc.kappa
			if err := bl.Add(0, 1, 0, tc.p); err != nil {
				t.Fatal(err)
			}
			tab, err := bl.Build()
			if err != nil {
				t.Fatal(err)
			}
			if got := tab.Row(0).Acquisition; got != tc.want {
				t.Fatalf("acquisition %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	s := &drugcomb.Screen{Drugs: []drugcomb.Drug{{ID: "a"}, {ID: "b"}, {ID: "c"}}, CellLines: []string{"x"}}
	t.Run("add", func(t *testing.T) {
		bl, _ := NewBuilder(s, 0, active.DefaultKappa)
		for _, in := range [][3]int{{0, 0, 0}, {-1, 1, 0}, {0, 3, 0}, {0, 1, 1}, {0, 1, -1}} {
			if err := bl.Add(in[0], in[1], in[2], Scored{}); err == nil {
				t.Errorf("Add%v: no error", in)
			}
		}
	})
	t.Run("duplicate prediction", func(t *testing.T) {
		bl, _ := NewBuilder(s, 0, active.DefaultKappa)
		_ = bl.Add(0, 2, 0, Scored{})
		_ = bl.Add(1, 2, 0, Scored{})
		_ = bl.Add(2, 0, 0, Scored{})
		if _, err := bl.Build(); !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "a + c on x") {
			t.Fatalf("err = %v, want ErrDuplicate naming a + c on x", err)
		}
	})
	t.Run("duplicate screen pair", func(t *testing.T) {
		s := *s
		s.Pairs = []drugcomb.Pair{{A: 0, B: 1, N: 1, Mean: []float64{1}}, {A: 0, B: 1, N: 1, Mean: []float64{2}}}
		bl, _ := NewBuilder(&s, 0, active.DefaultKappa)
		if _, err := bl.Build(); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("err = %v, want ErrDuplicate", err)
		}
	})
	t.Run("invalid screen pair", func(t *testing.T) {
		s := *s
		s.Pairs = []drugcomb.Pair{{A: 1, B: 0, N: 1, Mean: []float64{1}}}
		bl, _ := NewBuilder(&s, 0, active.DefaultKappa)
		if _, err := bl.Build(); err == nil {
			t.Fatal("no error for a pair with A > B")
		}
	})
}

func TestSelectCancelled(t *testing.T) {
	tab, _ := randomTable(t, 3, 40, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tab.Select(ctx, tui.Query{Text: "a", Drug: -1, CellLine: -1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestNearest(t *testing.T) {
	// Drugs a..e, two cell lines. Target: (a, b) on x.
	s := &drugcomb.Screen{
		Drugs:     []drugcomb.Drug{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}},
		CellLines: []string{"x", "y"},
		Pairs: []drugcomb.Pair{
			{A: 0, B: 1, CellLine: 0, N: 1, Mean: []float64{0}}, // the target itself: excluded
			{A: 2, B: 3, CellLine: 0, N: 1, Mean: []float64{1}}, // shares nothing: excluded
			{A: 1, B: 4, CellLine: 1, N: 1, Mean: []float64{2}}, // shares b, other cell line
			{A: 0, B: 2, CellLine: 0, N: 1, Mean: []float64{3}}, // shares a, same cell line
			{A: 0, B: 1, CellLine: 1, N: 1, Mean: []float64{4}}, // shares both, other cell line
		},
	}
	bl, _ := NewBuilder(s, 0, active.DefaultKappa)
	tab, err := bl.Build()
	if err != nil {
		t.Fatal(err)
	}
	target := -1
	for i := range tab.Len() {
		if r := tab.Row(i); r.Pair == 0 {
			target = i
		}
	}
	got, err := tab.Nearest(context.Background(), target, 10)
	if err != nil {
		t.Fatal(err)
	}
	var pairs []int
	for _, r := range got {
		pairs = append(pairs, r.Pair)
	}
	if want := []int{4, 3, 2}; !slices.Equal(pairs, want) {
		t.Fatalf("nearest screen pairs %v, want %v (both drugs, then one drug same cell line, then one drug other cell line)", pairs, want)
	}
	if got, _ := tab.Nearest(context.Background(), target, 1); len(got) != 1 || got[0].Pair != 4 {
		t.Fatalf("k=1: %v", got)
	}
}

func TestOrderedBits(t *testing.T) {
	xs := []float32{float32(math.Inf(-1)), -3e38, -1, -1e-45, float32(math.Copysign(0, -1)), 0, 1e-45, 1, 3e38, float32(math.Inf(1))}
	for i := 1; i < len(xs); i++ {
		if orderedBits(xs[i-1]) >= orderedBits(xs[i]) {
			t.Errorf("orderedBits(%v) >= orderedBits(%v)", xs[i-1], xs[i])
		}
	}
}

func TestTanimoto(t *testing.T) {
	sim := Tanimoto([][]int{{1, 2, 3}, {2, 3, 4}, nil, {1, 2, 3}, {7}})
	for _, tc := range []struct {
		i, j int
		want float64
	}{
		{0, 1, 2.0 / 4}, // |{2,3}| / |{1,2,3,4}|
		{1, 0, 2.0 / 4},
		{0, 3, 1}, // identical sets
		{0, 4, 0}, // disjoint
		{2, 2, 1}, // no fingerprint: itself only
		{2, 0, 0},
	} {
		if got := sim(tc.i, tc.j); got != tc.want {
			t.Errorf("sim(%d,%d) = %v, want %v", tc.i, tc.j, got, tc.want)
		}
	}
}

func TestNearestWithSimilarity(t *testing.T) {
	// Drug c is a close analogue of a (similarity 0.9), d a distant one (0.1).
	s := &drugcomb.Screen{
		Drugs:     []drugcomb.Drug{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}},
		CellLines: []string{"x"},
		Pairs: []drugcomb.Pair{
			{A: 0, B: 1, N: 1, Mean: []float64{0}}, // target
			{A: 1, B: 3, N: 1, Mean: []float64{1}}, // b + d: (1 + 0.1)/2 = 0.55
			{A: 1, B: 2, N: 1, Mean: []float64{2}}, // b + c: (1 + 0.9)/2 = 0.95
			{A: 3, B: 4, N: 1, Mean: []float64{3}}, // d + e: (0.1 + 0)/2 = 0.05
		},
	}
	bl, _ := NewBuilder(s, 0, active.DefaultKappa)
	tab, err := bl.Build()
	if err != nil {
		t.Fatal(err)
	}
	tab.Similarity = func(i, j int) float64 {
		if i == j {
			return 1
		}
		k := [2]int{min(i, j), max(i, j)}
		return map[[2]int]float64{{0, 2}: 0.9, {0, 3}: 0.1}[k]
	}
	got, err := tab.Nearest(context.Background(), 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	var ps []int
	for _, r := range got {
		ps = append(ps, r.Pair)
	}
	if want := []int{2, 1, 3}; !slices.Equal(ps, want) {
		t.Fatalf("nearest %v, want %v", ps, want)
	}
}
