package rl

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Env is an episodic environment with a fixed-width observation and a
// finite set of actions 0..Actions()-1. It is not safe for concurrent use.
type Env interface {
	// ObsDim is the width of an observation.
	ObsDim() int
	// Actions is the number of discrete actions.
	Actions() int
	// Reset starts an episode and writes its first observation into obs.
	Reset(obs []float32)
	// Step applies action, writes the next observation into obs and
	// returns the reward and whether the episode ended (no further step
	// before Reset).
	Step(action int, obs []float32) (reward float64, done bool)
}

// NewEnv returns the environment called name ("cartpole"), drawing its
// initial states from rng.
func NewEnv(name string, rng *rand.Rand) (Env, error) {
	switch name {
	case "cartpole":
		return NewCartpole(rng), nil
	}
	return nil, fmt.Errorf("rl: unknown environment %q (want cartpole)", name)
}

// CartpoleState is the physical state of the cart and pole.
type CartpoleState struct {
	X, XDot         float64 // cart position (m) and velocity
	Theta, ThetaDot float64 // pole angle (rad, 0 = upright, kept in [0, 2π)) and angular velocity
	Time            float64 // seconds since the episode started
}

// Cartpole is bsuite's cartpole (bsuite/environments/cartpole.py): a cart
// with mass 1 on a track, a pole of mass 0.1 and half-length 0.5, gravity
// 9.8, explicit Euler steps of 0.01 s. Actions 0, 1, 2 push the cart with
// force (a−1)·10. The reward is 1 while cos θ > 0.8 and |x| < 3, else 0; the
// episode ends at the first step without reward or once the elapsed time
// exceeds 10 s. The initial state draws x, ẋ, θ, θ̇ uniformly in ±0.05.
// The observation is (x/3, ẋ/3, sin θ, cos θ, θ̇, t/10).
type Cartpole struct {
	State CartpoleState
	rng   *rand.Rand
}

// Cartpole's constants (bsuite's defaults).
const (
	cartMass        = 1.0
	poleMass        = 0.1
	poleLength      = 0.5
	forceMag        = 10.0
	gravity         = 9.8
	timescale       = 0.01
	maxTime         = 10.0
	heightThreshold = 0.8
	xThreshold      = 3.0
	initRange       = 0.05
)

// NewCartpole returns a cartpole whose initial states are drawn from rng.
func NewCartpole(rng *rand.Rand) *Cartpole { return &Cartpole{rng: rng} }

// ObsDim is 6.
func (c *Cartpole) ObsDim() int { return 6 }

// Actions is 3 (left, stay, right).
func (c *Cartpole) Actions() int { return 3 }

// Reset draws the initial state (x, ẋ, θ, θ̇ in that order, as bsuite).
func (c *Cartpole) Reset(obs []float32) {
	u := func() float64 { return -initRange + 2*initRange*c.rng.Float64() }
	c.State = CartpoleState{}
	c.State.X = u()
	c.State.XDot = u()
	c.State.Theta = u()
	c.State.ThetaDot = u()
	// bsuite keeps θ as drawn (possibly negative) until the first step wraps it.
	c.observe(obs)
}

// Step advances the dynamics by one Euler step of 0.01 s.
func (c *Cartpole) Step(action int, obs []float32) (float64, bool) {
	c.State = StepCartpole(c.State, action)
	reward := 0.0
	ok := math.Cos(c.State.Theta) > heightThreshold && math.Abs(c.State.X) < xThreshold
	if ok {
		reward = 1
	}
	c.observe(obs)
	return reward, c.State.Time > maxTime || !ok
}

func (c *Cartpole) observe(obs []float32) {
	s := &c.State
	obs[0] = float32(s.X / xThreshold)
	obs[1] = float32(s.XDot / xThreshold)
	obs[2] = float32(math.Sin(s.Theta))
	obs[3] = float32(math.Cos(s.Theta))
	obs[4] = float32(s.ThetaDot)
	obs[5] = float32(s.Time / maxTime)
}

// StepCartpole is one step of bsuite's step_cartpole: with force
// F = (a−1)·10, m = m_cart + m_pole and pl = m_pole·l,
//
//	temp   = (F + pl·θ̇²·sin θ) / m
//	θ̈      = (g·sin θ − cos θ·temp) / (l·(4/3 − m_pole·cos²θ / m))
//	ẍ      = temp − pl·θ̈·cos θ / m
//
// then x += dt·ẋ, ẋ += dt·ẍ, θ = (θ + dt·θ̇) mod 2π, θ̇ += dt·θ̈, t += dt
// (positions from the old velocities).
func StepCartpole(s CartpoleState, action int) CartpoleState {
	force := float64(action-1) * forceMag
	cos, sin := math.Cos(s.Theta), math.Sin(s.Theta)
	pl := poleMass * poleLength
	mTotal := cartMass + poleMass
	temp := (force + pl*s.ThetaDot*s.ThetaDot*sin) / mTotal
	thetaAcc := (gravity*sin - cos*temp) / (poleLength * (4.0/3 - poleMass*cos*cos/mTotal))
	xAcc := temp - pl*thetaAcc*cos/mTotal
	theta := math.Mod(s.Theta+timescale*s.ThetaDot, 2*math.Pi)
	if theta < 0 { // numpy's remainder takes the divisor's sign
		theta += 2 * math.Pi
	}
	return CartpoleState{
		X:        s.X + timescale*s.XDot,
		XDot:     s.XDot + timescale*xAcc,
		Theta:    theta,
		ThetaDot: s.ThetaDot + timescale*thetaAcc,
		Time:     s.Time + timescale,
	}
}
