// Package mlp is a small fully connected ReLU network for regression on
// tabular inputs, trained with Adam on the mean squared error: the paper's
// SMO main predictor and baselines (3 hidden layers of 128, Adam, learning
// rate 1e-3), MC-Dropout and DEUP's optional MLP error predictor.
//
// It is pure Go on gonum's BLAS rather than gorgonia: these nets are tiny
// (at most a few hundred rows, 3x128 units) and are refitted at every step
// of every SMO run, so a gorgonia graph and VM per fit would cost more than
// the arithmetic, and gorgonia's initializers and dropout masks seed
// themselves from the clock (MC-Dropout needs seeded test-time masks), and
// its dropout backward pass mis-scales. Every random draw here
// comes from Config.Seed through math/rand/v2.
//
// Inputs and targets are standardized inside Train (per column mean and
// standard deviation of the training set; a constant column gets scale 1) and
// predictions are mapped back. Weights and biases start from
// U(-1/sqrt(fan_in), 1/sqrt(fan_in)) (PyTorch's nn.Linear default). Dropout
// with probability p is applied after every hidden ReLU during training and,
// in PredictSample, at test time, scaling kept units by 1/(1-p).
//
// A Net is safe for concurrent Predict calls; PredictSample needs its own
// rng per goroutine.
package mlp

import (
	"errors"
	"fmt"
	"github.com/deup-screening/deup/nn/optim"
	"math"
	"math/rand/v2"

	"github.com/deup-screening/deup/deup"
	"gonum.org/v1/gonum/mat"
)

// Config sets the architecture and training. Zero values: Hidden {128, 128,
// 128}, Epochs 500, LR 1e-3, Dropout 0, BatchSize 0 (full batch), Seed 0.
type Config struct {
	Hidden      []int
	Dropout     float64 // in [0, 1)
	Epochs      int     // full passes over the data
	LR          float64 // Adam step size (beta1 0.9, beta2 0.999, eps 1e-8)
	WeightDecay float64 // L2 added to the gradient, as torch.optim.Adam's weight_decay
	BatchSize   int     // 0 means full batch
	Seed        uint64
}

func (c Config) withDefaults() Config {
	if c.Hidden == nil {
		c.Hidden = []int{128, 128, 128}
	}
	if c.Epochs == 0 {
		c.Epochs = 500
	}
	if c.LR == 0 {
		c.LR = 1e-3
	}
	return c
}

// Net is a trained network.
type Net struct {
	w       []*mat.Dense // layer l: in x out
	b       [][]float64
	dropout float64
	xMean   []float64
	xScale  []float64
	yMean   float64
	yScale  float64
}

// Train fits a network on rows x and targets y. Non-finite inputs, ragged
// rows and an empty set are errors.
func Train(x [][]float64, y []float64, cfg Config) (*Net, error) {
	cfg = cfg.withDefaults()
	n := len(x)
	if n == 0 || n != len(y) {
		return nil, fmt.Errorf("mlp: train on %d inputs and %d targets", n, len(y))
	}
	if cfg.Dropout < 0 || cfg.Dropout >= 1 {
		return nil, fmt.Errorf("mlp: dropout %v not in [0, 1)", cfg.Dropout)
	}
	d := len(x[0])
	for i, r := range x {
		if len(r) != d {
			return nil, fmt.Errorf("mlp: row %d has %d columns, want %d", i, len(r), d)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("mlp: row %d column %d is %v", i, j, v)
			}
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("mlp: target %d is %v", i, y[i])
		}
	}
	for _, h := range cfg.Hidden {
		if h <= 0 {
			return nil, errors.New("mlp: hidden layer of size <= 0")
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6d6c70))
	net := &Net{dropout: cfg.Dropout}
	net.xMean, net.xScale = make([]float64, d), make([]float64, d)
	for j := 0; j < d; j++ {
		col := make([]float64, n)
		for i := range x {
			col[i] = x[i][j]
		}
		net.xMean[j], net.xScale[j] = meanScale(col)
	}
	net.yMean, net.yScale = meanScale(y)
	sizes := append(append([]int{d}, cfg.Hidden...), 1)
	for l := 0; l+1 < len(sizes); l++ {
		in, out := sizes[l], sizes[l+1]
		bound := 1 / math.Sqrt(float64(in))
		w := mat.NewDense(in, out, nil)
		raw := w.RawMatrix().Data
		for i := range raw {
			raw[i] = (2*rng.Float64() - 1) * bound
		}
		b := make([]float64, out)
		for i := range b {
			b[i] = (2*rng.Float64() - 1) * bound
		}
		net.w, net.b = append(net.w, w), append(net.b, b)
	}
	xs := mat.NewDense(n, d, nil)
	ys := make([]float64, n)
	for i := range x {
		for j := range x[i] {
			xs.Set(i, j, (x[i][j]-net.xMean[j])/net.xScale[j])
		}
		ys[i] = (y[i] - net.yMean) / net.yScale
	}
	net.train(xs, ys, cfg, rng)
	return net, nil
}

func meanScale(v []float64) (mean, scale float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	scale = math.Sqrt(ss / float64(len(v)))
	if scale == 0 || math.IsNaN(scale) {
		scale = 1
	}
	return mean, scale
}

