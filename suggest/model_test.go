package suggest

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/trained"
	"github.com/deup-screening/deup/uq"
)

// testScreen: 4 drugs, lines L0 and L1, scores s1 and s2; (D0, D1)
// measured on L0 (s1 5, s2 7) and (D2, D3) on L1 (s1 1, s2 3).
func testScreen() *drugcomb.Screen {
	sc := &drugcomb.Screen{Name: "t", CellLines: []string{"L0", "L1"}, ScoreNames: []string{"s1", "s2"}}
	for _, id := range []string{"D0", "D1", "D2", "D3"} {
		sc.Drugs = append(sc.Drugs, drugcomb.Drug{ID: id, Name: id})
	}
	sc.Pairs = []drugcomb.Pair{
		{A: 0, B: 1, CellLine: 0, N: 1, Mean: []float64{5, 7}, Var: []float64{math.NaN(), math.NaN()}},
		{A: 2, B: 3, CellLine: 1, N: 1, Mean: []float64{1, 3}, Var: []float64{math.NaN(), math.NaN()}},
	}
	return sc
}

// TestWhere: where a model suggests, worked by hand from testScreen's
// lines and the model's (panel lines matched by name ignoring case).
func TestWhere(t *testing.T) {
	one := &trained.Screen{CellLine: "L1", Score: "s2"}
	panel := &trained.Screen{CellLine: "l1", CellLines: []string{"l1", "X", "L0"}, Score: "s1"}
	for _, tc := range []struct {
		name            string
		ms              *trained.Screen
		own             bool
		cellLine, score string
		perLine         int
		lines           []drugcomb.LinePair
		cl              string
		measured        active.TableOracle
		err             string
	}{
		{name: "one-line model, its own screen", ms: one, own: true,
			lines: []drugcomb.LinePair{{Screen: 1, Model: 0}}, cl: "L1", measured: active.TableOracle{{A: 2, B: 3, CellLine: 1}: 3}},
		{name: "another screen needs the line", ms: one, err: "cell line: "},
		{name: "no meta, line named, first score", cellLine: "l0",
			lines: []drugcomb.LinePair{{Screen: 0, Model: 0}}, cl: "L0", measured: active.TableOracle{{A: 0, B: 1, CellLine: 0}: 5}},
		{name: "panel across its lines", ms: panel, perLine: 2,
			lines: []drugcomb.LinePair{{Screen: 1, Model: 0}, {Screen: 0, Model: 2}}, cl: "every cell line",
			measured: active.TableOracle{{A: 0, B: 1, CellLine: 0}: 5, {A: 2, B: 3, CellLine: 1}: 1}},
		{name: "panel, one line named", ms: panel, own: true, cellLine: "L0",
			lines: []drugcomb.LinePair{{Screen: 0, Model: 2}}, cl: "L0", measured: active.TableOracle{{A: 0, B: 1, CellLine: 0}: 5}},
		{name: "panel, a line it lacks", ms: &trained.Screen{CellLines: []string{"X", "L0"}}, cellLine: "L1", err: "cell line L1: m was trained on X, L0"},
		{name: "panel, no line of the screen", ms: &trained.Screen{CellLines: []string{"X", "Y"}}, err: "the screen has none of the cell lines m was trained on (X, Y)"},
		{name: "per-line without a panel", ms: one, own: true, perLine: 1, err: "a cap per cell line needs a model trained on a panel"},
		{name: "unknown score", ms: one, own: true, score: "nope", err: "score: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Where(testScreen(), tc.ms, "m", tc.own, tc.cellLine, tc.score, tc.perLine)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Lines, tc.lines) || p.CellLine != tc.cl || !reflect.DeepEqual(p.Measured, tc.measured) {
				t.Errorf("got %+v, want lines %v, %s, measured %v", p, tc.lines, tc.cl, tc.measured)
			}
		})
	}
}

// TestPredictPick: the candidates are the unmeasured pairs of L0 (all but
// D0-D1); a stand-in model predicts mu = 10·row a + row b, sigma_epistemic
// 1, so ucb:1 ranks D2-D3 (24), D1-D3 (14), D1-D2 (13). The calibration
// (conformal, scores 1..9) gives at 90% the 9th score, mu ± 9
// (uq.ConformalRank: ceil(10·0.9) = 9).
func TestPredictPick(t *testing.T) {
	sc := testScreen()
	p, err := Where(sc, nil, "m", false, "L0", "s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	predict := func(_ *model.Features, ps []model.PairRef) ([]model.Prediction, error) {
		out := make([]model.Prediction, len(ps))
		for i, q := range ps {
			out[i] = model.Prediction{Mu: float64(10*q.A + q.B), SigmaTotal: 2, SigmaEpistemic: 1, SigmaAleatoric: 1}
		}
		return out, nil
	}
	acq, err := active.ParseAcquisition("ucb:1")
	if err != nil {
		t.Fatal(err)
	}
	cal := &uq.Calibrator{Method: uq.MethodConformal, N: 9, Scores: []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}}
	for _, tc := range []struct {
		name    string
		cal     *uq.Calibrator
		reason0 string // the first suggestion's reason ends so
	}{
		{"no calibration", nil, "; at most 2 per drug"},
		{"calibration", cal, "; at most 2 per drug; 90% interval [14, 32]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{Acquisition: acq, Batch: 3, PerDrug: 2, Seed: 1, Cal: tc.cal, Coverage: 0.9}
			c, err := Predict(sc, p, predict, &model.Features{}, []int{0, 1, 2, 3}, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Pairs) != 5 {
				t.Fatalf("%d candidates, want 5", len(c.Pairs))
			}
			rows, err := c.Pick(o)
			if err != nil {
				t.Fatal(err)
			}
			want := []struct {
				a, b   string
				mu, ac float64
			}{{"D2", "D3", 23, 24}, {"D1", "D3", 13, 14}, {"D1", "D2", 12, 13}}
			if len(rows) != len(want) {
				t.Fatalf("%d rows, want %d", len(rows), len(want))
			}
			for i, w := range want {
				r := rows[i]
				if r.Rank != i+1 || r.DrugA.ID != w.a || r.DrugB.ID != w.b || r.CellLine != "L0" || r.Mu != w.mu || r.Acquisition != w.ac || !strings.HasPrefix(r.Reason, "ucb ") {
					t.Errorf("row %d: %+v, want %s-%s mu %v acquisition %v", i, r, w.a, w.b, w.mu, w.ac)
				}
				if (r.Interval != nil) != (tc.cal != nil) || r.Interval != nil && (r.Interval.Lower != w.mu-9 || r.Interval.Upper != w.mu+9) {
					t.Errorf("row %d: interval %+v", i, r.Interval)
				}
			}
			if !strings.HasSuffix(rows[0].Reason, tc.reason0) {
				t.Errorf("reason %q, want it to end %q", rows[0].Reason, tc.reason0)
			}
		})
	}
}
