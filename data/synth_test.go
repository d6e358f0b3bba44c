package data

import (
	"math"
	"testing"
)

func TestSynthDefault(t *testing.T) {
	s, drugs, err := synth(DefaultSynth(1))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(s.Drugs), 60; got != want {
		t.Errorf("drugs = %d, want %d", got, want)
	}
	if got, want := len(s.Pairs), 1800; got != want {
		t.Errorf("pairs = %d, want %d", got, want)
	}
	if got, want := len(s.CellLines), 2; got != want {
		t.Errorf("cell lines = %d, want %d", got, want)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	rare := 0
	for _, d := range drugs {
		if d.rare {
			rare++
		}
	}
	// Rare families must exist but stay a minority.
	if rare < 2 || rare > len(drugs)/4 {
		t.Errorf("%d of %d drugs contain a rare fragment, want 2..%d", rare, len(drugs), len(drugs)/4)
	}
	reps, meas := 0, 0
	for i, p := range s.Pairs {
		meas += p.N
		if p.N > 1 {
			reps++
			if math.IsNaN(p.Var[0]) {
				t.Errorf("pair %d: n=%d but variance NaN", i, p.N)
			}
		} else if !math.IsNaN(p.Var[0]) {
			t.Errorf("pair %d: n=1 but variance %g", i, p.Var[0])
		}
		if v := s.Truth.NoiseVar[i]; !(v >= 1 && v <= 36) {
			t.Errorf("pair %d: true noise variance %g outside [1, 36]", i, v)
		}
	}
	// ReplicateFrac 0.3 of 1800 = 540 expected; binomial sd ≈ 19.
	if reps < 450 || reps > 630 {
		t.Errorf("%d replicated pairs, want about 540", reps)
	}
	t.Logf("drugs %d (rare %d), pairs %d, replicated %d, measurements %d", len(s.Drugs), rare, len(s.Pairs), reps, meas)
}

func TestSynthDeterministic(t *testing.T) {
	a, err := Synth(DefaultSynth(7))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Synth(DefaultSynth(7))
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) {
		t.Fatal("same seed gave different screens")
	}
	c, err := Synth(DefaultSynth(8))
	if err != nil {
		t.Fatal(err)
	}
	if a.Drugs[0] == c.Drugs[0] && a.Pairs[0].Mean[0] == c.Pairs[0].Mean[0] {
		t.Fatal("different seeds gave the same screen")
	}
}
