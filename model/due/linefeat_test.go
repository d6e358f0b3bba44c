package due

import (
	"bytes"
	"context"
	"fmt"
	"hash/crc64"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/nn"
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
// cell-line input from package model (model.LineInput), and its saved
// files to the CRC-64 of their bytes there (the same SHA-256 on main
// 9431b7c and after the change, checked once by hand).
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
		file  uint64
	}{
		{"one line", one, oneSplit, 0x94f773a9da1eb4fd, 0x9b082d25ea9bb8ba},
		{"panel without features", panel, panelSplit, 0xfde16a5a4c0a97cb, 0xcbf068709032aeb2},
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
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		if got := crc64.Checksum(buf.Bytes(), crc64.MakeTable(crc64.ECMA)); got != tc.file {
			t.Errorf("%s: saved file hash %#x, want %#x", tc.name, got, tc.file)
		}
	}
}

// lineFeatureNet is a three-line network with two numeric features per
// line and its E and W_f set to values as if trained (both start at 0).
func lineFeatureNet(t *testing.T, cfg Config) *network {
	t.Helper()
	x := [][]float64{{-1, 0.5}, {0, -1}, {1, 0.5}}
	cfg.Lines, cfg.lineX = 3, &x
	n := newNetwork(cfg, 64, 3)
	if len(n.feat) != 2*cfg.TowerOut || len(n.emb) != 3*cfg.TowerOut {
		t.Fatalf("cl.e %d values, cl.f %d; want %d and %d", len(n.emb), len(n.feat), 3*cfg.TowerOut, 2*cfg.TowerOut)
	}
	for i, v := range n.feat {
		if v != 0 {
			t.Fatalf("cl.f[%d] = %v: W_f does not start at 0", i, v)
		}
		n.feat[i] = float32(math.Cos(float64(3*i + 2)))
	}
	for i := range n.emb {
		n.emb[i] = float32(math.Sin(float64(5*i + 1)))
	}
	n.refresh()
	return n
}

// TestInferenceMatchesGraphLineFeatures: with cell-line features the
// graph's features (E_l + X_l·W_f in the pair embedding, model.LineInput)
// equal the inference path's, and W_f changes them.
func TestInferenceMatchesGraphLineFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cfg := Config{TowerHidden: 64, TowerOut: 32, CombHidden: 16, Embedding: 4}.withDefaults()
	X := randomSparse(rng, 30, 64, 0.2)
	n := lineFeatureNet(t, cfg)
	var drugs, pa, pb, lines []int
	for d := 0; d < 30; d += 2 {
		drugs = append(drugs, d)
	}
	for i := 0; i < 40; i++ {
		pa, pb, lines = append(pa, rng.IntN(len(drugs))), append(pb, rng.IntN(len(drugs))), append(lines, i%3)
	}
	zero := func(x []float64, rows, cols int, dx []float64) (float64, error) { return 0, nil }
	sg, err := n.buildGraph(nn.Float32, len(drugs)+3, 48, zero)
	if err != nil {
		t.Fatal(err)
	}
	defer sg.close()
	sg.fill(X, drugs, pa, pb, lines)
	if err := sg.g.Run(); err != nil {
		t.Fatal(err)
	}
	got := sg.feat.Tensor().Data().([]float32)
	want := make([]float64, len(pa)*cfg.Embedding)
	n.forward(X, drugs, pa, pb, lines, &infer{}, want)
	var scale float64
	for _, v := range want {
		scale = math.Max(scale, math.Abs(v))
	}
	for i, w := range want {
		if math.Abs(float64(got[i])-w) > 1e-5*scale {
			t.Fatalf("feature %d: graph %v, inference %v", i, got[i], w)
		}
	}
	clear(n.feat) // W_f back to 0: the features add nothing
	noFeat := make([]float64, len(want))
	n.forward(X, drugs, pa, pb, lines, &infer{}, noFeat)
	if noFeat[0] == want[0] {
		t.Errorf("W_f does not change the features (%v)", want[0])
	}
}

