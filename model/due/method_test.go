package due

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// syntheticDataset wraps the synthetic problem as model types.
func syntheticDataset(t testing.TB) (*model.Dataset, drugcomb.Split) {
	X, all := synthetic(1)
	f := &model.Features{Config: model.FeatureConfig{Kind: "fp", Radius: 3, NBits: X.Dim},
		RowPtr: X.RowPtr, Col: X.Col, Val: X.Val}
	d := &model.Dataset{Features: f}
	for i := range all.A {
		d.Pairs = append(d.Pairs, model.PairRef{A: all.A[i], B: all.B[i]})
		d.Y = append(d.Y, all.Y[i])
		d.N = append(d.N, 1)
		d.Var = append(d.Var, math.NaN())
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	n := len(d.Pairs)
	var s drugcomb.Split
	for i := 0; i < n; i++ {
		switch {
		case i%10 < 4:
			s.Train = append(s.Train, i)
		case i%10 < 7:
			s.Val = append(s.Val, i)
		default:
			s.Test = append(s.Test, i)
		}
	}
	return d, s
}

func testPairs(d *model.Dataset, idx []int) []model.PairRef {
	out := make([]model.PairRef, len(idx))
	for k, i := range idx {
		out[k] = d.Pairs[i]
	}
	return out
}

// TestMethodFitPredictSaveLoad: DUE through the shared model.Method
// interface; σ_total² = σ_epistemic² + σ_aleatoric²; a saved and loaded
// model predicts bit-identically.
func TestMethodFitPredictSaveLoad(t *testing.T) {
	d, split := syntheticDataset(t)
	m := New(smallConfig())
	var last model.Progress
	if err := m.Fit(context.Background(), d, split, func(p model.Progress) { last = p }); err != nil {
		t.Fatal(err)
	}
	if !last.Done || last.Method != "due" {
		t.Errorf("last progress %+v", last)
	}
	pairs := testPairs(d, split.Test)
	pred, err := m.Predict(d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pred {
		tot := p.SigmaEpistemic*p.SigmaEpistemic + p.SigmaAleatoric*p.SigmaAleatoric
		if math.Abs(tot-p.SigmaTotal*p.SigmaTotal) > 1e-9*tot || !(p.SigmaTotal > 0) {
			t.Fatalf("pair %d: %+v", i, p)
		}
	}
	// Swapping the two drugs of a pair gives the same prediction (sum of
	// embeddings).
	sw := make([]model.PairRef, len(pairs))
	for i, p := range pairs {
		sw[i] = model.PairRef{A: p.B, B: p.A}
	}
	pred2, err := m.Predict(d.Features, sw)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pred {
		if math.Abs(pred[i].Mu-pred2[i].Mu) > 1e-9 || math.Abs(pred[i].SigmaTotal-pred2[i].SigmaTotal) > 1e-9 {
			t.Fatalf("pair %d not symmetric: %+v vs %+v", i, pred[i], pred2[i])
		}
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	saved := buf.Bytes()
	back, err := Load(bytes.NewReader(saved))
	if err != nil {
		t.Fatal(err)
	}
	pred3, err := back.Predict(d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pred {
		if pred[i] != pred3[i] {
			t.Fatalf("pair %d: loaded model predicts %+v, saved %+v", i, pred3[i], pred[i])
		}
	}
	anyM, err := Load(bytes.NewReader(saved))
	if err != nil || anyM.Name() != "due" {
		t.Fatalf("Load: %v, %v", anyM, err)
	}
	if _, err := Load(bytes.NewReader([]byte("not a model"))); err == nil {
		t.Error("Load of garbage: no error")
	}
	if back.FeatureConfig() != m.FeatureConfig() || back.Name() != "due" {
		t.Errorf("loaded feature config %+v name %q", back.FeatureConfig(), back.Name())
	}
	// Truncated input is an error, not a panic.
	for _, n := range []int{0, 5, len(Magic) + 3, len(saved) / 2, len(saved) - 1} {
		if _, err := Load(bytes.NewReader(saved[:n])); err == nil {
			t.Errorf("truncated at %d: no error", n)
		}
	}
	// Features built differently are refused.
	other := *d.Features
	other.Config.NBits++
	if _, err := m.Predict(&other, pairs); err == nil {
		t.Error("mismatched feature config: no error")
	}
	if _, err := New(Config{}).Predict(d.Features, pairs); err == nil {
		t.Error("untrained: no error")
	}
}

// FuzzLoad: arbitrary bytes never panic Load.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(Magic))
	f.Add([]byte(Magic + "\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Add([]byte(Magic + "\x0f\x00\x00\x00\x00\x00\x00\x00{\"dim\":3,\"inducing\":1,\"y_scale\":1}"))
	f.Add([]byte(MagicV1 + "\x0f\x00\x00\x00\x00\x00\x00\x00{\"dim\":3,\"inducing\":1,\"y_scale\":1}"))
	if b, err := os.ReadFile("testdata/v1-small.due"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Load(bytes.NewReader(b))
		if err == nil && m == nil {
			t.Fatal("nil model without error")
		}
	})
}

// TestPredictConcurrent: Predict is safe for concurrent use (run with
// -race) and gives the same answers from every goroutine.
func TestPredictConcurrent(t *testing.T) {
	d, split := syntheticDataset(t)
	cfg := smallConfig()
	cfg.MaxEpochs = 3
	m := New(cfg)
	if err := m.Fit(context.Background(), d, split, nil); err != nil {
		t.Fatal(err)
	}
	pairs := testPairs(d, split.Test)
	want, err := m.Predict(d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func() {
			got, err := m.Predict(d.Features, pairs)
			if err == nil {
				for i := range got {
					if got[i] != want[i] {
						err = fmt.Errorf("pair %d: %+v vs %+v", i, got[i], want[i])
						break
					}
				}
			}
			errs <- err
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestLoadVersion1: a model saved by the float64 DUE before the network
// kit (format version 1; testdata/v1-small.due, written by commit a89dcad's
// Method.Save after 8 epochs of smallConfig on syntheticDataset, with its
// predictions of the first 20 test pairs in
// testdata/v1-small.predictions.json) loads, its weights rounded to
// float32, and predicts what it predicted then up to that rounding.
func TestLoadVersion1(t *testing.T) {
	raw, err := os.ReadFile("testdata/v1-small.due")
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile("testdata/v1-small.predictions.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []model.Prediction
	if err := json.Unmarshal(js, &want); err != nil {
		t.Fatal(err)
	}
	m, err := Load(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	d, split := syntheticDataset(t)
	got, err := m.Predict(d.Features, testPairs(d, split.Test[:len(want)]))
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-5*math.Max(1, math.Abs(b)) }
	for i := range want {
		g, w := got[i], want[i]
		if !near(g.Mu, w.Mu) || !near(g.SigmaTotal, w.SigmaTotal) || !near(g.SigmaEpistemic, w.SigmaEpistemic) || !near(g.SigmaAleatoric, w.SigmaAleatoric) {
			t.Errorf("pair %d: %+v, version 1 predicted %+v", i, g, w)
		}
	}
	// Saved again, it is a version-2 file that predicts the same.
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte(Magic)) {
		t.Fatalf("saved with header %q", buf.Bytes()[:len(Magic)])
	}
	back, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.Predict(d.Features, testPairs(d, split.Test[:len(want)]))
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != again[i] {
			t.Fatalf("pair %d: %+v after a version-2 round trip, %+v before", i, again[i], got[i])
		}
	}
}
