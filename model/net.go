package model

import (
	"fmt"
	"math/rand/v2"

	"github.com/deup-screening/deup/nn"
	"github.com/deup-screening/deup/nn/optim"

	"github.com/deup-screening/deup/internal/streams"
)

// group names a parameter set; each training update touches a fixed set of
// groups (see doc.go).
type group uint8

const (
	groupTower group = iota // single-drug tower: t1.w t1.b t2.w t2.b, the cell-line embedding cl.e and the identity vectors id.e
	groupComb               // combined network: c1.w c1.b c2.w c2.b
	groupMu                 // mean head: mu.w mu.b
	groupSigma              // σ path: s1.w s1.bit s1.b s2.w s2.b sig.w sig.b
)

func (g group) String() string {
	return [...]string{"tower", "combined", "mu", "sigma"}[g]
}

// param is one weight matrix or bias row with its Adam state. The value
// tensor is shared by every gorgonia graph built for the network.
type param struct {
	name       string
	group      group
	rows, cols int
	fanIn      int
	t          *nn.Tensor // value, rows×cols
	// Adam state (moments and step count) of this parameter, for its
	// element type; released (Reset) when training ends.
	opt32 optim.Adam[float32]
	opt64 optim.Adam[float64]
}

// Network is the two-tower net: tower (sparse F→TowerHidden, ReLU,
// TowerHidden→TowerOut), embeddings summed per pair (plus the cell line's
// learned embedding E_l when the network knows several lines), combined net (two
// ReLU layers) and μ head; with sigma set, the σ path (two ReLU layers on
// [pair embedding, bit, σ features]) and softplus head.
type Network struct {
	cfg    Config
	dim    int
	sigma  bool
	dt     nn.DType
	params []*param
	byName map[string]*param
}

// NewNetwork returns the network of cfg on drug features of width dim,
// with the σ path when sigma, its weights drawn from seed.
func NewNetwork(cfg Config, dim int, sigma bool, seed uint64) *Network {
	n := &Network{cfg: cfg, dim: dim, sigma: sigma, dt: nn.Float32, byName: map[string]*param{}}
	if cfg.float64 {
		n.dt = nn.Float64
	}
	th, to, ch, sh := cfg.TowerHidden, cfg.TowerOut, cfg.CombHidden, cfg.SigmaHidden
	add := func(name string, g group, r, c, fanIn int) {
		p := &param{name: name, group: g, rows: r, cols: c, fanIn: fanIn}
		p.t = nn.NewTensor(n.dt, r, c)
		n.params = append(n.params, p)
		n.byName[name] = p
	}
	add("t1.w", groupTower, dim, th, dim)
	add("t1.b", groupTower, 1, th, dim)
	add("t2.w", groupTower, th, to, th)
	add("t2.b", groupTower, 1, to, th)
	add("c1.w", groupComb, to, ch, to)
	add("c1.b", groupComb, 1, ch, to)
	add("c2.w", groupComb, ch, ch, ch)
	add("c2.b", groupComb, 1, ch, ch)
	add("mu.w", groupMu, ch, 1, ch)
	add("mu.b", groupMu, 1, 1, ch)
	if sigma {
		// s1.bit: row 0 weighs the seen bit, rows 1…side the σ features.
		k := cfg.side
		add("s1.w", groupSigma, to, sh, to+1+k)
		add("s1.bit", groupSigma, 1+k, sh, to+1+k)
		add("s1.b", groupSigma, 1, sh, to+1+k)
		add("s2.w", groupSigma, sh, sh, sh)
		add("s2.b", groupSigma, 1, sh, sh)
		add("sig.w", groupSigma, sh, 1, sh)
		add("sig.b", groupSigma, 1, 1, sh)
	}
	// The cell-line input (LineInput: E, and W_f with features), trained
	// with the tower. Last, so that the other parameters draw the numbers
	// they always drew; it starts at 0 (init).
	for _, p := range cfg.lineInput().Params() {
		add(p.Name, groupTower, p.Rows, p.Cols, p.Rows)
	}
	// The identity vectors (Config.Identity), after the line input for
	// the same reason; they start at 0 too.
	if k := cfg.identityRows(); k > 0 {
		add(IdentityParam, groupTower, k, th, k)
	}
	// The lines' FiLM gains (Config.LineFiLM), last, starting at 0.
	if cfg.filmOn() {
		add(LineFiLMParam, groupComb, cfg.lines, ch, cfg.lines)
	}
	n.init(seed)
	return n
}

