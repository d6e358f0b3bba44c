package rl

import (
	"math"
	"testing"
)

// n-step returns by hand (γ = 0.5, n = 3) over an episode of 4 steps with
// rewards 1, 2, 3, 4 from states 0..3 (state i is the vector {i}), ending
// in state 4:
//
//	s0: 1 + 0.5·2 + 0.25·3 = 2.75, bootstrap γ³ = 0.125 from s3
//	s1: 2 + 0.5·3 + 0.25·4 = 4.5, terminal (discount 0), next s4
//	s2: 3 + 0.5·4 = 5, terminal;  s3: 4, terminal.
func TestNStep(t *testing.T) {
	rep, err := NewReplay(10, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := NewNStep(3, 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	var slots []int
	ns.OnAdd = func(s int) { slots = append(slots, s) }
	for i := 0; i < 4; i++ {
		ns.Push(rep, []float32{float32(i)}, i%3, float64(i+1), []float32{float32(i + 1)}, i == 3)
		if i == 1 && rep.Len() != 0 {
			t.Fatalf("after 2 steps %d transitions, want 0", rep.Len())
		}
	}
	want := []struct {
		s, ret, disc, s2 float32
		a                int
	}{{0, 2.75, 0.125, 3, 0}, {1, 4.5, 0, 4, 1}, {2, 5, 0, 4, 2}, {3, 4, 0, 4, 0}}
	if rep.Len() != len(want) || len(slots) != len(want) {
		t.Fatalf("%d transitions (%d callbacks), want %d", rep.Len(), len(slots), len(want))
	}
	for i, w := range want {
		s, a, ret, disc, s2 := rep.Transition(slots[i])
		if s[0] != w.s || a != w.a || math.Abs(float64(ret-w.ret)) > 1e-6 || disc != w.disc || s2[0] != w.s2 {
			t.Errorf("transition %d: s %v a %d R %v disc %v s' %v; want %+v", i, s[0], a, ret, disc, s2[0], w)
		}
	}
}

// The ring overwrites the oldest slot when full.
func TestReplayRing(t *testing.T) {
	rep, _ := NewReplay(3, 2, 1)
	for i := 0; i < 5; i++ {
		rep.Add([]float32{float32(i), 0}, 0, float64(i), 1, []float32{0, 0})
	}
	if rep.Len() != 3 {
		t.Fatalf("len %d, want 3", rep.Len())
	}
	got := []float32{rep.State(0)[0], rep.State(1)[0], rep.State(2)[0]}
	if got[0] != 3 || got[1] != 4 || got[2] != 2 {
		t.Errorf("slots hold states %v, want [3 4 2]", got)
	}
	if _, err := NewReplay(0, 1, 0); err == nil {
		t.Error("capacity 0: no error")
	}
}

// bsuite's cartpole score (analysis.py): ½(clip((1000 − avg regret)/1000,
// 0, 1) + [best episode > 500]).
func TestScore(t *testing.T) {
	cases := []struct {
		total, best float64
		episodes    int
		want        float64
	}{
		{total: 1000 * 1000, best: 0, episodes: 1000, want: 0},      // never balanced
		{total: 100 * 1000, best: 1001, episodes: 1000, want: 0.95}, // avg regret 100, solved
		{total: -1001, best: 1001, episodes: 1000, want: 1},         // negative regret clips to 1
		{total: 500 * 10, best: 500, episodes: 10, want: 0.25},      // 500 is not > 500
		{total: 2500 * 10, best: 501, episodes: 10, want: 0.5},      // regret score clips to 0
	}
	for _, c := range cases {
		if got := Score(c.total, c.episodes, c.best); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Score(%v, %d, %v) = %v, want %v", c.total, c.episodes, c.best, got, c.want)
		}
	}
}
