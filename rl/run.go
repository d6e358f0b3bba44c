package rl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/deup-screening/deup/internal/streams"
)

// Result is one run: one agent, one seed, Episodes episodes.
type Result struct {
	Agent   string
	Seed    uint64
	Returns []float64 // return of each episode
	// TotalRegret[k] is the total regret after episode k+1:
	// BaseRegret·(k+1) − (sum of Returns[:k+1]).
	TotalRegret []float64
	BestEpisode float64 // largest episode return
	Steps       int     // environment steps
	Wall        time.Duration
}

// Score is bsuite's score of the run (see Score).
func (r *Result) Score() float64 {
	return Score(r.TotalRegret[len(r.TotalRegret)-1], len(r.Returns), r.BestEpisode)
}

// AverageRegret is the total regret after the last episode divided by the
// number of episodes.
func (r *Result) AverageRegret() float64 {
	return r.TotalRegret[len(r.TotalRegret)-1] / float64(len(r.Returns))
}

// Run trains agent kind on a fresh environment envName for episodes
// episodes from seed (the environment's initial states and the agent's
// draws use separate streams of it) and records its regret. onEpisode,
// when set, is called after each episode with its index (from 0) and
// return. The run stops with ctx's error when ctx is cancelled.
func Run(ctx context.Context, envName, kind string, seed uint64, episodes int, opt Options, onEpisode func(k int, ret float64)) (*Result, error) {
	if episodes < 1 {
		return nil, fmt.Errorf("rl: %d episodes", episodes)
	}
	start := time.Now()
	env, err := NewEnv(envName, rand.New(rand.NewPCG(seed, streams.RLEnv)))
	if err != nil {
		return nil, err
	}
	ag, err := NewAgent(kind, env.ObsDim(), env.Actions(), seed, opt)
	if err != nil {
		return nil, err
	}
	defer ag.Close()
	res := &Result{Agent: kind, Seed: seed, Returns: make([]float64, 0, episodes), TotalRegret: make([]float64, 0, episodes)}
	sum := 0.0
	for k := 0; k < episodes; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ret, steps, err := Episode(env, ag, true)
		if err != nil {
			return nil, err
		}
		res.Steps += steps
		sum += ret
		res.Returns = append(res.Returns, ret)
		res.TotalRegret = append(res.TotalRegret, BaseRegret*float64(k+1)-sum)
		res.BestEpisode = max(res.BestEpisode, ret)
		if onEpisode != nil {
			onEpisode(k, ret)
		}
	}
	res.Wall = time.Since(start)
	return res, nil
}

// maxEpisodeSteps guards against an environment that never ends.
const maxEpisodeSteps = 1 << 20

// Episode plays one episode of env with ag and returns its return and
// length. With learn, actions come from ag.Act and every step is passed to
// ag.Observe; without, actions come from ag.Greedy and nothing is learned.
func Episode(env Env, ag *Agent, learn bool) (float64, int, error) {
	d := env.ObsDim()
	buf := make([]float32, 2*d)
	s, s2 := buf[:d], buf[d:]
	env.Reset(s)
	ret := 0.0
	for t := 1; t <= maxEpisodeSteps; t++ {
		var a int
		if learn {
			a = ag.Act(s)
		} else {
			a = ag.Greedy(s)
		}
		r, done := env.Step(a, s2)
		ret += r
		if learn {
			if err := ag.Observe(s, a, r, s2, done); err != nil {
				return ret, t, err
			}
		}
		if done {
			return ret, t, nil
		}
		s, s2 = s2, s
	}
	return ret, maxEpisodeSteps, fmt.Errorf("rl: episode longer than %d steps", maxEpisodeSteps)
}
