package nn

import (
	"fmt"
	"math"

	"github.com/deup-screening/deup/nn/optim"
)

// TrainConfig configures a Trainer.
type TrainConfig struct {
	Loss        Loss
	Batch       int     // largest n passed to Step (the graph is compiled once for this size; smaller n is padded with zero weight)
	LR          float64 // Adam learning rate
	WeightDecay float64 // PyTorch's coupled L2 (added to the gradient)
	ClipNorm    float64 // clip the global gradient norm to this value before the step; 0 = no clipping
	Seed        uint64  // dropout masks during training
}

// Trainer owns one compiled gorgonia graph (forward, backward) and its
// Adam state for m. The graph reads m's parameter slices directly, so
// Step updates m in place; it is compiled once, for TrainConfig.Batch rows,
// and reused by every step: inputs are copied into tensors the graph
// keeps, and every op writes into tensors it keeps.
type Trainer struct {
	m     *MLP
	cfg   TrainConfig
	g     *Graph
	x     *Tensor   // Batch×In
	tgt   *Tensor   // Batch×targetCols
	w     *Tensor   // Batch×weightCols, normalized to sum 1
	masks []*Tensor // Batch×Hidden[i], with dropout
	drop  *Dropout
	out   *Node // the network's output (Batch×Out)
	cost  *Node
	grads []*Node // aligned with m.params
	opt   []optim.Adam[float32]
	n     int // rows of the last Step (0: none, or it failed)
}

// NewTrainer compiles the training step of m for cfg.
func NewTrainer(m *MLP, cfg TrainConfig) (*Trainer, error) {
	c := m.cfg
	if cfg.Batch < 1 {
		return nil, fmt.Errorf("nn: trainer batch %d", cfg.Batch)
	}
	if err := cfg.Loss.check(c.Out); err != nil {
		return nil, err
	}
	if !(cfg.LR > 0) || cfg.WeightDecay < 0 || cfg.ClipNorm < 0 || math.IsInf(cfg.LR, 0) {
		return nil, fmt.Errorf("nn: trainer LR %v, weight decay %v, clip norm %v", cfg.LR, cfg.WeightDecay, cfg.ClipNorm)
	}
	b := cfg.Batch
	t := &Trainer{m: m, cfg: cfg, opt: make([]optim.Adam[float32], len(m.params))}
	t.x = NewTensor(Float32, b, c.In)
	t.tgt = NewTensor(Float32, b, cfg.Loss.targetCols(c.Out))
	t.w = NewTensor(Float32, b, cfg.Loss.weightCols(c.Out))
	g := NewGraph(Float32)
	t.g = g
	var ps []*Node
	for _, p := range m.params {
		pt, err := TensorFrom(p.Data, p.Shape[0], p.Shape[1])
		if err != nil {
			g.Close()
			return nil, err
		}
		ps = append(ps, g.Matrix(p.Name, pt))
	}
	h := g.Input("x", t.x)
	if c.Dropout > 0 {
		t.drop = NewDropout(c.Dropout, cfg.Seed)
	}
	for l, width := range c.Hidden {
		h = g.ReLU(g.Linear(h, ps[2*l], ps[2*l+1]))
		if t.drop != nil {
			mt := NewTensor(Float32, b, width)
			t.masks = append(t.masks, mt)
			h = g.Mask(h, g.Input(fmt.Sprintf("mask%d", l), mt))
		}
	}
	l := len(c.Hidden)
	out := g.Linear(h, ps[2*l], ps[2*l+1])
	if c.OutAct == Softplus {
		out = g.Softplus(out)
	}
	t.out = out
	t.cost = g.Loss(cfg.Loss, out, g.Input("target", t.tgt), g.Input("weight", t.w))
	t.grads = g.Grad(t.cost, ps...)
	if err := g.Compile(); err != nil {
		g.Close()
		return nil, err
	}
	return t, nil
}

