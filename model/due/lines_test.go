package due

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/nn"
)

// TestInferenceMatchesGraphLines: with a cell-line embedding the graph's
// features equal the inference path's, and the line changes them.
func TestInferenceMatchesGraphLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cfg := Config{TowerHidden: 64, TowerOut: 32, CombHidden: 16, Embedding: 4, Lines: 3}.withDefaults()
	X := randomSparse(rng, 30, 64, 0.2)
	n := newNetwork(cfg, 64, 3)
	for i, v := range n.emb {
		if v != 0 {
			t.Fatalf("cl.e[%d] = %v: the embedding does not start at 0", i, v)
		}
		n.emb[i] = float32(math.Sin(float64(5*i + 1))) // as if trained
	}
	n.refresh()
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
	other := make([]float64, len(want))
	n.forward(X, drugs, pa, pb, nil, &infer{}, other) // every pair on line 0
	if other[cfg.Embedding] == want[cfg.Embedding] {  // pair 1 is on line 1
		t.Error("the cell line does not change the features")
	}
}

// TestTrainLines trains DUE on a two-line version of the synthetic
// problem (line 1 shifted by 2): it runs, predicts per line, and a saved
// model predicts the same.
func TestTrainLines(t *testing.T) {
	X, p := synthetic(3)
	n := p.Len()
	two := Pairs{}
	for l := range 2 {
		for i := 0; i < n; i++ {
			two.A, two.B, two.L = append(two.A, p.A[i]), append(two.B, p.B[i]), append(two.L, l)
			two.Y = append(two.Y, p.Y[i]+2*float64(l))
		}
	}
	idx := rand.New(rand.NewPCG(1, 2)).Perm(two.Len())
	train, val := two.subset(idx[:two.Len()*7/10]), two.subset(idx[two.Len()*7/10:])
	cfg := Config{TowerHidden: 32, TowerOut: 16, CombHidden: 16, Embedding: 4, Inducing: 10, MaxEpochs: 30, Patience: 30, Lines: 2, Seed: 1, NetLR: 1e-3}
	m, err := Train(t.Context(), cfg, X, train, val, nil)
	if err != nil {
		t.Fatal(err)
	}
	mean, _, _, err := m.Predict(X, val)
	if err != nil {
		t.Fatal(err)
	}
	var s [2]float64
	var c [2]int
	for i, mu := range mean {
		s[val.L[i]] += mu
		c[val.L[i]]++
	}
	if off := s[1]/float64(c[1]) - s[0]/float64(c[0]); !(off > 0.5) {
		t.Errorf("predicted line-1 offset %.2f, true 2", off)
	}
	bad := val.subset([]int{0})
	bad.L[0] = 2
	if _, _, _, err := m.Predict(X, bad); err == nil {
		t.Error("a cell line the model does not know is accepted")
	}
	var buf bytes.Buffer
	meth := &Method{cfg: cfg, model: m, feat: model.FeatureConfig{Kind: "fp", Radius: 3, NBits: X.Dim}}
	if err := meth.Save(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	again, _, _, err := back.Model().Predict(X, val)
	if err != nil {
		t.Fatal(err)
	}
	for i := range mean {
		if mean[i] != again[i] {
			t.Fatalf("pair %d: %v before saving, %v after loading", i, mean[i], again[i])
		}
	}
}
