package onehot

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// additive is a screen of nd drugs on nl lines whose target is
// s(a)+s(b)+t(l) plus noise of sd 0.1: a one-hot MLP fits it.
func additive(nd, nl int, seed uint64) (*model.Dataset, drugcomb.Split) {
	rng := rand.New(rand.NewPCG(seed, 1))
	f := &model.Features{Config: model.FeatureConfig{Kind: "fp", Radius: 3, NBits: 8}, RowPtr: []int{0}}
	s := make([]float64, nd)
	for i := range s {
		s[i] = rng.NormFloat64()
		f.IDs = append(f.IDs, "d"+string(rune('A'+i)))
		f.Col = append(f.Col, int32(i%8))
		f.Val = append(f.Val, 1)
		f.RowPtr = append(f.RowPtr, len(f.Col))
	}
	tl := make([]float64, nl)
	d := &model.Dataset{Features: f}
	for l := range tl {
		tl[l] = 2 * rng.NormFloat64()
		if nl > 1 {
			d.LineNames = append(d.LineNames, "L"+string(rune('a'+l)))
		}
	}
	for a := 0; a < nd; a++ {
		for b := a + 1; b < nd; b++ {
			for l := range nl {
				d.Pairs = append(d.Pairs, model.PairRef{A: a, B: b, Line: l})
				d.Y = append(d.Y, 10*(s[a]+s[b]+tl[l])+0.1*rng.NormFloat64())
				d.N = append(d.N, 1)
				d.Var = append(d.Var, math.NaN())
			}
		}
	}
	perm := rng.Perm(len(d.Pairs))
	n := len(perm)
	return d, drugcomb.Split{Train: perm[:n*6/10], Val: perm[n*6/10 : n*8/10], Test: perm[n*8/10:]}
}

// TestFit: on additive screens (one line and three) the reference's test
// RMSE is a small part of the targets' sd (the truth is in its span: a
// sum of one-hot effects), and a saved model predicts exactly as the
// trained one.
func TestFit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		nd, nl int
	}{{"one line", 24, 1}, {"three lines", 16, 3}} {
		t.Run(tc.name, func(t *testing.T) {
			d, split := additive(tc.nd, tc.nl, 3)
			m := New(Config{model.Config{Seed: 1, LR: 3e-3}})
			if err := m.Fit(context.Background(), d, split, nil); err != nil {
				t.Fatal(err)
			}
			pairs := d.PairsAt(split.Test)
			pred, err := m.Predict(d.Features, pairs)
			if err != nil {
				t.Fatal(err)
			}
			var s, m0, v float64
			for k, i := range split.Test {
				r := pred[k].Mu - d.Y[i]
				s += r * r
				m0 += d.Y[i]
			}
			m0 /= float64(len(pairs))
			for _, i := range split.Test {
				v += (d.Y[i] - m0) * (d.Y[i] - m0)
			}
			if ratio := math.Sqrt(s / v); ratio > 0.35 {
				t.Errorf("test RMSE / sd = %.3f, want <= 0.35", ratio)
			}
			if !(pred[0].SigmaTotal > 0) {
				t.Errorf("σ %v, want the validation RMSE > 0", pred[0].SigmaTotal)
			}
			var buf bytes.Buffer
			if err := m.Save(&buf); err != nil {
				t.Fatal(err)
			}
			got, err := Load(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			again, err := got.Predict(d.Features, pairs)
			if err != nil {
				t.Fatal(err)
			}
			for k := range pred {
				if again[k] != pred[k] {
					t.Fatalf("pair %d: loaded %+v, trained %+v", k, again[k], pred[k])
				}
			}
		})
	}
}

// TestOrderFree: the input of (a, b) is the input of (b, a).
func TestOrderFree(t *testing.T) {
	d, split := additive(10, 2, 5)
	m := New(Config{model.Config{Seed: 2, MaxEpochs: 3}})
	if err := m.Fit(context.Background(), d, split, nil); err != nil {
		t.Fatal(err)
	}
	p := []model.PairRef{{A: 1, B: 4, Line: 1}, {A: 4, B: 1, Line: 1}}
	pred, err := m.Predict(d.Features, p)
	if err != nil {
		t.Fatal(err)
	}
	if pred[0] != pred[1] {
		t.Errorf("(1,4) %+v, (4,1) %+v", pred[0], pred[1])
	}
}

// TestLoadRefuses: files that are not a saved model, or cut short, are
// errors, not panics.
func TestLoadRefuses(t *testing.T) {
	d, split := additive(8, 1, 4)
	m := New(Config{model.Config{Seed: 2, MaxEpochs: 2}})
	if err := m.Fit(context.Background(), d, split, nil); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	full := buf.Bytes()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "bad magic"},
		{"other magic", []byte("DEUP-DUE v2\n"), "bad magic"},
		{"header cut", full[:len(Magic)+12], "header"},
		{"params cut", full[:len(full)-5], "onehot: load"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(bytes.NewReader(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// FuzzLoad: no input panics Load.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(Magic))
	f.Add([]byte(Magic + "\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Fuzz(func(t *testing.T, b []byte) { Load(bytes.NewReader(b)) })
}
