package due

import (
	"context"
	"fmt"
	"hash/crc64"
	"math"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// panelDataset is the synthetic problem of syntheticDataset on lines
// cell lines: every pair measured on each line, line l's target shifted by
// 2·l. The split is by measurement (i%10 as in syntheticDataset), or, with
// heldOut ≥ 0, every pair of line heldOut is a test pair.
func panelDataset(t testing.TB, lines, heldOut int) (*model.Dataset, drugcomb.Split) {
	one, _ := syntheticDataset(t)
	d := &model.Dataset{Features: one.Features}
	for l := range lines {
		d.LineNames = append(d.LineNames, fmt.Sprintf("L%d", l))
		for i, p := range one.Pairs {
			p.Line = l
			d.Pairs = append(d.Pairs, p)
			d.Y = append(d.Y, one.Y[i]+2*float64(l))
			d.N = append(d.N, 1)
			d.Var = append(d.Var, math.NaN())
		}
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	var s drugcomb.Split
	for i, p := range d.Pairs {
		switch {
		case p.Line == heldOut || heldOut < 0 && i%10 >= 7:
			s.Test = append(s.Test, i)
		case i%10 < 5:
			s.Train = append(s.Train, i)
		default:
			s.Val = append(s.Val, i)
		}
	}
	return d, s
}

// predictionsCRC is the CRC-64 (ECMA) of the bits of every prediction's
// μ, σ_total, σ_epistemic and σ_aleatoric, as model's TestOneLineUnchanged
// hashes them.
func predictionsCRC(pred []model.Prediction) uint64 {
	h := crc64.New(crc64.MakeTable(crc64.ECMA))
	for _, p := range pred {
		for _, v := range []float64{p.Mu, p.SigmaTotal, p.SigmaEpistemic, p.SigmaAleatoric} {
			fmt.Fprintf(h, "%x;", math.Float64bits(v))
		}
	}
	return h.Sum64()
}

// TestNoLineFeaturesUnchanged pins DUE's predictions on a one-line problem
// and on a three-line panel without cell-line features to the CRC-64 of
// the numbers computed on main 9431b7c, before DUE's network took its
// cell-line input from package model (model.LineInput).
func TestNoLineFeaturesUnchanged(t *testing.T) {
	cfg := smallConfig()
	cfg.MaxEpochs, cfg.Patience, cfg.Seed = 8, 8, 5
	one, oneSplit := syntheticDataset(t)
	panel, panelSplit := panelDataset(t, 3, -1)
	for _, tc := range []struct {
		name  string
		d     *model.Dataset
		split drugcomb.Split
		want  uint64
	}{
		{"one line", one, oneSplit, 0x94f773a9da1eb4fd},
		{"panel without features", panel, panelSplit, 0xfde16a5a4c0a97cb},
	} {
		m := New(cfg)
		if err := m.Fit(context.Background(), tc.d, tc.split, nil); err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(tc.d.Features, tc.d.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		if got := predictionsCRC(pred); got != tc.want {
			t.Errorf("%s: predictions hash %#x, want %#x", tc.name, got, tc.want)
		}
	}
}
