// Package mlp is a small fully connected ReLU network for regression on
// tabular inputs, trained with Adam on the mean squared error: the paper's
// SMO main predictor and baselines (3 hidden layers of 128, Adam, learning
// rate 1e-3), MC-Dropout and DEUP's optional MLP error predictor.
//
// It is the network kit's MLP (package nn: float32 parameters, one
// compiled training graph per Train, reused by every step; prediction by a
// hand-written forward pass, no graph) with the data handling of a
// regression: inputs and targets are standardized inside Train (per
// column mean and standard deviation of the training set; a constant
// column gets scale 1) and predictions are mapped back. Weights and biases
// start from U(-1/sqrt(fan_in), 1/sqrt(fan_in)) (PyTorch's nn.Linear
// default, nn.InitLinear). Dropout with probability p is applied after
// every hidden ReLU during training and, in PredictSample, at test time,
// scaling kept units by 1/(1-p). Every random draw comes from Config.Seed
// (initialization, shuffles, training masks) or from the caller's rng
// (test-time masks) through math/rand/v2.
//
// A Net is safe for concurrent Predict calls; PredictSample needs its own
// rng per goroutine.
package mlp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/nn"

	"github.com/deup-screening/deup/internal/streams"

	"github.com/deup-screening/deup/uq"
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
	net    *nn.MLP
	xMean  []float64
	xScale []float64
	yMean  float64
	yScale float64
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
	if d == 0 {
		return nil, errors.New("mlp: inputs with no columns")
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: d, Hidden: cfg.Hidden, Out: 1, Dropout: cfg.Dropout, Seed: cfg.Seed})
	if err != nil {
		return nil, fmt.Errorf("mlp: %w", err)
	}
	net := &Net{net: m}
	net.xMean, net.xScale = make([]float64, d), make([]float64, d)
	for j := 0; j < d; j++ {
		col := make([]float64, n)
		for i := range x {
			col[i] = x[i][j]
		}
		net.xMean[j], net.xScale[j] = meanScale(col)
	}
	net.yMean, net.yScale = meanScale(y)
	xs := make([]float32, n*d)
	ys := make([]float32, n)
	for i := range x {
		net.standardize(xs[i*d:(i+1)*d], x[i])
		ys[i] = float32((y[i] - net.yMean) / net.yScale)
	}
	if err := net.train(xs, ys, n, cfg); err != nil {
		return nil, err
	}
	return net, nil
}

func meanScale(v []float64) (mean, scale float64) {
	mean, scale = uq.PopMeanSD(v)
	if scale == 0 || math.IsNaN(scale) {
		scale = 1
	}
	return mean, scale
}

// standardize writes the standardized row x into dst.
func (net *Net) standardize(dst []float32, x []float64) {
	for j, v := range x {
		dst[j] = float32((v - net.xMean[j]) / net.xScale[j])
	}
}

// train runs cfg.Epochs passes of minibatch Adam on the mean squared error
// (batches in an order shuffled each epoch from cfg.Seed; full batch when
// BatchSize is 0 or at least n).
func (net *Net) train(x, y []float32, n int, cfg Config) error {
	d := len(net.xMean)
	bs := cfg.BatchSize
	if bs <= 0 || bs > n {
		bs = n
	}
	tr, err := nn.NewTrainer(net.net, nn.TrainConfig{Loss: nn.MSE, Batch: bs, LR: cfg.LR, WeightDecay: cfg.WeightDecay, Seed: cfg.Seed ^ 0x6d6c7064726f70}) // "mlpdrop"
	if err != nil {
		return fmt.Errorf("mlp: %w", err)
	}
	defer tr.Close()
	rng := rand.New(rand.NewPCG(cfg.Seed, streams.MLP))
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	xb, yb := make([]float32, bs*d), make([]float32, bs)
	for ep := 0; ep < cfg.Epochs; ep++ {
		if bs < n {
			rng.Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		}
		for start := 0; start < n; start += bs {
			m := min(start+bs, n) - start
			if bs == n {
				if _, err := tr.Step(x, y, nil, n); err != nil {
					return fmt.Errorf("mlp: %w", err)
				}
				continue
			}
			for i := 0; i < m; i++ {
				k := idx[start+i]
				copy(xb[i*d:(i+1)*d], x[k*d:(k+1)*d])
				yb[i] = y[k]
			}
			if _, err := tr.Step(xb[:m*d], yb[:m], nil, m); err != nil {
				return fmt.Errorf("mlp: %w", err)
			}
		}
	}
	return nil
}

func (net *Net) predict(x []float64, rng *rand.Rand) float64 {
	if len(x) != len(net.xMean) {
		panic("mlp: input dimension mismatch")
	}
	xs := make([]float32, len(x))
	net.standardize(xs, x)
	var out [1]float32
	if rng != nil {
		net.net.PredictDropout(xs, 1, rng, out[:])
	} else {
		net.net.Predict(xs, 1, out[:])
	}
	return float64(out[0])*net.yScale + net.yMean
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
	d := len(x)
	xs := make([]float32, n*d)
	for i := 0; i < n; i++ {
		net.standardize(xs[i*d:(i+1)*d], x)
	}
	out := net.net.PredictDropout(xs, n, rng, nil)
	dst = dst[:0]
	for _, v := range out {
		dst = append(dst, float64(v)*net.yScale+net.yMean)
	}
	return dst
}
