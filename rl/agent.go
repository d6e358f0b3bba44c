package rl

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/nn"

	"github.com/deup-screening/deup/internal/streams"
)

// The agents.
const (
	DQN        = "dqn"           // ε-greedy DQN
	MCDropout  = "mcdropout-dqn" // one stochastic forward pass per action (dropout 0.1)
	BootDQN    = "boot-dqn"      // Bootstrapped DQN with randomized prior functions
	DEUPDQN    = "deup-dqn"      // DQN + κ·E(log d(s)) exploration bonus (paper Algorithm "DEUP-DQN")
	RandomPlay = "random"        // uniform random actions, no learning (a reference)
)

// Agents lists the learning agents in their default order.
var agentNames = []string{DQN, DEUPDQN, MCDropout, BootDQN}

// ParseAgents parses a comma-separated list of agent names (no repeats).
func ParseAgents(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch f {
		case DQN, MCDropout, BootDQN, DEUPDQN, RandomPlay:
		case "":
			return nil, fmt.Errorf("rl: empty agent name in %q", s)
		default:
			return nil, fmt.Errorf("rl: unknown agent %q (want %s or %s)", f, strings.Join(agentNames, ", "), RandomPlay)
		}
		if seen[f] {
			return nil, fmt.Errorf("rl: agent %q given twice", f)
		}
		seen[f] = true
		out = append(out, f)
	}
	return out, nil
}

// Options are the agents' settings. The zero value of a field means the
// default given in its comment: the settings of the paper's code (MJ10/DEUP,
// examples/RL/main.py and agent_DEUP.py) unless the package doc says
// otherwise.
type Options struct {
	Hidden      []int   // Q-network hidden widths ([50, 50]: in→50→50→actions)
	Batch       int     // minibatch (64)
	LR          float64 // Adam learning rate of every network (1e-3)
	Gamma       float64 // discount (0.99)
	Epsilon     float64 // ε of ε-greedy for dqn, mcdropout-dqn, deup-dqn (0.05)
	Replay      int     // replay capacity (2^16)
	MinReplay   int     // transitions stored before the first update (64)
	UpdateEvery int     // steps between Q updates (2)
	TargetEvery int     // steps between target-network copies (50)
	NStep       int     // n of the n-step returns (4)
	ClipNorm    float64 // global gradient-norm clip (5)

	Dropout float64 // mcdropout-dqn's dropout after each hidden layer (0.1)

	Heads      int     // boot-dqn's Q-heads (20, bsuite's default)
	PriorScale float64 // boot-dqn's prior-function scale (3, bsuite's default)
	MaskProb   float64 // boot-dqn's bootstrap mask probability (0.5, bsuite's default)

	Kappa      float64 // deup-dqn's bonus weight κ (0.1)
	BurnIn     int     // deup-dqn: steps before the bonus is used and the E-network trained (10,000)
	KDEEvery   int     // deup-dqn: steps between KDE refits (10,000)
	KDECentres int     // deup-dqn: replay states the KDE is fit on (500; the paper: 10,000)
	KDECV      int     // deup-dqn: of those, states the bandwidth is cross-validated on (300)
	EHidden    []int   // deup-dqn's E-network hidden widths ([50, 50], the Q-network's)
}

func (o Options) withDefaults() Options {
	def := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	deff := func(p *float64, v float64) {
		if *p == 0 {
			*p = v
		}
	}
	if o.Hidden == nil {
		o.Hidden = []int{50, 50}
	}
	if o.EHidden == nil {
		o.EHidden = []int{50, 50}
	}
	def(&o.Batch, 64)
	deff(&o.LR, 1e-3)
	deff(&o.Gamma, 0.99)
	deff(&o.Epsilon, 0.05)
	def(&o.Replay, 1<<16)
	def(&o.MinReplay, 64)
	def(&o.UpdateEvery, 2)
	def(&o.TargetEvery, 50)
	def(&o.NStep, 4)
	deff(&o.ClipNorm, 5)
	deff(&o.Dropout, 0.1)
	def(&o.Heads, 20)
	deff(&o.PriorScale, 3)
	deff(&o.MaskProb, 0.5)
	deff(&o.Kappa, 0.1)
	def(&o.BurnIn, 10000)
	def(&o.KDEEvery, 10000)
	def(&o.KDECentres, 500)
	def(&o.KDECV, 300)
	return o
}

