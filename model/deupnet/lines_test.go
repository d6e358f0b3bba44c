package deupnet

import (
	"bytes"
	"context"
	"fmt"
	"hash/crc64"
	"math"
	"testing"

	"github.com/deup-screening/deup/model"
)

// TestLinesEveryMethod trains each network method on three lines whose
// scores differ by a constant per line: the fitted model must recover the
// line offsets, and a saved and loaded model predicts the same numbers.
func TestLinesEveryMethod(t *testing.T) {
	tp := linesToy(3)
	cfg := model.Config{TowerHidden: 16, TowerOut: 8, CombHidden: 16, SigmaHidden: 8, BatchSize: 32, MaxEpochs: 200, Patience: 200, Seed: 3}
	for _, m := range []model.Method{New(Config{Config: cfg}), model.NewEnsemble(cfg, 2, false), model.NewMCDropout(cfg, 0.1, 3)} {
		t.Run(m.Name(), func(t *testing.T) {
			if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
				t.Fatal(err)
			}
			test := make([]model.PairRef, len(tp.split.Test))
			for k, i := range tp.split.Test {
				test[k] = tp.d.Pairs[i]
			}
			pred, err := m.Predict(tp.d.Features, test)
			if err != nil {
				t.Fatal(err)
			}
			// Mean predicted offset of line 2 over line 0 (true offset 6).
			var s [3]float64
			var c [3]int
			for k, p := range test {
				s[p.Line] += pred[k].Mu
				c[p.Line]++
			}
			off := s[2]/float64(c[2]) - s[0]/float64(c[0])
			if off < 1 || off > 9 { // learned in the right direction (0 without the line)
				t.Errorf("predicted line-2 offset %.2f, true 6", off)
			}
			var buf bytes.Buffer
			if err := m.Save(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := loadAny(&buf)
			if err != nil {
				t.Fatal(err)
			}
			again, err := back.Predict(tp.d.Features, test)
			if err != nil {
				t.Fatal(err)
			}
			for k := range pred {
				if pred[k] != again[k] {
					t.Fatalf("pair %d: %+v before saving, %+v after loading", k, pred[k], again[k])
				}
			}
			if _, err := m.Predict(tp.d.Features, []model.PairRef{{A: 0, B: 1, Line: 3}}); err == nil {
				t.Error("a cell line the model does not know is accepted")
			}
		})
	}
}