// forward runs a batch; it returns per-layer activations (acts[0] = input)
// and pre-activations, applying dropout masks drawn from rng if rng != nil.
func (net *Net) forward(x *mat.Dense, rng *rand.Rand) (acts, pre []*mat.Dense, masks [][]float64) {
	acts = []*mat.Dense{x}
	L := len(net.w)
	for l := 0; l < L; l++ {
		r, _ := acts[l].Dims()
		_, out := net.w[l].Dims()
		z := mat.NewDense(r, out, nil)
		z.Mul(acts[l], net.w[l])
		zr := z.RawMatrix()
		for i := 0; i < r; i++ {
			row := zr.Data[i*zr.Stride : i*zr.Stride+out]
			for j := range row {
				row[j] += net.b[l][j]
			}
		}
		pre = append(pre, z)
		if l == L-1 {
			acts = append(acts, z)
			break
		}
		a := mat.NewDense(r, out, nil)
		ar := a.RawMatrix()
		var mask []float64
		if rng != nil && net.dropout > 0 {
			mask = make([]float64, r*out)
			keep := 1 / (1 - net.dropout)
			for i := range mask {
				if rng.Float64() >= net.dropout {
					mask[i] = keep
				}
			}
		}
		for i := 0; i < r; i++ {
			for j := 0; j < out; j++ {
				v := zr.Data[i*zr.Stride+j]
				if v < 0 {
					v = 0
				}
				if mask != nil {
					v *= mask[i*out+j]
				}
				ar.Data[i*ar.Stride+j] = v
			}
		}
		masks = append(masks, mask)
		acts = append(acts, a)
	}
	return acts, pre, masks
}

func (net *Net) train(x *mat.Dense, y []float64, cfg Config, rng *rand.Rand) {
	n, d := x.Dims()
	L := len(net.w)
	optW, optB := make([]optim.Adam[float64], L), make([]optim.Adam[float64], L)
	for l := range optW {
		optW[l] = optim.Adam[float64]{LR: cfg.LR, WeightDecay: cfg.WeightDecay}
		optB[l] = optim.Adam[float64]{LR: cfg.LR, WeightDecay: cfg.WeightDecay}
	}
	bs := cfg.BatchSize
	if bs <= 0 || bs > n {
		bs = n
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	var drop *rand.Rand
	if net.dropout > 0 {
		drop = rng
	}
	for ep := 0; ep < cfg.Epochs; ep++ {
		if bs < n {
			rng.Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		}
		for start := 0; start < n; start += bs {
			end := min(start+bs, n)
			m := end - start
			xb := mat.NewDense(m, d, nil)
			yb := make([]float64, m)
			for i := 0; i < m; i++ {
				xb.SetRow(i, x.RawRowView(idx[start+i]))
				yb[i] = y[idx[start+i]]
			}
			acts, pre, masks := net.forward(xb, drop)
			// d loss / d out for loss = mean (out - y)^2.
			delta := mat.NewDense(m, 1, nil)
			for i := 0; i < m; i++ {
				delta.Set(i, 0, 2*(acts[L].At(i, 0)-yb[i])/float64(m))
			}
			for l := L - 1; l >= 0; l-- {
				in, out := net.w[l].Dims()
				gw := mat.NewDense(in, out, nil)
				gw.Mul(acts[l].T(), delta)
				gb := make([]float64, out)
				dr := delta.RawMatrix()
				for i := 0; i < m; i++ {
					for j := 0; j < out; j++ {
						gb[j] += dr.Data[i*dr.Stride+j]
					}
				}
				if l > 0 {
					prev := mat.NewDense(m, in, nil)
					prev.Mul(delta, net.w[l].T())
					pr := prev.RawMatrix()
					zr := pre[l-1].RawMatrix()
					mask := masks[l-1]
					for i := 0; i < m; i++ {
						for j := 0; j < in; j++ {
							k := i*pr.Stride + j
							if zr.Data[i*zr.Stride+j] <= 0 {
								pr.Data[k] = 0
							} else if mask != nil {
								pr.Data[k] *= mask[i*in+j]
							}
						}
					}
					delta = prev
				}
				optW[l].Step(net.w[l].RawMatrix().Data, gw.RawMatrix().Data)
				optB[l].Step(net.b[l], gb)
			}
		}
	}
}

func (net *Net) predict(x []float64, rng *rand.Rand) float64 {
	if len(x) != len(net.xMean) {
		panic("mlp: input dimension mismatch")
	}
	xs := mat.NewDense(1, len(x), nil)
	for j, v := range x {
		xs.Set(0, j, (v-net.xMean[j])/net.xScale[j])
	}
	acts, _, _ := net.forward(xs, rng)
	return acts[len(acts)-1].At(0, 0)*net.yScale + net.yMean
}

// Predict returns the network's output at x with dropout off. It panics if
// len(x) differs from the training inputs' width.
func (net *Net) Predict(x []float64) float64 { return net.predict(x, nil) }

// PredictSample returns one stochastic forward pass with dropout masks drawn
// from rng (MC-Dropout); without dropout it equals Predict.
func (net *Net) PredictSample(x []float64, rng *rand.Rand) float64 { return net.predict(x, rng) }

// Learner adapts Train to deup.Learner.
type Learner struct{ Config Config }

// Fit implements deup.Learner.
func (l Learner) Fit(x [][]float64, y []float64) (deup.Predictor, error) {
	return Train(x, y, l.Config)
}

// PredictSamples writes n stochastic forward passes at x (MC-Dropout) into
// dst (grown as needed) and returns it; the passes run as one batch, each
// row with its own dropout masks drawn from rng.
func (net *Net) PredictSamples(dst []float64, x []float64, n int, rng *rand.Rand) []float64 {
	if len(x) != len(net.xMean) {
		panic("mlp: input dimension mismatch")
	}
	xs := mat.NewDense(n, len(x), nil)
	for i := 0; i < n; i++ {
		for j, v := range x {
			xs.Set(i, j, (v-net.xMean[j])/net.xScale[j])
		}
	}
	acts, _, _ := net.forward(xs, rng)
	out := acts[len(acts)-1]
	dst = dst[:0]
	for i := 0; i < n; i++ {
		dst = append(dst, out.At(i, 0)*net.yScale+net.yMean)
	}
	return dst
}