// Agent is one learning agent. It is not safe for concurrent use.
type Agent struct {
	kind    string
	opt     Options
	dim, nA int
	rng     *rand.Rand

	q, target *nn.MLP
	qt        *nn.Trainer
	prior     *nn.MLP // boot-dqn: the fixed random prior network
	heads     int     // Q-network outputs are heads×nA (1 head but for boot-dqn)
	head      int     // boot-dqn's active head
	// boot-dqn: the prior's values of each replay slot, computed once
	// when the transition is stored (the prior is fixed, and a row's
	// prediction does not depend on the rows predicted with it, so these
	// are the numbers of a batched prediction): priorSA[slot·heads+k] is
	// head k's prior at (s, a), priorS2[slot·heads·nA:…] all heads' at s′.
	priorSA, priorS2 []float32
	pairX, pairP     []float32 // scratch: the rows s, s′ and their prior values

	e   *nn.MLP // deup-dqn's E-network: log-density → one value per action
	et  *nn.Trainer
	kde *deup.KDE
	// memo: the log-densities of the last states looked up under the
	// current KDE (a state acted on is stored a few steps later, its
	// density then looked up again); cleared at each refit.
	memo     [densityMemo]memoEntry
	memoNext int

	rep *Replay
	ns  *NStep

	steps, updates int

	// scratch, sized once
	out, out2, pr   []float32
	xb, x2b, tgt, w []float32
	eIn, eOut       []float32
	idx             []int
	row             []float64
	rows            [][]float64
	dens            []float64
	td              []float32
	perm            []int
}