// TestOneLineUnchanged pins the predictions of every network method on a
// one-line screen to the numbers they gave before the cell-line input
// existed (CRC-64 of the predictions' bits, computed on main 49eb350).
func TestOneLineUnchanged(t *testing.T) {
	tp := makeToy(5, 12, 20, 5, 0.2)
	cfg := model.Config{TowerHidden: 16, TowerOut: 8, CombHidden: 16, SigmaHidden: 8, BatchSize: 32, MaxEpochs: 6, Patience: 6, Seed: 7}
	// deup: σ changed with the excess link and its noise scale λ (issue 29, excess.go).
	want := map[string]uint64{"deup": 0xb24497d0300e4b81, "ensemble": 0x3e2f7cd1972f6245, "mcdropout": 0x2ecf8258dd76b34b}
	for _, m := range []model.Method{New(Config{Config: cfg}), model.NewEnsemble(cfg, 2, false), model.NewMCDropout(cfg, 0.1, 3)} {
		if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(tp.d.Features, tp.d.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		h := crc64.New(crc64.MakeTable(crc64.ECMA))
		for _, p := range pred {
			for _, v := range []float64{p.Mu, p.SigmaTotal, p.SigmaEpistemic, p.SigmaAleatoric} {
				fmt.Fprintf(h, "%x;", math.Float64bits(v))
			}
		}
		if got := h.Sum64(); got != want[m.Name()] {
			t.Errorf("%s: predictions hash %#x, want %#x", m.Name(), got, want[m.Name()])
		}
	}
}

// TestSigmaLineRow checks the lines σ feature against its definition
// (sigmadyn.go) evaluated by hand: line 0 has D_in sum of (y − μ)² 4 over
// 2 pairs, line 1 none, all D_in 6 over 3 pairs (g = 2), κ = 2. Unseen on
// line 0: n 2, s = sqrt((4 + 2·2)/(2 + 2)) = sqrt(2). A D_in pair of line
// 0 with |y − μ| = 1 leaves itself out: n 1, g = 5/2, s = sqrt((3 + 5)/3).
// Line 1, or a line unknown to D_in: n 0, s = sqrt(g) = sqrt(2).
func TestSigmaLineRow(t *testing.T) {
	dy := &sigmaDyn{Lines: []errSum{{4, 2}, {0, 0}}, LinesAll: errSum{6, 3}}
	for _, tc := range []struct {
		name string
		l    int
		in   bool
		n, s float64
	}{
		{"unseen, line 0", 0, false, 2, math.Sqrt(2)},
		{"D_in pair, line 0", 0, true, 1, math.Sqrt(8.0 / 3)},
		{"line without D_in pairs", 1, false, 0, math.Sqrt(2)},
		{"line unknown to the model", 7, false, 0, math.Sqrt(2)},
	} {
		c, s := dy.lineRow(tc.l, tc.in, 1)
		if math.Abs(c-math.Log1p(tc.n)) > 1e-12 || math.Abs(s-math.Log(tc.s)) > 1e-12 {
			t.Errorf("%s: log1p n %.15g, log s %.15g; want %.15g, %.15g", tc.name, c, s, math.Log1p(tc.n), math.Log(tc.s))
		}
	}
}

// TestSigmaLineFeatures: the lines σ feature gives each pair its line's
// in-sample count and μ's residual spread there, leaving a D_in pair out
// of its own line's sums; a noisier line gets the larger spread, and a
// model with it saves and loads.
func TestSigmaLineFeatures(t *testing.T) {
	tp := linesToy(3)
	// Line 2 is noisier and half of it is dropped from D_in.
	var train []int
	for _, i := range tp.split.Train {
		if tp.d.Pairs[i].Line == 2 {
			tp.d.Y[i] += 5 * math.Sin(float64(i))
			if i%2 == 0 {
				continue
			}
		}
		train = append(train, i)
	}
	tp.split.Train = train
	sf, err := ParseSigmaFeatures("lines")
	if err != nil {
		t.Fatal(err)
	}
	if !sf.dynamic() || sf.static() != 0 {
		t.Fatalf("lines: dynamic %v, %d static columns; want a network-dependent feature", sf.dynamic(), sf.static())
	}
	cfg := Config{Config: model.Config{TowerHidden: 16, TowerOut: 8, CombHidden: 16, SigmaHidden: 8, BatchSize: 32, MaxEpochs: 3, Patience: 3, Seed: 3}, Options: Options{SigmaFeatures: sf}}
	m := New(cfg)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	dy := m.sref.Dyn
	if len(dy.Lines) != 3 {
		t.Fatalf("%d cell lines of residual sums", len(dy.Lines))
	}
	n := [3]float64{}
	for _, i := range train {
		n[tp.d.Pairs[i].Line]++
	}
	for l := range 3 {
		if dy.Lines[l].N != n[l] {
			t.Errorf("line %d: %v D_in pairs counted, want %v", l, dy.Lines[l].N, n[l])
		}
	}
	_, s0 := dy.lineRow(0, false, 0)
	_, s2 := dy.lineRow(2, false, 0)
	if !(s2 > s0) {
		t.Errorf("log residual spread: line 0 %.3f, line 2 %.3f (line 2 is noisier)", s0, s2)
	}
	test := make([]model.PairRef, len(tp.split.Test))
	for k, i := range tp.split.Test {
		test[k] = tp.d.Pairs[i]
	}
	pred, err := m.Predict(tp.d.Features, test)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := loadAny(&buf)
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.Predict(tp.d.Features, test)
	if err != nil {
		t.Fatal(err)
	}
	for k := range pred {
		if pred[k] != again[k] {
			t.Fatalf("pair %d: %+v before saving, %+v after loading", k, pred[k], again[k])
		}
	}
}
