package surrogate

import (
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
)

// BenchmarkDEUPRound is one round of the interactive DEUP surrogate on the
// 24-drug test screen: fit (main predictor, features, error predictor) and
// predict the pool.
func BenchmarkDEUPRound(b *testing.B) {
	base, table := activetest.Screen(24, 1)
	initial, cands, _ := active.SplitInitial(table, 40, 1)
	cfg := activetest.Config(base, "deup-ridge", "ucb", 10, 0, 1)
	c, _ := active.Create(active.NewMemoryStore(), cfg, initial, cands)
	enc, _ := NewEncoder(cfg)
	s := &InteractiveDEUP{Enc: enc}
	if _, err := c.Propose(b.Context(), s); err != nil { // runs the prefill once
		b.Fatal(err)
	}
	ev := c.Evidence()
	pool := c.Pool()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Fit(b.Context(), ev); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Predict(b.Context(), pool); err != nil {
			b.Fatal(err)
		}
	}
}
