package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/model"
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
				if l[k].Mean == nil && !(name == Constant && k == "corr") { // one σ: no corr
					t.Errorf("%s %s: %s missing", name, line, k)
				}
			}
			n += *l["n"].Mean
		}
		if int(n) != js.TestPairs {
			t.Errorf("%s: per-line n sum to %v, %d test pairs", name, n, js.TestPairs)
		}
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