// NewAgent returns the agent kind for observations of width dim and nA
// actions; every random draw derives from seed.
func NewAgent(kind string, dim, nA int, seed uint64, opt Options) (*Agent, error) {
	if _, err := ParseAgents(kind); err != nil {
		return nil, err
	}
	if kind == RandomPlay {
		return &Agent{kind: kind, nA: nA, dim: dim, rng: rand.New(rand.NewPCG(seed, streams.RLAgent))}, nil
	}
	if dim < 1 || nA < 1 {
		return nil, fmt.Errorf("rl: observation width %d, %d actions", dim, nA)
	}
	o := opt.withDefaults()
	if o.Batch < 1 || o.UpdateEvery < 1 || o.TargetEvery < 1 || o.NStep < 1 || o.Heads < 1 || o.KDEEvery < 1 || o.KDECentres < 2 || o.KDECV < 2 {
		return nil, errors.New("rl: batch, periods, n-step, heads and KDE sizes must be positive (KDE sizes at least 2)")
	}
	if !(o.Epsilon >= 0 && o.Epsilon <= 1) || !(o.Gamma >= 0 && o.Gamma <= 1) || !(o.MaskProb > 0 && o.MaskProb <= 1) || !(o.Dropout >= 0 && o.Dropout < 1) {
		return nil, fmt.Errorf("rl: epsilon %v, gamma %v, mask probability %v or dropout %v out of range", o.Epsilon, o.Gamma, o.MaskProb, o.Dropout)
	}
	a := &Agent{kind: kind, opt: o, dim: dim, nA: nA, heads: 1,
		rng: rand.New(rand.NewPCG(seed, streams.RLAgent))}
	cfg := nn.MLPConfig{In: dim, Hidden: o.Hidden, Out: nA, OutAct: nn.Linear, Seed: seed*4 + 1}
	if kind == MCDropout {
		cfg.Dropout = o.Dropout
	}
	maskHeads := 0
	if kind == BootDQN {
		a.heads = o.Heads
		maskHeads = o.Heads
		cfg.Out = nA * o.Heads
	}
	var err error
	if a.q, err = nn.NewMLP(cfg); err != nil {
		return nil, err
	}
	if a.target, err = nn.NewMLP(cfg); err != nil {
		return nil, err
	}
	if err := a.target.CopyFrom(a.q); err != nil {
		return nil, err
	}
	if a.qt, err = nn.NewTrainer(a.q, nn.TrainConfig{Loss: nn.MSE, Batch: o.Batch, LR: o.LR, ClipNorm: o.ClipNorm, Seed: seed*4 + 2}); err != nil {
		return nil, err
	}
	if kind == BootDQN {
		pc := cfg
		pc.Seed = seed*4 + 3
		if a.prior, err = nn.NewMLP(pc); err != nil {
			return nil, err
		}
		a.head = a.rng.IntN(a.heads)
		a.priorSA = make([]float32, o.Replay*a.heads)
		a.priorS2 = make([]float32, o.Replay*a.heads*nA)
		a.pairX, a.pairP = make([]float32, 2*dim), make([]float32, 2*a.heads*nA)
	}
	if kind == DEUPDQN {
		ec := nn.MLPConfig{In: 1, Hidden: o.EHidden, Out: nA, OutAct: nn.Softplus, Seed: seed*4 + 4}
		if a.e, err = nn.NewMLP(ec); err != nil {
			return nil, err
		}
		if a.et, err = nn.NewTrainer(a.e, nn.TrainConfig{Loss: nn.MSE, Batch: o.Batch, LR: o.LR, ClipNorm: o.ClipNorm, Seed: seed*4 + 5}); err != nil {
			return nil, err
		}
	}
	if a.rep, err = NewReplay(o.Replay, dim, maskHeads); err != nil {
		return nil, err
	}
	if a.ns, err = NewNStep(o.NStep, o.Gamma, dim); err != nil {
		return nil, err
	}
	a.ns.OnAdd = a.stored
	out := a.heads * nA
	a.out, a.out2 = make([]float32, o.Batch*out), make([]float32, o.Batch*out)
	a.pr = make([]float32, out)
	a.xb, a.x2b = make([]float32, o.Batch*dim), make([]float32, o.Batch*dim)
	a.tgt, a.w = make([]float32, o.Batch*out), make([]float32, o.Batch*out)
	a.eIn, a.eOut = make([]float32, o.Batch), make([]float32, o.Batch*nA)
	a.idx, a.td = make([]int, o.Batch), make([]float32, o.Batch)
	a.row = make([]float64, dim)
	a.rows = [][]float64{a.row}
	a.dens = make([]float64, 1)
	return a, nil
}

// Close releases the agent's compiled graphs.
func (a *Agent) Close() {
	if a.qt != nil {
		a.qt.Close()
	}
	if a.et != nil {
		a.et.Close()
	}
}

// Act returns the action to take in state obs (the exploring policy) and
// counts one step.
func (a *Agent) Act(obs []float32) int {
	a.steps++
	switch a.kind {
	case RandomPlay:
		return a.rng.IntN(a.nA)
	case BootDQN:
		// bsuite: ε_t = 10/(10+t), t the SGD steps (starting at 1).
		if a.rng.Float64() < 10/(10+float64(a.updates+1)) {
			return a.rng.IntN(a.nA)
		}
		q := a.headValues(obs)
		return argmaxTies(q, a.rng)
	}
	if a.rng.Float64() < a.opt.Epsilon {
		return a.rng.IntN(a.nA)
	}
	switch a.kind {
	case MCDropout:
		return argmax(a.q.PredictDropout(obs, 1, a.rng, a.out[:a.nA]))
	case DEUPDQN:
		q := a.q.Predict(obs, 1, a.out[:a.nA])
		if a.steps > a.opt.BurnIn && a.kde != nil {
			a.eIn[0] = a.logDensity(obs)
			e := a.e.Predict(a.eIn[:1], 1, a.eOut[:a.nA])
			for i := range q {
				q[i] += float32(a.opt.Kappa) * e[i]
			}
		}
		return argmax(q)
	}
	return argmax(a.q.Predict(obs, 1, a.out[:a.nA]))
}

