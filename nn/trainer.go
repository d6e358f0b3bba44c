package nn

import (
	"fmt"
	"math"

	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/nn/optim"
	"gonum.org/v1/gonum/blas"
)

// TrainConfig configures a Trainer.
type TrainConfig struct {
	Loss        Loss
	Batch       int     // largest n passed to Step (buffers are sized once for this size; smaller n is padded with zero weight)
	LR          float64 // Adam learning rate
	WeightDecay float64 // PyTorch's coupled L2 (added to the gradient)
	ClipNorm    float64 // clip the global gradient norm to this value before the step; 0 = no clipping
	Seed        uint64  // dropout masks during training
}

// Trainer is the training step of an MLP: forward pass, backward pass,
// gradient clipping and Adam, on buffers sized once for TrainConfig.Batch
// rows and reused by every step (a step allocates nothing). It reads and
// updates m's parameter slices in place.
//
// The forward and backward passes are written out by hand rather than run
// as a gorgonia graph: the same kit GEMM (internal/kernels' Sgemm, with
// the arguments the graph's Dense op and its two gradient products pass),
// and the graph ops' elementwise arithmetic (bias, ReLU as x·[x ≥ 0],
// dropout masks, softplus, the loss and its gradient by lossGrad, column
// sums in row order), fused into one pass per layer where the graph makes
// one per op. The numbers are therefore the graph's, bit for bit
// (trainer_test.go trains the two side by side); for a 6→50→50→3 network
// at batch 64 the graph spent about a third of a step outside the GEMMs.
type Trainer struct {
	m      *MLP
	cfg    TrainConfig
	widths []int // In, Hidden..., Out

	x, tgt, w []float32   // Batch×In, Batch×targetCols, Batch×weightCols (weights normalized to sum 1)
	z         [][]float32 // per layer: the pre-activation x·W + b (Batch×width)
	act       [][]float32 // per layer: the activation (hidden: ReLU then dropout; last: the output)
	masks     [][]float32 // per hidden layer, with dropout: Batch×width
	drop      *Dropout
	dout      []float32   // Batch×Out: the loss gradient with respect to the output
	g1, g2    []float32   // Batch×widest: gradients with respect to pre-activations and activations
	grads     [][]float32 // aligned with m.params
	opt       []optim.Adam[float32]
	n         int // rows of the last Step (0: none, or it failed)
	closed    bool
}

// NewTrainer returns the training step of m for cfg.
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
	t := &Trainer{m: m, cfg: cfg, widths: m.widths, opt: make([]optim.Adam[float32], len(m.params))}
	t.x = make([]float32, b*c.In)
	t.tgt = make([]float32, b*cfg.Loss.targetCols(c.Out))
	t.w = make([]float32, b*cfg.Loss.weightCols(c.Out))
	if c.Dropout > 0 {
		t.drop = NewDropout(c.Dropout, cfg.Seed)
	}
	widest := 0
	for l, width := range t.widths[1:] {
		widest = max(widest, width)
		t.z = append(t.z, make([]float32, b*width))
		if l < len(c.Hidden) {
			t.act = append(t.act, make([]float32, b*width))
			if t.drop != nil {
				t.masks = append(t.masks, make([]float32, b*width))
			}
		}
	}
	out := t.z[len(t.z)-1] // a linear output is the pre-activation itself
	if c.OutAct == Softplus {
		out = make([]float32, b*c.Out)
	}
	t.act = append(t.act, out)
	t.dout = make([]float32, b*c.Out)
	t.g1, t.g2 = make([]float32, b*widest), make([]float32, b*widest)
	for _, p := range m.params {
		t.grads = append(t.grads, make([]float32, len(p.Data)))
	}
	return t, nil
}

