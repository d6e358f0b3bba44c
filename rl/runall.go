package rl

import (
	"context"
	"sort"
	"sync"

	"github.com/deup-screening/deup/internal/kernels"
)

// ByCost orders agents by the expected CPU time of a run, longest first
// (stable otherwise). The ranking is measured, not derived: per run of 1000
// cartpole episodes (docs/rl.md, "Where the time goes"), deup-dqn (a second
// network and the KDE refits) costs most, then boot-dqn (a 20-head output
// layer), dqn, and mcdropout-dqn (which balances the pole for fewer
// steps), random nothing.
func ByCost(agents []string) []string {
	rank := map[string]int{DEUPDQN: 0, BootDQN: 1, DQN: 2, MCDropout: 3, RandomPlay: 4}
	out := append([]string(nil), agents...)
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i]] < rank[out[j]] })
	return out
}

// Job is one run of RunAll: an agent and its i-th seed.
type Job struct {
	Agent string
	I     int
	Seed  uint64
}

// Progress is an event of a run of RunAll: its start (Episode 0), the
// end of each episode (Episode k of the run's episodes, with the average
// regret over episodes 1..k), and its end (Done, with Err when it stopped
// early).
type Progress struct {
	Job
	Episode       int
	AverageRegret float64
	Done          bool
	Err           error
}

// RunAll runs every agent with seeds firstSeed, …, firstSeed+seeds−1 for
// episodes episodes on up to workers goroutines (kernels.Jobs, the longest
// agents first, ByCost) and returns the results by agent, in seed order.
// Every run draws from its own seed only, so the results do not depend on
// workers. progress, when set, is told of every run's events, one call at
// a time. The first error cancels the other runs and is returned.
func RunAll(ctx context.Context, env string, agents []string, firstSeed uint64, seeds, episodes, workers int, opt Options, progress func(Progress)) (map[string][]*Result, error) {
	runs := map[string][]*Result{}
	for _, a := range agents {
		runs[a] = make([]*Result, seeds)
	}
	var jobs []Job
	for _, a := range ByCost(agents) {
		for i := 0; i < seeds; i++ {
			jobs = append(jobs, Job{a, i, firstSeed + uint64(i)})
		}
	}
	var mu sync.Mutex
	tell := func(p Progress) {
		if progress != nil {
			mu.Lock()
			progress(p)
			mu.Unlock()
		}
	}
	err := kernels.Jobs(ctx, len(jobs), workers, func(ctx context.Context, k int) error {
		j := jobs[k]
		tell(Progress{Job: j})
		sum := 0.0
		r, err := Run(ctx, env, j.Agent, j.Seed, episodes, opt, func(k int, ret float64) {
			sum += ret
			tell(Progress{Job: j, Episode: k + 1, AverageRegret: BaseRegret - sum/float64(k+1)})
		})
		tell(Progress{Job: j, Done: true, Err: err})
		if err != nil {
			return err
		}
		mu.Lock()
		runs[j.Agent][j.I] = r
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return runs, nil
}
