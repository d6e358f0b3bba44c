package active

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkScoreAndSelect scores 100,000 candidates with Thompson sampling
// and selects a diverse batch of 96 (a plate).
func BenchmarkScoreAndSelect(b *testing.B) {
	const n = 100000
	rng := rand.New(rand.NewPCG(1, 2))
	pairs := make([]PairOnLine, n)
	preds := make([]SurrogatePrediction, n)
	for i := range pairs {
		a, c := rng.IntN(500), rng.IntN(500)
		if a == c {
			c = (c + 1) % 500
		}
		pairs[i] = NewPairOnLine(a, c, 0)
		preds[i] = SurrogatePrediction{Mu: rng.NormFloat64() * 10, SigmaEpistemic: rng.Float64() * 5}
	}
	acq, _ := ParseAcquisition("thompson")
	scores := make([]float64, n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		scores, err = acq.Scores(scores, preds, 0, rng)
		if err != nil {
			b.Fatal(err)
		}
		if got := SelectBatch(pairs, scores, 96, 2); len(got) != 96 {
			b.Fatalf("batch of %d", len(got))
		}
	}
}
