package rl

import (
	"context"
	"math/rand/v2"
	"testing"
)

// meanLength plays episodes greedy episodes of cartpole with ag (no
// learning) from the initial states of seed and returns their mean length.
func meanLength(t *testing.T, ag *Agent, seed uint64, episodes int) float64 {
	t.Helper()
	env := NewCartpole(rand.New(rand.NewPCG(seed, 99)))
	total := 0
	for i := 0; i < episodes; i++ {
		_, n, err := Episode(env, ag, false)
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	return float64(total) / float64(episodes)
}

// The learning signal: after a short training run, DQN's greedy policy
// balances the pole far longer than a uniformly random policy on the same
// initial states.
func TestDQNLearnsCartpole(t *testing.T) {
	const trainEpisodes, evalEpisodes = 150, 20
	env := NewCartpole(rand.New(rand.NewPCG(1, 0xe57)))
	ag, err := NewAgent(DQN, 6, 3, 1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ag.Close()
	steps := 0
	for k := 0; k < trainEpisodes; k++ {
		_, n, err := Episode(env, ag, true)
		if err != nil {
			t.Fatal(err)
		}
		steps += n
	}
	rnd, _ := NewAgent(RandomPlay, 6, 3, 1, Options{})
	random := meanLength(t, rnd, 5, evalEpisodes)
	greedy := meanLength(t, ag, 5, evalEpisodes)
	t.Logf("after %d episodes (%d steps): greedy DQN mean episode length %.1f, random policy %.1f", trainEpisodes, steps, greedy, random)
	if greedy < 5*random {
		t.Errorf("greedy DQN balances %.1f steps on average, random policy %.1f: want at least 5×", greedy, random)
	}
}

// Same seed, same numbers.
func TestRunDeterministic(t *testing.T) {
	for _, kind := range []string{DQN, MCDropout, BootDQN, DEUPDQN} {
		opt := Options{BurnIn: 300, KDEEvery: 300, KDECentres: 200, KDECV: 50}
		a, err := Run(context.Background(), "cartpole", kind, 3, 15, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Run(context.Background(), "cartpole", kind, 3, 15, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k := range a.Returns {
			if a.Returns[k] != b.Returns[k] {
				t.Fatalf("%s: episode %d returns %v and %v", kind, k, a.Returns[k], b.Returns[k])
			}
		}
		t.Logf("%s: %d steps, total regret %v", kind, a.Steps, a.TotalRegret[len(a.TotalRegret)-1])
	}
}
