package rl

import (
	"math"
	"math/rand/v2"
	"testing"
)

// One Euler step of bsuite's step_cartpole. The first two cases are exact
// fractions derived by hand: from the upright rest state with F = +10 N,
// temp = 100/11, θ̈ = −(100/11)/(0.5·(4/3 − 0.1/1.1)) = −600/41 and
// ẍ = 100/11 + (0.05/1.1)·600/41 = 400/41, so ẋ' = 4/41 and θ̇' = −6/41;
// F = −10 N mirrors them. The others were evaluated with python3 (float64)
// from the same equations (bsuite/environments/cartpole.py, step_cartpole).
func TestStepCartpole(t *testing.T) {
	cases := []struct {
		name   string
		s      CartpoleState
		action int
		want   CartpoleState
	}{
		{"rest push right", CartpoleState{}, 2, CartpoleState{XDot: 4.0 / 41, ThetaDot: -6.0 / 41, Time: 0.01}},
		{"rest push left", CartpoleState{}, 0, CartpoleState{XDot: -4.0 / 41, Theta: 0, ThetaDot: 6.0 / 41, Time: 0.01}},
		{"rest stay", CartpoleState{}, 1, CartpoleState{Time: 0.01}},
		{"tilted push right", CartpoleState{Theta: 0.1}, 2, CartpoleState{XDot: 0.09677809586371383, Theta: 0.1, ThetaDot: -0.12976640049102328, Time: 0.01}},
		{"negative angle wraps", CartpoleState{X: 0.5, XDot: -0.2, Theta: -0.3, ThetaDot: 1.5, Time: 2}, 0,
			CartpoleState{X: 0.498, XDot: -0.29525220037076344, Theta: 5.998185307179586, ThetaDot: 1.593055383646324, Time: 2.01}},
		{"near 2π", CartpoleState{X: 1, XDot: 0.3, Theta: 6.2, ThetaDot: -0.7, Time: 0.5}, 1,
			CartpoleState{X: 1.003, XDot: 0.30057360140173506, Theta: 6.1930000000000005, ThetaDot: -0.7130715691297828, Time: 0.51}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := StepCartpole(c.s, c.action)
			g := []float64{got.X, got.XDot, got.Theta, got.ThetaDot, got.Time}
			w := []float64{c.want.X, c.want.XDot, c.want.Theta, c.want.ThetaDot, c.want.Time}
			for i := range g {
				if math.Abs(g[i]-w[i]) > 1e-12 {
					t.Errorf("component %d: got %.17g, want %.17g", i, g[i], w[i])
				}
			}
		})
	}
}

// Reward and termination: reward 1 while cos θ > 0.8 and |x| < 3; the
// episode ends at the first step without reward or once t > 10.
func TestCartpoleRewardAndEnd(t *testing.T) {
	obs := make([]float32, 6)
	c := NewCartpole(rand.New(rand.NewPCG(1, 2)))
	cases := []struct {
		name     string
		s        CartpoleState
		reward   float64
		done     bool
		theta, x float64 // after the step (zero velocities: unchanged)
	}{
		{"upright", CartpoleState{}, 1, false, 0, 0},
		// cos θ > 0.8 ⇔ |θ| < acos 0.8 = 0.6435 rad.
		{"tilted inside", CartpoleState{Theta: 0.64}, 1, false, 0.64, 0},
		{"tilted outside", CartpoleState{Theta: 0.65}, 0, true, 0.65, 0},
		{"off the track", CartpoleState{X: 3.0}, 0, true, 0, 3},
		{"inside the track", CartpoleState{X: -2.99}, 1, false, 0, -2.99},
	}
	for _, tc := range cases {
		c.State = tc.s
		r, done := c.Step(1, obs)
		// With zero velocities x and θ do not move in one step.
		if r != tc.reward || done != tc.done {
			t.Errorf("%s: reward %v done %v, want %v %v", tc.name, r, done, tc.reward, tc.done)
		}
	}
	// Observation: (x/3, ẋ/3, sin θ, cos θ, θ̇, t/10).
	c.State = CartpoleState{X: 1.5, XDot: -0.3, Theta: 0.2, ThetaDot: 0.4, Time: 4}
	c.observe(obs)
	want := []float64{0.5, -0.1, math.Sin(0.2), math.Cos(0.2), 0.4, 0.4}
	for i := range want {
		if math.Abs(float64(obs[i])-want[i]) > 1e-7 {
			t.Errorf("observation %d: %v, want %v", i, obs[i], want[i])
		}
	}
	// The upright rest state is an equilibrium under "stay": the episode
	// lasts until t > 10, i.e. 1001 steps, since summing 0.01 a thousand
	// times in float64 gives 9.99999999999983 (python3: sum([0.01]*1000)).
	c.State = CartpoleState{}
	n, ret := 0, 0.0
	for {
		r, done := c.Step(1, obs)
		n++
		ret += r
		if done {
			break
		}
	}
	if n != 1001 || ret != 1001 {
		t.Errorf("balanced episode: %d steps, return %v; want 1001, 1001", n, ret)
	}
}

// Reset draws x, ẋ, θ, θ̇ in ±0.05 from the seed; same seed, same state.
func TestCartpoleReset(t *testing.T) {
	obs := make([]float32, 6)
	a := NewCartpole(rand.New(rand.NewPCG(7, 8)))
	b := NewCartpole(rand.New(rand.NewPCG(7, 8)))
	for i := 0; i < 100; i++ {
		a.Reset(obs)
		b.Reset(obs)
		if a.State != b.State {
			t.Fatalf("reset %d: %+v vs %+v", i, a.State, b.State)
		}
		for _, v := range []float64{a.State.X, a.State.XDot, a.State.Theta, a.State.ThetaDot} {
			if math.Abs(v) > 0.05 {
				t.Fatalf("initial component %v outside ±0.05", v)
			}
		}
		if a.State.Time != 0 {
			t.Fatal("time not 0 at reset")
		}
	}
	if _, err := NewEnv("mountaincar", nil); err == nil {
		t.Error("unknown environment: no error")
	}
}
