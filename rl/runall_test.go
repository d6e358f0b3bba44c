package rl

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The runs are handed out longest first: deup-dqn, boot-dqn, dqn,
// mcdropout-dqn, random (ranking measured in docs/rl.md), whatever the
// order of --agents.
func TestByCost(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"dqn,deup-dqn,mcdropout-dqn,boot-dqn", "deup-dqn,boot-dqn,dqn,mcdropout-dqn"},
		{"random,mcdropout-dqn,dqn", "dqn,mcdropout-dqn,random"},
		{"boot-dqn", "boot-dqn"},
	} {
		in := strings.Split(tc.in, ",")
		if got := strings.Join(ByCost(in), ","); got != tc.want {
			t.Errorf("ByCost(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if strings.Join(in, ",") != tc.in {
			t.Errorf("ByCost changed its argument to %v", in)
		}
	}
}

// countWatch counts RunAll's events: runs started and ended, episodes.
type countWatch struct {
	started  []Job
	done     int
	episodes int
	last     Progress
}

func (c *countWatch) tell(p Progress) {
	switch {
	case p.Done:
		c.done++
	case p.Episode == 0:
		c.started = append(c.started, p.Job)
	default:
		c.episodes++
		c.last = p
	}
}

// TestRunAll: the results of every agent and seed, in seed order, equal to
// a run of Run alone, whatever the workers; each run watched once.
func TestRunAll(t *testing.T) {
	agents := []string{RandomPlay, DQN}
	var first map[string][]*Result
	for _, workers := range []int{1, 3} {
		w := &countWatch{}
		runs, err := RunAll(context.Background(), "cartpole", agents, 5, 2, 2, workers, Options{}, w.tell)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.started) != 4 || w.done != 4 || w.episodes != 8 {
			t.Fatalf("workers %d: %d started, %d done, %d episodes; want 4, 4, 8", workers, len(w.started), w.done, w.episodes)
		}
		// One run at a time: the last episode told is random's seed 6
		// (ByCost runs dqn first), its average regret the run's own.
		if last := runs[RandomPlay][1]; workers == 1 && (w.last.Job != Job{RandomPlay, 1, 6} || w.last.Episode != 2 || math.Abs(w.last.AverageRegret-last.AverageRegret()) > 1e-9) {
			t.Errorf("last event %+v, want random seed 6 episode 2, average regret %v", w.last, last.AverageRegret())
		}
		if first == nil {
			first = runs
			alone, err := Run(context.Background(), "cartpole", DQN, 6, 2, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(runs[DQN][1].TotalRegret, alone.TotalRegret) {
				t.Fatalf("dqn seed 6: %v, alone %v", runs[DQN][1].TotalRegret, alone.TotalRegret)
			}
			continue
		}
		for _, a := range agents {
			for i := range runs[a] {
				if !reflect.DeepEqual(runs[a][i].TotalRegret, first[a][i].TotalRegret) {
					t.Errorf("%s seed %d differs between workers 1 and %d", a, i, workers)
				}
			}
		}
	}
}
