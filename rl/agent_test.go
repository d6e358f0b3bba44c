package rl

import (
	"math"
	"math/rand/v2"
	"testing"
)

// deupWithKDE returns a deup-dqn agent whose replay holds n random states
// (seeded by seed) and whose KDE is fitted on them.
func deupWithKDE(t *testing.T, n int, seed uint64) *Agent {
	t.Helper()
	ag, err := NewAgent(DEUPDQN, 6, 3, 1, Options{Replay: n})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 6))
	s := make([]float32, 6)
	for ag.rep.Len() < n {
		for j := range s {
			s[j] = float32(rng.NormFloat64() * 0.3)
		}
		ag.rep.Add(s, 0, 1, 0.99, s)
	}
	if err := ag.refitKDE(); err != nil {
		t.Fatal(err)
	}
	return ag
}

// direct is log d(s) computed by the KDE itself, floored as logDensity.
func direct(ag *Agent, s []float32) float32 {
	row := make([]float64, len(s))
	for j, v := range s {
		row[j] = float64(v)
	}
	return float32(math.Max(ag.kde.LogDensityInto(nil, [][]float64{row})[0], logDensityFloor))
}

// The memo of recent log-densities returns the KDE's own value, on a
// miss and on a hit, holds more states than the n-step delay, and is
// forgotten at a refit (a stale density would change the E-network's
// inputs).
func TestLogDensityMemo(t *testing.T) {
	ag := deupWithKDE(t, 2000, 5)
	defer ag.Close()
	states := make([][]float32, densityMemo)
	for i := range states {
		states[i] = append([]float32(nil), ag.rep.State(i)...)
		states[i][0] += 0.01
	}
	for round := 0; round < 2; round++ { // misses, then hits
		for i, s := range states {
			if got, want := ag.logDensity(s), direct(ag, s); got != want {
				t.Fatalf("round %d, state %d: %v, KDE %v", round, i, got, want)
			}
		}
	}
	before := ag.logDensity(states[0])
	// Refit on other states: the same query must give the new KDE's value.
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < ag.rep.Len(); i++ {
		s := ag.rep.State(i)
		for j := range s {
			s[j] = float32(rng.NormFloat64())
		}
	}
	if err := ag.refitKDE(); err != nil {
		t.Fatal(err)
	}
	got, want := ag.logDensity(states[0]), direct(ag, states[0])
	if got != want {
		t.Errorf("after the refit: %v, KDE %v", got, want)
	}
	if got == before {
		t.Errorf("after the refit the density is still %v (the test's refit changed nothing)", before)
	}
}
