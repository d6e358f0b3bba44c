package model_test

import (
	"context"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// BenchmarkDEUPEpochPC3 measures one DEUP training epoch on PC-3 with the
// paper's network and batch 64 (40/30/30 split): 9 in-sample steps, 9
// out-of-sample σ steps and the validation pass. Reported as s/epoch,
// excluding the first epoch (graph compilation).
func BenchmarkDEUPEpochPC3(b *testing.B) {
	sc, d := loadPC3(b)
	split := drugcomb.SplitRandom(len(sc.Pairs), [3]float64{0.4, 0.3, 0.3}, 1)
	b.ReportAllocs()
	m := model.NewDEUP(model.Config{Seed: 1, MaxEpochs: b.N + 1, Patience: 1 << 30})
	var first, last float64
	b.ResetTimer()
	err := m.Fit(context.Background(), d, split, func(p model.Progress) {
		if p.Epoch == 1 {
			first = p.Elapsed.Seconds()
		}
		if !p.Done {
			last = p.Elapsed.Seconds()
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric((last-first)/float64(b.N), "s/epoch")
}