// Step runs one forward/backward/Adam step on n ≤ Batch rows; x is n×In,
// target and weight as in Loss (weight nil = all ones). It returns the
// loss before the update: the weighted mean, Σ w·loss / Σ w.
func (t *Trainer) Step(x, target, weight []float32, n int) (float64, error) {
	if t.closed {
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
	xd, td, wd := t.x, t.tgt, t.w
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
		t.drop.Fill(mt)
	}
	t.n = 0
	t.forward()
	out := t.act[len(t.act)-1]
	// The loss (as the graph's loss op: its float64 sum rounded to
	// float32) and its gradient (the graph's seed gradient is 1).
	loss := float64(float32(lossGrad(t.cfg.Loss, out, td, wd, b, c.Out, 1, t.dout)))
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return 0, fmt.Errorf("nn: training diverged: loss %v", loss)
	}
	t.n = n
	t.backward()
	scale := float32(1)
	if t.cfg.ClipNorm > 0 {
		ss := 0.0
		for _, g := range t.grads {
			for _, v := range g {
				ss += float64(v) * float64(v)
			}
		}
		if norm := math.Sqrt(ss); norm > t.cfg.ClipNorm {
			scale = float32(t.cfg.ClipNorm / (norm + 1e-6)) // torch.nn.utils.clip_grad_norm_
		}
	}
	for i, p := range t.m.params {
		gd := t.grads[i]
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

// forward computes every layer's pre-activation and activation for the
// Batch rows of t.x.
func (t *Trainer) forward() {
	b, w, ps := t.cfg.Batch, t.widths, t.m.params
	in := t.x
	last := len(w) - 2
	for l := 0; l <= last; l++ {
		k, o := w[l], w[l+1]
		z := t.z[l]
		kernels.Impl().Sgemm(blas.NoTrans, blas.NoTrans, b, o, k, 1, in, k, ps[2*l].Data, o, 0, z, o)
		bias := ps[2*l+1].Data[:o]
		if l == last {
			for i := 0; i < len(z); i += o {
				zr := z[i : i+o : i+o]
				for j, v := range bias {
					zr[j] += v
				}
			}
			if t.m.cfg.OutAct == Softplus {
				out := t.act[l]
				for i, v := range z {
					out[i] = Softplus32(v)
				}
			}
			break
		}
		a := t.act[l]
		var m []float32
		if t.masks != nil {
			m = t.masks[l]
		}
		for i := 0; i < len(z); i += o {
			zr, ar := z[i:i+o:i+o], a[i:i+o:i+o]
			for j, v := range bias {
				s := zr[j] + v
				zr[j] = s
				ar[j] = s * mask(s) // the graph's ReLU: −0 for negative s
			}
			if m != nil {
				for j, v := range m[i : i+o : i+o] {
					ar[j] *= v
				}
			}
		}
		in = a
	}
}

// backward computes the parameter gradients from t.dout, layer by layer
// from the output: the bias gradient is the column sum of the
// pre-activation gradient G, the weight gradient inᵀ·G, and the gradient
// passed down G·Wᵀ, through the dropout mask and the ReLU.
func (t *Trainer) backward() {
	b, w, ps := t.cfg.Batch, t.widths, t.m.params
	last := len(w) - 2
	g := t.dout
	if t.m.cfg.OutAct == Softplus {
		g = t.g1[:b*w[last+1]]
		for i, v := range t.z[last] {
			g[i] = sigmoid32(v) * t.dout[i]
		}
	}
	for l := last; l >= 0; l-- {
		k, o := w[l], w[l+1]
		in := t.x
		if l > 0 {
			in = t.act[l-1]
		}
		colSum(g, t.grads[2*l+1], o)
		kernels.Impl().Sgemm(blas.Trans, blas.NoTrans, k, o, b, 1, in, k, g, o, 0, t.grads[2*l], o)
		if l == 0 {
			break
		}
		// The gradient with respect to layer l−1's activation, then its
		// pre-activation, in whichever scratch buffer g is not.
		down := t.g2[:b*k]
		if len(g) > 0 && len(t.g2) > 0 && &g[0] == &t.g2[0] {
			down = t.g1[:b*k]
		}
		kernels.Impl().Sgemm(blas.NoTrans, blas.Trans, b, k, o, 1, g, o, ps[2*l].Data, o, 0, down, k)
		z := t.z[l-1]
		if t.masks != nil {
			for i, v := range t.masks[l-1] {
				down[i] *= v
			}
		}
		for i, v := range z {
			down[i] *= mask(v)
		}
		g = down
	}
}

// Output is the network's output for the rows of the last Step (n×Out,
// the network's final activation included), computed by that step's
// forward pass, before its update, with its dropout masks: for
// MLP.Predict's numbers before the update (without dropout) at no extra
// cost. It is a view, valid until the next Step; nil before the first.
func (t *Trainer) Output() []float32 {
	if t.closed || t.n == 0 {
		return nil
	}
	return t.act[len(t.act)-1][:t.n*t.m.cfg.Out]
}

// Close releases the trainer's buffers and optimizer state (the MLP keeps
// its parameters); Step then fails.
func (t *Trainer) Close() {
	t.closed = true
	t.x, t.tgt, t.w, t.z, t.act, t.masks, t.dout, t.g1, t.g2, t.grads, t.opt = nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil
	t.n = 0
}
