package nn

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/deup-screening/deup/internal/kernels"
	"gonum.org/v1/gonum/blas"

	"github.com/deup-screening/deup/internal/streams"
)

// Activation of a layer's output.
type Activation uint8

const (
	Linear Activation = iota
	ReLU
	Softplus // log(1+e^z), for positive outputs (E-networks, σ heads)
)

// MLPConfig describes a dense multilayer perceptron.
type MLPConfig struct {
	In      int        // input width
	Hidden  []int      // widths of the hidden layers, each followed by ReLU (and dropout when Dropout > 0)
	Out     int        // output width
	OutAct  Activation // Linear or Softplus
	Dropout float64    // dropout probability after each hidden layer, in [0,1); 0 = none
	Seed    uint64     // seeds the initializer (PyTorch's default Linear init: U(±1/sqrt(fan_in)))
}

// MLP is a dense multilayer perceptron. Its parameters live in plain
// slices (layer i: weight "l<i>.w" of shape in×out, row-major, applied as
// x·W, and bias "l<i>.b" of shape 1×out); inference does not build a
// graph.
type MLP struct {
	cfg     MLPConfig
	widths  []int // In, Hidden..., Out
	params  Params
	scratch sync.Pool // *[]float32 activation buffers of Predict
}

func (c MLPConfig) validate() error {
	if c.In < 1 || c.Out < 1 {
		return fmt.Errorf("nn: MLP with %d inputs and %d outputs", c.In, c.Out)
	}
	for i, h := range c.Hidden {
		if h < 1 {
			return fmt.Errorf("nn: MLP hidden layer %d of width %d", i, h)
		}
	}
	if c.OutAct != Linear && c.OutAct != Softplus {
		return fmt.Errorf("nn: MLP output activation %d (want Linear or Softplus)", c.OutAct)
	}
	if !(c.Dropout >= 0 && c.Dropout < 1) {
		return fmt.Errorf("nn: MLP dropout %v outside [0,1)", c.Dropout)
	}
	return nil
}

// widths is In, Hidden..., Out.
func (c MLPConfig) widths() []int {
	w := append([]int{c.In}, c.Hidden...)
	return append(w, c.Out)
}

// NewMLP returns a network initialized from cfg.Seed: every weight and
// bias of layer i drawn from U(±1/√fan_in) (InitLinear), layer by layer,
// weight before bias.
func NewMLP(cfg MLPConfig) (*MLP, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.Hidden = append([]int(nil), cfg.Hidden...)
	m := &MLP{cfg: cfg, widths: cfg.widths()}
	rng := rand.New(rand.NewPCG(cfg.Seed, streams.NNMLP))
	w := cfg.widths()
	for i := 0; i+1 < len(w); i++ {
		W := &Param{Name: fmt.Sprintf("l%d.w", i), Shape: []int{w[i], w[i+1]}, Data: make([]float32, w[i]*w[i+1])}
		b := &Param{Name: fmt.Sprintf("l%d.b", i), Shape: []int{1, w[i+1]}, Data: make([]float32, w[i+1])}
		InitLinear(W.Data, w[i], rng)
		InitLinear(b.Data, w[i], rng)
		m.params = append(m.params, W, b)
	}
	return m, nil
}

// Config is the network's configuration.
func (m *MLP) Config() MLPConfig {
	c := m.cfg
	c.Hidden = append([]int(nil), c.Hidden...)
	return c
}

// Params is the network's parameter set (its own tensors: writing Data
// changes the network).
func (m *MLP) Params() Params { return m.params }

// CopyFrom sets m's parameters to src's (same config): target networks,
// snapshots.
func (m *MLP) CopyFrom(src *MLP) error {
	if len(src.params) != len(m.params) {
		return fmt.Errorf("nn: CopyFrom: %d parameters, want %d", len(src.params), len(m.params))
	}
	for i, p := range m.params {
		q := src.params[i]
		if q.Name != p.Name || len(q.Data) != len(p.Data) || fmt.Sprint(q.Shape) != fmt.Sprint(p.Shape) {
			return fmt.Errorf("nn: CopyFrom: parameter %s %v, want %s %v", q.Name, q.Shape, p.Name, p.Shape)
		}
	}
	for i, p := range m.params {
		copy(p.Data, src.params[i].Data)
	}
	return nil
}

// Predict writes the n×Out outputs for the n×In inputs x (dropout off)
// into dst (grown if too short) and returns it. Safe for concurrent use;
// no allocation when dst has room.
func (m *MLP) Predict(x []float32, n int, dst []float32) []float32 {
	return m.forward(x, n, nil, dst)
}

// PredictDropout is one stochastic forward pass with dropout masks drawn
// from rng (MC-Dropout): each hidden unit of each row kept with
// probability 1−p and scaled by 1/(1−p), drawn row by row, layer by
// layer. Without dropout it is Predict.
func (m *MLP) PredictDropout(x []float32, n int, rng *rand.Rand, dst []float32) []float32 {
	return m.forward(x, n, rng, dst)
}

func (m *MLP) forward(x []float32, n int, rng *rand.Rand, dst []float32) []float32 {
	c := m.cfg
	if len(x) < n*c.In {
		panic(fmt.Sprintf("nn: MLP.Predict: %d inputs for %d rows of %d", len(x), n, c.In))
	}
	if cap(dst) < n*c.Out {
		dst = make([]float32, n*c.Out)
	}
	dst = dst[:n*c.Out]
	if n == 0 {
		return dst
	}
	widest := 0
	for _, h := range c.Hidden {
		widest = max(widest, h)
	}
	var bufs *[]float32
	if len(c.Hidden) > 0 {
		if v := m.scratch.Get(); v != nil {
			bufs = v.(*[]float32)
		} else {
			bufs = new([]float32)
		}
		if cap(*bufs) < 2*n*widest {
			*bufs = make([]float32, 2*n*widest)
		}
		defer m.scratch.Put(bufs)
	}
	in, k := x[:n*c.In], c.In
	w := m.widths
	for l := 0; l+1 < len(w); l++ {
		out := dst
		if l+1 < len(w)-1 {
			out = (*bufs)[(l%2)*n*widest : (l%2)*n*widest+n*w[l+1]]
		}
		o := w[l+1]
		kernels.Impl().Sgemm(blas.NoTrans, blas.NoTrans, n, o, k, 1, in, k, m.params[2*l].Data, o, 0, out, o)
		// The bias after the product, as the training graph (Graph.Linear)
		// and Trainer do, so the numbers agree; for hidden layers fused
		// with the ReLU (negative values to 0).
		bias := m.params[2*l+1].Data[:o]
		hidden := l+1 < len(w)-1
		for i := 0; i < len(out); i += o {
			row := out[i : i+o : i+o]
			if !hidden {
				for j, v := range bias {
					row[j] += v
				}
				continue
			}
			for j, v := range bias {
				if s := row[j] + v; s >= 0 || s != s { // NaN stays
					row[j] = s
				} else {
					row[j] = 0
				}
			}
		}
		switch {
		case hidden:
			if rng != nil && c.Dropout > 0 {
				// keep's draws and values, its scale computed once.
				p, scale := c.Dropout, float32(1/(1-c.Dropout))
				for i := range out {
					m := scale
					if rng.Float64() < p {
						m = 0
					}
					out[i] *= m
				}
			}
		case c.OutAct == Softplus:
			for i, v := range out {
				out[i] = Softplus32(v)
			}
		}
		in, k = out, w[l+1]
	}
	return dst
}