// init draws every weight and bias from U(−1/√fanIn, 1/√fanIn) (PyTorch's
// nn.Linear default) with a PCG stream seeded from seed, except the
// cell-line input and the identity vectors, which start at 0 (and draw
// nothing); Adam state is reset.
func (n *Network) init(seed uint64) {
	rng := rand.New(rand.NewPCG(seed, streams.NetInit))
	for _, p := range n.params {
		switch d := p.t.Data().(type) {
		case []float32:
			if zeroInit(p.name) {
				clear(d) // the cell-line input (LineInput), the identity vectors and the FiLM gains start at 0
				break
			}
			nn.InitLinear(d, p.fanIn, rng)
		case []float64:
			if zeroInit(p.name) {
				clear(d)
				break
			}
			nn.InitLinear(d, p.fanIn, rng)
		}
		p.opt32.Reset()
		p.opt64.Reset()
	}
}

// zeroInit says whether a parameter starts at 0 and draws no random
// number: the line input's, the identity vectors, the FiLM gains.
func zeroInit(name string) bool {
	return IsLineParam(name) || name == IdentityParam || name == LineFiLMParam
}

// OptimizerSteps is the largest number of Adam steps any parameter of n
// holds moments for: 0 after EndTraining (a fitted network keeps only its
// values).
func (n *Network) OptimizerSteps() int {
	steps := 0
	for _, p := range n.params {
		steps = max(steps, p.opt32.Steps(), p.opt64.Steps())
	}
	return steps
}

// EndTraining drops the Adam moments (allocated again, zero, by the next
// step): after Fit a network holds only its parameter values.
func (n *Network) EndTraining() {
	for _, p := range n.params {
		p.opt32.Reset()
		p.opt64.Reset()
	}
}

// snapshot copies all parameter values into s (for restoring the best
// epoch), reusing s's buffers when it was filled by an earlier call; the
// copy keeps the network's element type.
func (n *Network) snapshot(s []any) []any { return copyParams(n.params, s) }

// restore copies a snapshot back into the parameters.
func (n *Network) restore(s []any) { restoreParams(n.params, s) }

// copyParams copies the values of ps into s (reusing its buffers when it
// holds a copy of the same parameters).
func copyParams(ps []*param, s []any) []any {
	if len(s) != len(ps) {
		s = make([]any, len(ps))
	}
	for i, p := range ps {
		switch d := p.t.Data().(type) {
		case []float32:
			b, _ := s[i].([]float32)
			s[i] = append(b[:0], d...)
		case []float64:
			b, _ := s[i].([]float64)
			s[i] = append(b[:0], d...)
		}
	}
	return s
}

// restoreParams copies s, made by copyParams(ps, …), back into ps.
func restoreParams(ps []*param, s []any) {
	for i, p := range ps {
		switch d := p.t.Data().(type) {
		case []float32:
			copy(d, s[i].([]float32))
		case []float64:
			copy(d, s[i].([]float64))
		}
	}
}

func toFloat64(d any) []float64 {
	switch d := d.(type) {
	case []float32:
		o := make([]float64, len(d))
		for i, v := range d {
			o[i] = float64(v)
		}
		return o
	case []float64:
		return append([]float64(nil), d...)
	}
	panic(fmt.Sprintf("model: unsupported data %T", d))
}