// Step runs one forward/backward/Adam step on n ≤ Batch rows; x is n×In,
// target and weight as in Loss (weight nil = all ones). It returns the
// loss before the update: the weighted mean, Σ w·loss / Σ w.
func (t *Trainer) Step(x, target, weight []float32, n int) (float64, error) {
	if t.g == nil {
		return 0, fmt.Errorf("nn: Step on a closed trainer")
	}
	c, b := t.m.cfg, t.cfg.Batch
	tc, wc := t.cfg.Loss.targetCols(c.Out), t.cfg.Loss.weightCols(c.Out)
	if n < 1 || n > b {
		return 0, fmt.Errorf("nn: Step on %d rows (batch %d)", n, b)
	}
	if len(x) != n*c.In || len(target) != n*tc || (weight != nil && len(weight) != n*wc) {
		return 0, fmt.Errorf("nn: Step on %d rows: %d inputs (want %d), %d targets (want %d), %d weights (want %d or none)",
			n, len(x), n*c.In, len(target), n*tc, len(weight), n*wc)
	}
	xd, td, wd := t.x.Float32s(), t.tgt.Float32s(), t.w.Float32s()
	copy(xd, x)
	clear(xd[len(x):])
	copy(td, target)
	clear(td[len(target):])
	sw := 0.0
	if weight == nil {
		sw = float64(n * wc)
		for i := range wd[:n*wc] {
			wd[i] = float32(1 / sw)
		}
	} else {
		for _, v := range weight {
			if !(v >= 0) || math.IsInf(float64(v), 0) {
				return 0, fmt.Errorf("nn: Step: weight %v (want finite, ≥ 0)", v)
			}
			sw += float64(v)
		}
		if !(sw > 0) {
			return 0, fmt.Errorf("nn: Step: the weights sum to %v", sw)
		}
		for i, v := range weight {
			wd[i] = float32(float64(v) / sw)
		}
	}
	clear(wd[n*wc:])
	for _, mt := range t.masks {
		t.drop.Fill(mt.Float32s())
	}
	t.n = 0
	if err := t.g.Run(); err != nil {
		return 0, err
	}
	t.n = n
	loss, err := t.cost.Scalar()
	if err != nil {
		return 0, err
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return 0, fmt.Errorf("nn: training diverged: loss %v", loss)
	}
	scale := float32(1)
	if t.cfg.ClipNorm > 0 {
		ss := 0.0
		for _, gn := range t.grads {
			for _, v := range gn.Value().Float32s() {
				ss += float64(v) * float64(v)
			}
		}
		if norm := math.Sqrt(ss); norm > t.cfg.ClipNorm {
			scale = float32(t.cfg.ClipNorm / (norm + 1e-6)) // torch.nn.utils.clip_grad_norm_
		}
	}
	for i, p := range t.m.params {
		gd := t.grads[i].Value().Float32s()
		if scale != 1 {
			for k := range gd {
				gd[k] *= scale
			}
		}
		a := &t.opt[i]
		a.LR, a.WeightDecay = t.cfg.LR, t.cfg.WeightDecay
		a.Step(p.Data, gd)
	}
	return loss, nil
}

// Output is the network's output for the rows of the last Step (n×Out,
// the network's final activation included), computed by that step's
// forward pass, before its update, with its dropout masks: for
// MLP.Predict's numbers before the update (without dropout) at no extra
// cost. It is a view, valid until the next Step; nil before the first.
func (t *Trainer) Output() []float32 {
	if t.g == nil || t.n == 0 {
		return nil
	}
	return t.out.Value().Float32s()[:t.n*t.m.cfg.Out]
}

// Close releases the graph and optimizer state (the MLP keeps its
// parameters).
func (t *Trainer) Close() {
	if t.g != nil {
		t.g.Close()
	}
	t.g, t.out, t.cost, t.grads, t.opt, t.masks, t.n = nil, nil, nil, nil, nil, nil, 0
	t.x, t.tgt, t.w = nil, nil, nil
}

// SetLR sets the Adam learning rate of the following steps (a schedule).
func (t *Trainer) SetLR(lr float64) { t.cfg.LR = lr }
