package due

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deup-screening/deup/gp"
	"github.com/deup-screening/deup/nn"
)

// BenchmarkTrainStep: one joint training step (the graph's forward with
// power iteration, the SVGP's ELBO and gradients as the graph's external
// loss, backward, Adam on the network and on the GP) at the paper's sizes
// (tower 2048/1024, combined 128, 10-d embedding, 100 inducing points) on
// a batch of 128 pairs over 80 drugs with 1024-bit fingerprints (~5% set,
// like Morgan r=3).
func BenchmarkTrainStep(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	X := randomSparse(rng, 80, 1024, 0.05)
	cfg := Config{}.withDefaults()
	net := newNetwork(cfg, 1024, 1)
	var p Pairs
	for i := 0; i < 128; i++ {
		p.A = append(p.A, rng.IntN(80))
		p.B = append(p.B, rng.IntN(80))
		p.Y = append(p.Y, rng.NormFloat64())
	}
	m := &Net{Config: cfg, net: net}
	F := m.features(X, p)
	Z, err := gp.KMeans(F, cfg.Inducing, 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	s := gp.NewSVGP(gp.NewKernel(gp.Matern12, math.Ln2, meanPairwiseDistance(F)), math.Log(math.Ln2), Z)
	loss := &elboLoss{gp: s, n: 600, grad: make([]float64, s.NumParams()), y: p.Y}
	idx := make([]int, 128)
	for i := range idx {
		idx[i] = i
	}
	drugs, pa, pb := uniqueDrugs(p, idx)
	sg, err := net.buildGraph(nn.Float32, 80, 128, loss.eval)
	if err != nil {
		b.Fatal(err)
	}
	defer sg.close()
	net.setTrain(true)
	gw, gb := make([][]float32, numLayers), make([][]float32, numLayers)
	b.ReportAllocs()
	for b.Loop() {
		sg.fill(X, drugs, pa, pb, nil)
		if err := sg.g.Run(); err != nil {
			b.Fatal(err)
		}
		for i := range net.l {
			gw[i] = sg.grads[2*i].Value().Data().([]float32)
			gb[i] = sg.grads[2*i+1].Value().Data().([]float32)
		}
		net.step(gw, gb, nil, nil, cfg.NetLR, cfg.WeightDecay)
	}
}
