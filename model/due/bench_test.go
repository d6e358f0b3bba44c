package due

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deup-screening/deup/gp"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkTrainStep: one joint training step (forward with power
// iteration, SVGP ELBO and gradients, backward, Adam) at the paper's sizes
// (tower 2048/1024, combined 128, 10-d embedding, 100 inducing points) on a
// batch of 128 pairs over 80 drugs with 1024-bit fingerprints (~5% set,
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
	idx := make([]int, 128)
	for i := range idx {
		idx[i] = i
	}
	drugs, pa, pb := uniqueDrugs(p, idx)
	F := mat.NewDense(128, cfg.Embedding, net.forward(X, drugs, pa, pb, true, 1).f)
	Z, err := gp.KMeans(F, cfg.Inducing, 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	s := gp.NewSVGP(gp.NewKernel(gp.Matern12, math.Ln2, meanPairwiseDistance(F)), math.Log(math.Ln2), Z)
	grad := make([]float64, s.NumParams())
	dF := mat.NewDense(128, cfg.Embedding, nil)
	b.ReportAllocs()
	for b.Loop() {
		ps := net.forward(X, drugs, pa, pb, true, 1)
		if _, err := s.ELBO(mat.NewDense(128, cfg.Embedding, ps.f), p.Y, 600, grad, dF); err != nil {
			b.Fatal(err)
		}
		net.backward(X, ps, dF.RawMatrix().Data)
		net.step(cfg.NetLR, cfg.WeightDecay)
	}
}