// Greedy is the learned policy without exploration: argmax_a Q(obs, a)
// (boot-dqn: of the mean over heads). It counts no step.
func (a *Agent) Greedy(obs []float32) int {
	switch a.kind {
	case RandomPlay:
		return a.rng.IntN(a.nA)
	case BootDQN:
		q := a.q.Predict(obs, 1, a.out[:a.heads*a.nA])
		p := a.prior.Predict(obs, 1, a.pr[:a.heads*a.nA])
		mean := a.out2[:a.nA]
		clear(mean)
		for k := 0; k < a.heads; k++ {
			for i := 0; i < a.nA; i++ {
				mean[i] += q[k*a.nA+i] + float32(a.opt.PriorScale)*p[k*a.nA+i]
			}
		}
		return argmax(mean)
	}
	return argmax(a.q.Predict(obs, 1, a.out[:a.nA]))
}

// headValues is the active head's Q + β·prior at obs.
func (a *Agent) headValues(obs []float32) []float32 {
	q := a.q.Predict(obs, 1, a.out[:a.heads*a.nA])
	p := a.prior.Predict(obs, 1, a.pr[:a.heads*a.nA])
	h := q[a.head*a.nA : (a.head+1)*a.nA]
	for i := range h {
		h[i] += float32(a.opt.PriorScale) * p[a.head*a.nA+i]
	}
	return h
}

// Observe records the step (s, action, reward, s2, done) that followed
// Act(s), and trains: a Q update every UpdateEvery steps once MinReplay
// transitions are stored, a target copy every TargetEvery steps, and for
// deup-dqn a KDE refit every KDEEvery steps and an E-network update with
// each Q update after BurnIn stored transitions.
func (a *Agent) Observe(s []float32, action int, reward float64, s2 []float32, done bool) error {
	if a.kind == RandomPlay {
		return nil
	}
	a.ns.Push(a.rep, s, action, reward, s2, done)
	if done && a.kind == BootDQN {
		a.head = a.rng.IntN(a.heads)
	}
	if a.rep.Len() < a.opt.MinReplay {
		return nil
	}
	if a.steps%a.opt.UpdateEvery == 0 {
		if err := a.update(); err != nil {
			return err
		}
	}
	if a.steps%a.opt.TargetEvery == 0 {
		if err := a.target.CopyFrom(a.q); err != nil {
			return err
		}
	}
	return nil
}

// stored is called for each transition added to the replay.
func (a *Agent) stored(slot int) {
	switch a.kind {
	case BootDQN:
		m := a.rep.Mask[slot*a.heads : (slot+1)*a.heads]
		for k := range m {
			m[k] = 0
			if a.rng.Float64() < a.opt.MaskProb {
				m[k] = 1
			}
		}
		s, act, _, _, s2 := a.rep.Transition(slot)
		copy(a.pairX, s)
		copy(a.pairX[a.dim:], s2)
		p := a.prior.Predict(a.pairX, 2, a.pairP)
		H, nA := a.heads, a.nA
		for k := 0; k < H; k++ {
			a.priorSA[slot*H+k] = p[k*nA+act]
		}
		copy(a.priorS2[slot*H*nA:(slot+1)*H*nA], p[H*nA:])
	case DEUPDQN:
		a.rep.Tag[slot] = math.NaN()
		if a.kde != nil {
			a.rep.Tag[slot] = float64(a.logDensity(a.rep.State(slot)))
		}
	}
}

// logDensityFloor bounds the E-network's input far from the data.
const logDensityFloor = -1e4

