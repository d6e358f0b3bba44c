package rl

import (
	"fmt"
	"math"
)

// Replay is a ring buffer of n-step transitions (s, a, R, γ^k·(1−done), s′)
// stored in flat float32 slices: R = Σ_{i<k} γ^i r_{t+i} over the k ≤ n
// steps that follow s (k < n only at the end of an episode), and s′ is
// the state k steps after s. Each transition also keeps a float64 tag
// (the log-density of s for DEUP-DQN) and, when Heads > 0, one bootstrap
// mask per head. When full, the oldest transition is overwritten.
type Replay struct {
	dim, heads   int
	cap, size    int
	next         int // slot of the next insertion
	obs, nextObs []float32
	action       []int32
	ret, disc    []float32
	Tag          []float64 // one per slot; meaning is the caller's
	Mask         []float32 // cap×heads bootstrap masks
}

// NewReplay returns an empty buffer of capacity transitions of width dim
// with heads bootstrap masks each (0 for none).
func NewReplay(capacity, dim, heads int) (*Replay, error) {
	if capacity < 1 || dim < 1 || heads < 0 {
		return nil, fmt.Errorf("rl: replay capacity %d, width %d, heads %d", capacity, dim, heads)
	}
	return &Replay{
		dim: dim, heads: heads, cap: capacity,
		obs: make([]float32, capacity*dim), nextObs: make([]float32, capacity*dim),
		action: make([]int32, capacity), ret: make([]float32, capacity), disc: make([]float32, capacity),
		Tag: make([]float64, capacity), Mask: make([]float32, capacity*heads),
	}, nil
}

// Len is the number of stored transitions.
func (r *Replay) Len() int { return r.size }

// Add stores one transition and returns its slot; the caller may then set
// Tag[slot] and the masks Mask[slot*heads:(slot+1)*heads].
func (r *Replay) Add(s []float32, a int, ret, disc float64, s2 []float32) int {
	i := r.next
	copy(r.obs[i*r.dim:(i+1)*r.dim], s)
	copy(r.nextObs[i*r.dim:(i+1)*r.dim], s2)
	r.action[i] = int32(a)
	r.ret[i] = float32(ret)
	r.disc[i] = float32(disc)
	r.next = (r.next + 1) % r.cap
	if r.size < r.cap {
		r.size++
	}
	return i
}

// State returns the state of slot i (a view, valid until the slot is overwritten).
func (r *Replay) State(i int) []float32 { return r.obs[i*r.dim : (i+1)*r.dim] }

// Transition returns slot i: state, action, n-step return, bootstrap
// discount and next state (views).
func (r *Replay) Transition(i int) (s []float32, a int, ret, disc float32, s2 []float32) {
	return r.obs[i*r.dim : (i+1)*r.dim], int(r.action[i]), r.ret[i], r.disc[i], r.nextObs[i*r.dim : (i+1)*r.dim]
}

// step is one raw transition waiting in an NStep window.
type step struct {
	s    []float32
	a    int
	r    float64
	s2   []float32
	done bool
}

// NStep turns raw one-step transitions into n-step ones and adds them to a
// Replay: once n steps follow a state, the transition from that state is
// added; when an episode ends, the transitions of the last (up to n)
// states are added with their shorter returns and a zero bootstrap
// discount. Every state of an episode thus gets exactly one transition.
type NStep struct {
	n     int
	gamma float64
	win   []step // ring of the last n raw steps
	head  int    // oldest
	count int
	// OnAdd, when set, is called with each slot filled in the replay.
	OnAdd func(slot int)
}

// NewNStep returns an n-step accumulator with discount gamma.
func NewNStep(n int, gamma float64, dim int) (*NStep, error) {
	if n < 1 || !(gamma >= 0 && gamma <= 1) {
		return nil, fmt.Errorf("rl: n-step %d, gamma %v", n, gamma)
	}
	w := make([]step, n)
	for i := range w {
		w[i].s = make([]float32, dim)
		w[i].s2 = make([]float32, dim)
	}
	return &NStep{n: n, gamma: gamma, win: w}, nil
}

// Push records the step (s, a, r, s2, done) and adds the transitions that
// became complete to rep.
func (ns *NStep) Push(rep *Replay, s []float32, a int, r float64, s2 []float32, done bool) {
	w := &ns.win[(ns.head+ns.count)%ns.n]
	copy(w.s, s)
	copy(w.s2, s2)
	w.a, w.r, w.done = a, r, done
	ns.count++
	if done {
		for ns.count > 0 {
			ns.emit(rep)
		}
		return
	}
	if ns.count == ns.n {
		ns.emit(rep)
	}
}

// emit adds the transition of the oldest state in the window and drops it.
func (ns *NStep) emit(rep *Replay) {
	ret, g := 0.0, 1.0
	var last *step
	for k := 0; k < ns.count; k++ {
		last = &ns.win[(ns.head+k)%ns.n]
		ret += g * last.r
		g *= ns.gamma
	}
	disc := g
	if last.done {
		disc = 0
	}
	first := &ns.win[ns.head]
	slot := rep.Add(first.s, first.a, ret, disc, last.s2)
	if ns.OnAdd != nil {
		ns.OnAdd(slot)
	}
	ns.head = (ns.head + 1) % ns.n
	ns.count--
}

// Regret is bsuite's cartpole regret accounting: after episode k,
// total regret = BaseRegret·k − (sum of the returns of episodes 1..k).
const (
	BaseRegret  = 1000.0
	GoodEpisode = 500.0 // a run "solves" cartpole when its best episode return exceeds this
)

// Score is bsuite's cartpole score of one run (bsuite/experiments/cartpole/
// analysis.py): ½·(clip((BaseRegret − totalRegret/episodes)/BaseRegret, 0, 1)
// + [bestEpisode > GoodEpisode]).
func Score(totalRegret float64, episodes int, bestEpisode float64) float64 {
	avg := totalRegret / float64(episodes)
	rs := math.Min(math.Max((BaseRegret-avg)/BaseRegret, 0), 1)
	solved := 0.0
	if bestEpisode > GoodEpisode {
		solved = 1
	}
	return 0.5 * (rs + solved)
}