// TestLineFeaturesGradient checks the gradients of the line input's E and
// W_f in DUE's graph (float64, evaluation mode) against central finite
// differences of L = <R, F>, as TestNetworkGradientFiniteDifference does
// for the layers.
func TestLineFeaturesGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cfg := smallConfig().withDefaults()
	X := randomSparse(rng, 64, 64, 0.3)
	n := lineFeatureNet(t, cfg)
	drugs := []int{0, 2, 3, 5}
	pa, pb, lines := []int{0, 1, 2, 3, 0}, []int{1, 1, 3, 0, 2}, []int{0, 2, 1, 2, 1}
	const b = 6 // one padding row
	R := make([]float64, b*cfg.Embedding)
	for i := range R[:len(pa)*cfg.Embedding] {
		R[i] = rng.NormFloat64()
	}
	var value float64
	inner := func(x []float64, rows, cols int, dx []float64) (float64, error) {
		value = 0
		for i := range x[:len(pa)*cols] {
			value += R[i] * x[i]
			dx[i] = R[i]
		}
		return value, nil
	}
	sg, err := n.buildGraph(nn.Float64, 5, b, inner)
	if err != nil {
		t.Fatal(err)
	}
	defer sg.close()
	sg.fill(X, drugs, pa, pb, lines)
	loss := func() float64 {
		if err := sg.g.Run(); err != nil {
			t.Fatal(err)
		}
		return value
	}
	loss()
	if len(sg.wts) != 2*numLayers+2 {
		t.Fatalf("%d parameter tensors, want %d (the layers', E and W_f)", len(sg.wts), 2*numLayers+2)
	}
	const h = 1e-6
	for k, name := range []string{"cl.e", "cl.f"} {
		k += 2 * numLayers
		p := sg.wts[k].Data().([]float64)
		grad := append([]float64(nil), sg.grads[k].Value().Data().([]float64)...)
		var nonzero bool
		for c := 0; c < 24; c++ {
			i := rng.IntN(len(p))
			v0 := p[i]
			p[i] = v0 + h
			fp := loss()
			p[i] = v0 - h
			fm := loss()
			p[i] = v0
			fd := (fp - fm) / (2 * h)
			nonzero = nonzero || fd != 0
			if math.Abs(fd-grad[i]) > 1e-5*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s[%d]: graph %g, finite difference %g", name, i, grad[i], fd)
			}
		}
		if !nonzero {
			t.Errorf("%s: every sampled finite difference is 0", name)
		}
	}
}

// TestLineFeaturesNewLine trains DUE on three of four lines whose offset
// is 2·l and whose one feature is l (standardized): line 3 has no training
// pair, so its embedding stays 0, and only the features can move its
// predictions. With them its predictions differ from those without, the
// features are in the saved model, and a loaded model predicts the same
// numbers.
func TestLineFeaturesNewLine(t *testing.T) {
	d, split := panelDataset(t, 4, 3)
	cfg := smallConfig()
	cfg.MaxEpochs, cfg.Patience, cfg.Seed, cfg.NetLR = 30, 30, 3, 1e-3
	sd := math.Sqrt(1.25) // population sd of 0, 1, 2, 3
	x := [][]float64{{-1.5 / sd}, {-0.5 / sd}, {0.5 / sd}, {1.5 / sd}}
	test := testPairs(d, split.Test)
	var line0 []model.PairRef
	for _, p := range test {
		p.Line = 0
		line0 = append(line0, p)
	}
	offset := make(map[bool]float64)
	preds := make(map[bool][]model.Prediction)
	for _, feats := range []bool{false, true} {
		d.LineFeatures = nil
		if feats {
			d.LineFeatures = x
		}
		m := New(cfg)
		if err := m.Fit(context.Background(), d, split, nil); err != nil {
			t.Fatal(err)
		}
		p3, err := m.Predict(d.Features, test)
		if err != nil {
			t.Fatal(err)
		}
		p0, err := m.Predict(d.Features, line0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p3 {
			offset[feats] += (p3[i].Mu - p0[i].Mu) / float64(len(p3))
		}
		preds[feats] = p3
		if !feats {
			continue
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(buf.Bytes(), []byte(`"line_features":[[`)) {
			t.Error("the saved model does not hold the line features")
		}
		back, err := Load(&buf)
		if err != nil {
			t.Fatal(err)
		}
		again, err := back.Predict(d.Features, test)
		if err != nil {
			t.Fatal(err)
		}
		if predictionsCRC(again) != predictionsCRC(p3) {
			t.Error("a loaded model predicts other numbers than the saved one")
		}
	}
	t.Logf("predicted offset of the held-out line 3 over line 0 (true 6): %.2f without features, %.2f with", offset[false], offset[true])
	if predictionsCRC(preds[true]) == predictionsCRC(preds[false]) {
		t.Error("the features do not change the held-out line's predictions")
	}
	if !(offset[true] > offset[false]) {
		t.Errorf("offset of line 3 %.2f with the features, %.2f without: W_f carries none of the trend", offset[true], offset[false])
	}
}
