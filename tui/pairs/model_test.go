package pairs

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// TestAddModel: every pair of the kept feature rows is predicted on each
// model line and lands on the screen's drugs and line it maps to. The
// stand-in model predicts mu = 100·line + 10·row a + row b, so the expected
// values are worked by hand: kept [3 0 2] gives feature rows 0:D3, 1:D0,
// 2:D2; model line 0 goes to screen line 1, line 1 to screen line 0.
func TestAddModel(t *testing.T) {
	s := &drugcomb.Screen{Name: "s", ScoreNames: []string{"score"}, CellLines: []string{"L0", "L1"}}
	for _, id := range []string{"D0", "D1", "D2", "D3"} {
		s.Drugs = append(s.Drugs, drugcomb.Drug{ID: id, Name: id})
	}
	bl, err := NewBuilder(s, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	predict := func(_ *model.Features, ps []model.PairRef) ([]model.Prediction, error) {
		out := make([]model.Prediction, len(ps))
		for i, p := range ps {
			out[i] = model.Prediction{Mu: float64(100*p.Line + 10*p.A + p.B), SigmaTotal: 2, SigmaEpistemic: 1, SigmaAleatoric: 1}
		}
		return out, nil
	}
	var progress []int
	lines := []drugcomb.LinePair{{Screen: 1, Model: 0}, {Screen: 0, Model: 1}}
	if err := bl.AddModel(context.Background(), predict, &model.Features{}, []int{3, 0, 2}, lines, func(n int) { progress = append(progress, n) }); err != nil {
		t.Fatal(err)
	}
	tab, err := bl.Build()
	if err != nil {
		t.Fatal(err)
	}
	want := map[[3]int]float64{ // {screen drug a, b, screen line}: mu
		{0, 3, 1}: 1, {2, 3, 1}: 2, {0, 2, 1}: 12,
		{0, 3, 0}: 101, {2, 3, 0}: 102, {0, 2, 0}: 112,
	}
	got := map[[3]int]float64{}
	for i := range tab.Len() {
		if r := tab.Row(i); !math.IsNaN(r.Mu) {
			got[[3]int{r.A, r.B, r.CellLine}] = r.Mu
			if r.SigmaTotal != 2 || !math.IsNaN(r.Acquisition) && r.Acquisition != r.Mu+r.SigmaEpistemic {
				t.Errorf("row %+v", r)
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("predicted rows %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("pair %v: mu %v, want %v", k, got[k], v)
		}
	}
	if !slices.Equal(progress, []int{3, 6}) {
		t.Errorf("progress %v, want [3 6] (one chunk per line)", progress)
	}
	if n := ModelRows(3, lines); n != len(want) {
		t.Errorf("ModelRows(3, %d lines) = %d, want %d (the rows above)", len(lines), n, len(want))
	}
}
