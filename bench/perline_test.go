package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
)

// TestPanelPerLine runs the fast benchmark on a three-line synthetic panel
// with the per-line reference: every row is scored per line, results.json
// carries methods.NAME.per_line.LINE.{corr,rmse,coverage,n}, the per-line
// counts add up to the test pairs, and the markdown has the line table.
func TestPanelPerLine(t *testing.T) {
	c := data.DefaultSynth(7)
	c.CellLines, c.Pairs = 3, 900
	sc, err := data.Synth(c)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := features.Build(sc.Drugs, features.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := model.NewDataset(sc, f, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.Lines() != 3 {
		t.Fatalf("%d lines", d.Lines())
	}
	cfg := smallConfig(DEUP, Ensemble, MCDropout, DUE)
	cfg.Seeds = []uint64{1}
	cfg.PerLineReference = true
	cfg.Workers = 2
	res, err := Run(context.Background(), d, nil, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Methods map[string]struct {
			RMSE    struct{ Mean float64 } `json:"rmse"`
			PerLine map[string]map[string]struct {
				Mean    *float64  `json:"mean"`
				PerSeed []float64 `json:"per_seed"`
			} `json:"per_line"`
		} `json:"methods"`
		TestPairs int      `json:"test_pairs"`
		Rows      []string `json:"rows"`
	}
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	if js.Rows[len(js.Rows)-1] != PerLine {
		t.Errorf("rows %v: no %s row last", js.Rows, PerLine)
	}
	for _, name := range js.Rows {
		m := js.Methods[name]
		if len(m.PerLine) != 3 {
			t.Errorf("%s: per_line has %d lines", name, len(m.PerLine))
			continue
		}
		n := 0.0
		for _, line := range sc.CellLines {
			l := m.PerLine[line]
			for _, k := range []string{"corr", "rmse", "coverage", "n"} {
				if (l[k].Mean == nil) != ((name == Constant || name == PerLine) && k == "corr") { // one σ per line: no corr
					t.Errorf("%s %s: %s missing", name, line, k)
				}
			}
			n += *l["n"].Mean
		}
		if int(n) != js.TestPairs {
			t.Errorf("%s: per-line n sum to %v, %d test pairs", name, n, js.TestPairs)
		}
	}
	// The reference row is its definition: line 0's μ alone, trained on
	// line 0's part of the seed's split with the one-line settings, and σ
	// its validation RMSE there.
	split := drugcomb.SplitRandom(len(d.Pairs), cfg.withDefaults().Fracs, 1)
	sub, ss, at := lineDataset(d, 0, split)
	mc := cfg.Model
	mc.Seed = 1
	m := model.NewEnsemble(mc, 1, false)
	if err := m.Fit(context.Background(), sub, ss, nil); err != nil {
		t.Fatal(err)
	}
	vp, err := m.Predict(d.Features, sub.PairsAt(ss.Val))
	if err != nil {
		t.Fatal(err)
	}
	tp, err := m.Predict(d.Features, sub.PairsAt(ss.Test))
	if err != nil {
		t.Fatal(err)
	}
	se := 0.0
	for k, i := range ss.Val {
		se += (vp[k].Mu - sub.Y[i]) * (vp[k].Mu - sub.Y[i])
	}
	sigma := math.Sqrt(se / float64(len(ss.Val)))
	want := map[int]float64{}
	for k, i := range ss.Test {
		want[at[i]] = tp[k].Mu
	}
	checked := 0
	for _, p := range res.Predictions {
		if p.Method != PerLine || d.Pairs[p.Pair].Line != 0 {
			continue
		}
		if mu, ok := want[p.Pair]; !ok || p.Mu != mu || p.SigmaTotal != sigma {
			t.Fatalf("per-line row, pair %d: mu %v, sigma %v; line 0's own network gives %v (found %v), sigma %v", p.Pair, p.Mu, p.SigmaTotal, mu, ok, sigma)
		}
		checked++
	}
	if checked != len(ss.Test) {
		t.Errorf("per-line row: %d predictions of line 0, %d test pairs", checked, len(ss.Test))
	}
	var md bytes.Buffer
	if err := res.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	t.Log(md.String())
	if !strings.Contains(md.String(), "Per cell line (3 lines") || !strings.Contains(md.String(), "| per-line |") {
		t.Errorf("markdown lacks the per-line table:\n%s", md.String())
	}
	// One line: no per-line keys, and no reference allowed.
	_, d1 := synthDataset(t)
	cfg.PerLineReference = false
	r1, err := Run(context.Background(), d1, nil, smallConfig(DEUP), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r1.Rows {
		if row.Lines != nil {
			t.Errorf("%s: per-line scores on a one-line dataset", row.Method)
		}
	}
	cfg.PerLineReference = true
	if _, err := Run(context.Background(), d1, nil, cfg, nil); err == nil {
		t.Error("a per-line reference on one line is accepted")
	}
}

// TestNoveltyInertSameNumbers: where every validation and test drug is a
// training drug (noveltyInert), DEUP with its novelty fold and DEUP
// without it predict the validation and test pairs bit for bit the same,
// so Run may skip the fold's μ′ there. A split with a test drug unseen in
// training is not inert.
func TestNoveltyInertSameNumbers(t *testing.T) {
	_, d := synthDataset(t)
	split := drugcomb.SplitRandom(len(d.Pairs), [3]float64{0.4, 0.3, 0.3}, 1)
	if !noveltyInert(d, split) {
		t.Fatal("random split of the synthetic screen: a validation or test drug not in training")
	}
	cfg := smallConfig(DEUP).Model
	cfg.Seed = 1
	pairs := d.PairsAt(append(append([]int(nil), split.Val...), split.Test...))
	var got [2][]model.Prediction
	for k, nov := range []float64{0, -1} { // the default fold, none
		m := deupnet.New(deupnet.Config{Config: cfg, Options: deupnet.Options{NoveltyHoldout: nov}})
		if err := m.Fit(context.Background(), d, split, nil); err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(d.Features, pairs)
		if err != nil {
			t.Fatal(err)
		}
		got[k] = p
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		if has := bytes.Contains(buf.Bytes(), []byte(`"beta2"`)); has != (nov == 0) {
			t.Fatalf("novelty holdout %v: a fitted novelty scale in the model file %v", nov, has)
		}
	}
	for i := range pairs {
		if got[0][i] != got[1][i] {
			t.Fatalf("pair %d: %+v with the novelty fold, %+v without", i, got[0][i], got[1][i])
		}
	}
	// Move every pair of one test drug out of training and validation.
	g := d.Pairs[split.Test[0]].A
	var moved drugcomb.Split
	moved.Test = append(moved.Test, split.Test...)
	for _, part := range []struct {
		from []int
		to   *[]int
	}{{split.Train, &moved.Train}, {split.Val, &moved.Val}} {
		for _, i := range part.from {
			if d.Pairs[i].A == g || d.Pairs[i].B == g {
				moved.Test = append(moved.Test, i)
			} else {
				*part.to = append(*part.to, i)
			}
		}
	}
	if noveltyInert(d, moved) {
		t.Errorf("drug %d in no training pair: the split is not inert", g)
	}
}