// densityMemo is the number of recent log-densities the agent keeps: more
// than the NStep delay between acting on a state and storing it.
const densityMemo = 8

type memoEntry struct {
	state []float32
	v     float32
	ok    bool // state and v are set, under the current KDE
}

// sameBits reports whether a and b hold the same float32 bit patterns.
func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i, v := range a {
		if math.Float32bits(v) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// logDensity is log d(s) under the current KDE, floored at -1e4.
func (a *Agent) logDensity(s []float32) float32 {
	for i := range a.memo {
		if m := &a.memo[i]; m.ok && sameBits(m.state, s) {
			return m.v
		}
	}
	for j, v := range s {
		a.row[j] = float64(v)
	}
	v := a.kde.LogDensityInto(a.dens, a.rows)[0]
	if !(v > logDensityFloor) {
		v = logDensityFloor
	}
	m := &a.memo[a.memoNext]
	a.memoNext = (a.memoNext + 1) % densityMemo
	if m.state == nil {
		m.state = make([]float32, len(s))
	}
	copy(m.state, s)
	m.v, m.ok = float32(v), true
	return m.v
}

func (a *Agent) update() error {
	o := &a.opt
	B, nA, H := o.Batch, a.nA, a.heads
	n := a.rep.Len()
	for b := 0; b < B; b++ {
		i := a.rng.IntN(n)
		a.idx[b] = i
		s, _, _, _, s2 := a.rep.Transition(i)
		copy(a.xb[b*a.dim:], s)
		copy(a.x2b[b*a.dim:], s2)
	}
	// Targets from the target network (stochastic passes for mcdropout-dqn,
	// as the paper's code, whose dropout is always on).
	var next []float32
	if a.kind == MCDropout {
		next = a.target.PredictDropout(a.x2b, B, a.rng, a.out2)
	} else {
		next = a.target.Predict(a.x2b, B, a.out2)
	}
	clear(a.w)
	clear(a.tgt)
	if a.kind == BootDQN {
		beta := float32(o.PriorScale)
		for b := 0; b < B; b++ {
			slot := a.idx[b]
			_, act, ret, disc, _ := a.rep.Transition(slot)
			mask := a.rep.Mask[slot*H : (slot+1)*H]
			p2 := a.priorS2[slot*H*nA : (slot+1)*H*nA]
			for k := 0; k < H; k++ {
				off := b*H*nA + k*nA
				best := float32(math.Inf(-1))
				for i := 0; i < nA; i++ {
					best = max(best, next[off+i]+beta*p2[k*nA+i])
				}
				// Q_k = f_k + β·prior_k, so f_k's target is y − β·prior_k(s, a).
				a.tgt[off+act] = ret + disc*best - beta*a.priorSA[slot*H+k]
				a.w[off+act] = mask[k]
			}
		}
	} else {
		for b := 0; b < B; b++ {
			_, act, ret, disc, _ := a.rep.Transition(a.idx[b])
			a.tgt[b*nA+act] = ret + disc*maxf(next[b*nA:(b+1)*nA])
			a.w[b*nA+act] = 1
		}
	}
	if _, err := a.qt.Step(a.xb, a.tgt, a.w, B); err != nil {
		return fmt.Errorf("rl: %s Q update: %w", a.kind, err)
	}
	a.updates++
	if a.kind != DEUPDQN {
		return nil
	}
	if a.steps%o.KDEEvery == 0 {
		if err := a.refitKDE(); err != nil {
			return err
		}
	}
	if a.kde == nil || n <= o.BurnIn {
		return nil
	}
	// E-network: predict the squared TD error of the taken action from the
	// log-density of the state (weights select the action's column). The
	// TD errors use Q before its update: the Q step's own forward pass
	// (Trainer.Output, the numbers of q.Predict on the batch before the
	// step).
	cur := a.qt.Output()
	for b := 0; b < B; b++ {
		_, act, _, _, _ := a.rep.Transition(a.idx[b])
		d := a.tgt[b*nA+act] - cur[b*nA+act]
		a.td[b] = d*d + 1e-8
	}
	for b := 0; b < B; b++ {
		tag := a.rep.Tag[a.idx[b]]
		if math.IsNaN(tag) { // stored before the first fit (recomputed at each refit, so not expected)
			tag = float64(a.logDensity(a.rep.State(a.idx[b])))
			a.rep.Tag[a.idx[b]] = tag
		}
		a.eIn[b] = float32(tag)
		_, act, _, _, _ := a.rep.Transition(a.idx[b])
		for i := 0; i < nA; i++ {
			a.tgt[b*nA+i], a.w[b*nA+i] = 0, 0
		}
		a.tgt[b*nA+act] = a.td[b]
		a.w[b*nA+act] = 1
	}
	if _, err := a.et.Step(a.eIn, a.tgt[:B*nA], a.w[:B*nA], B); err != nil {
		return fmt.Errorf("rl: deup-dqn E update: %w", err)
	}
	return nil
}

// refitKDE fits the KDE on KDECentres distinct replay states (the
// bandwidth cross-validated on the first KDECV of them and rescaled to the
// centres with Scott's rate n^(−1/(d+4))) and recomputes the log-density of
// every stored state.
func (a *Agent) refitKDE() error {
	o := &a.opt
	n := a.rep.Len()
	m := min(o.KDECentres, n)
	if cap(a.perm) < n {
		a.perm = make([]int, 0, o.Replay)
	}
	a.perm = a.perm[:n]
	for i := range a.perm {
		a.perm[i] = i
	}
	pts := make([][]float64, m)
	flat := make([]float64, m*a.dim)
	for i := 0; i < m; i++ { // partial Fisher–Yates: m distinct slots
		j := i + a.rng.IntN(n-i)
		a.perm[i], a.perm[j] = a.perm[j], a.perm[i]
		pts[i] = flat[i*a.dim : (i+1)*a.dim]
		for c, v := range a.rep.State(a.perm[i]) {
			pts[i][c] = float64(v)
		}
	}
	cv := min(o.KDECV, m)
	sel, err := deup.FitKDE(pts[:cv], deup.LikelihoodCV)
	if err != nil {
		return fmt.Errorf("rl: kde: %w", err)
	}
	h := sel.Bandwidths()
	scale := math.Pow(float64(cv)/float64(m), 1/float64(a.dim+4))
	for j := range h {
		h[j] *= scale
	}
	if a.kde, err = deup.NewKDE(pts, h); err != nil {
		return fmt.Errorf("rl: kde: %w", err)
	}
	for i := range a.memo {
		a.memo[i].ok = false
	}
	// Recompute every stored state's log-density, in chunks.
	const chunk = 256
	rows := make([][]float64, chunk)
	rflat := make([]float64, chunk*a.dim)
	dens := make([]float64, chunk)
	for i := range rows {
		rows[i] = rflat[i*a.dim : (i+1)*a.dim]
	}
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		for i := lo; i < hi; i++ {
			for c, v := range a.rep.State(i) {
				rows[i-lo][c] = float64(v)
			}
		}
		d := a.kde.LogDensityInto(dens, rows[:hi-lo])
		for i := lo; i < hi; i++ {
			a.rep.Tag[i] = math.Max(d[i-lo], logDensityFloor)
		}
	}
	return nil
}

func argmax(v []float32) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

// argmaxTies breaks ties uniformly at random (as bsuite's boot_dqn).
func argmaxTies(v []float32, rng *rand.Rand) int {
	best, ties := 0, 1
	for i := 1; i < len(v); i++ {
		switch {
		case v[i] > v[best]:
			best, ties = i, 1
		case v[i] == v[best]:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return best
}

func maxf(v []float32) float32 {
	m := v[0]
	for _, x := range v[1:] {
		m = max(m, x)
	}
	return m
}
