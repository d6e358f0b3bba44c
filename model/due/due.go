package due

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/deup-screening/deup/gp"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/nn"
	"github.com/deup-screening/deup/nn/optim"
	"gonum.org/v1/gonum/mat"

	"github.com/deup-screening/deup/internal/streams"

	"github.com/deup-screening/deup/uq"
)

// Config holds DUE's settings. The zero value of every field means the
// default shown: the shared two-tower sizes and the DEUP paper's best DUE
// setting (10-dimensional embedding, 100 inducing points, Matern-1/2,
// learning rate 1e-2, here for the GP; the network's is NetLR).
type Config struct {
	TowerHidden int // single-drug tower hidden width; default 2048
	TowerOut    int // single-drug tower output width; default 1024
	CombHidden  int // combined network width; default 128
	Embedding   int // dimension of the GP's input features; default 10
	Inducing    int // inducing points (at most the number of training pairs); default 100

	Kernel string // "rbf", "matern12", "matern32", "matern52"; default "matern12"

	Coeff      float64 // spectral-normalization bound on each layer's largest singular value; default 0.95 (DUE's FCResNet); negative disables it
	PowerIters int     // power iterations per training step; default 1

	LR          float64 // Adam learning rate of the GP (hyperparameters, variational parameters, inducing points); default 1e-2 (the paper's best DUE setting)
	NetLR       float64 // Adam learning rate of the feature extractor; default 1e-4, the shared two-tower network's (see doc.go: at 1e-2 or 1e-3 the full-size network stops learning)
	WeightDecay float64 // L2 weight decay on the feature extractor (PyTorch Adam's weight_decay); default 5e-4 (DUE); negative means 0
	BatchSize   int     // pairs per minibatch; default 128 (DUE)
	MaxEpochs   int     // default 300
	Patience    int     // epochs without validation-RMSE improvement before stopping; default 25

	Seed uint64 // seeds weights, power-iteration vectors, k-means, shuffling

	// Lines is the number of cell lines of a panel: with more than one,
	// the extractor adds the cell-line input that the other methods'
	// networks add (model.LineInput: a learned embedding per line, zero
	// at the start, not normalized) to the pair's summed embedding. Set
	// by Method.Fit; 0 or 1: none.
	Lines int `json:",omitempty"`

	// lineX holds numeric features of each line (Lines×k, standardized;
	// model.Dataset.LineFeatures, set by Method.Fit and by Load): the
	// line input adds their learned map X_l·W_f. nil without
	// --cell-features. (A pointer, so that Config stays comparable, as
	// model.Config's.)
	lineX *[][]float64
}

// lineInput is the network's cell-line input (none for at most one line).
func (c Config) lineInput() model.LineInput {
	var x [][]float64
	if c.lineX != nil {
		x = *c.lineX
	}
	return model.LineInput{Lines: c.Lines, Width: c.TowerOut, X: x}
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	c.TowerHidden, c.TowerOut, c.CombHidden = model.DefaultSizes(c.TowerHidden, c.TowerOut, c.CombHidden)
	def(&c.Embedding, 10)
	def(&c.Inducing, 100)
	def(&c.PowerIters, 1)
	def(&c.BatchSize, 128)
	def(&c.MaxEpochs, 300)
	def(&c.Patience, 25)
	if c.Kernel == "" {
		c.Kernel = "matern12"
	}
	if c.Coeff == 0 {
		c.Coeff = 0.95
	}
	if c.LR == 0 {
		c.LR = 1e-2
	}
	if c.NetLR == 0 {
		c.NetLR = 1e-4
	}
	if c.WeightDecay == 0 {
		c.WeightDecay = 5e-4
	}
	if c.WeightDecay < 0 {
		c.WeightDecay = 0
	}
	return c
}

func (c Config) validate() error {
	for _, v := range []struct {
		name string
		n    int
	}{{"TowerHidden", c.TowerHidden}, {"TowerOut", c.TowerOut}, {"CombHidden", c.CombHidden}, {"Embedding", c.Embedding},
		{"Inducing", c.Inducing}, {"PowerIters", c.PowerIters}, {"BatchSize", c.BatchSize}, {"MaxEpochs", c.MaxEpochs}, {"Patience", c.Patience}} {
		if v.n <= 0 {
			return fmt.Errorf("due: config: %s = %d, want > 0", v.name, v.n)
		}
	}
	if !(c.LR > 0) || !(c.NetLR > 0) {
		return fmt.Errorf("due: config: LR = %v, NetLR = %v, want > 0", c.LR, c.NetLR)
	}
	if _, err := gp.ParseFamily(c.Kernel); err != nil {
		return fmt.Errorf("due: config: %w", err)
	}
	if err := c.lineInput().Validate(); err != nil {
		return fmt.Errorf("due: config: %w", err)
	}
	return nil
}

// Pairs lists drug pairs as row indices into a feature matrix (nn.CSR), with
// their targets (Y may be nil for prediction).
type Pairs struct {
	A, B []int
	L    []int // cell line of each pair (nil: line 0)
	Y    []float64
}

// Len is the number of pairs.
func (p Pairs) Len() int { return len(p.A) }

func (p Pairs) validate(X *nn.CSR, name string, needY bool, lines int) error {
	if p.L != nil && len(p.L) != len(p.A) {
		return fmt.Errorf("due: %s: %d cell lines for %d pairs", name, len(p.L), len(p.A))
	}
	if len(p.B) != len(p.A) || (needY && len(p.Y) != len(p.A)) {
		return fmt.Errorf("due: %s: %d first drugs, %d second drugs, %d targets", name, len(p.A), len(p.B), len(p.Y))
	}
	n := X.NumRows()
	for i := range p.A {
		if p.A[i] < 0 || p.A[i] >= n || p.B[i] < 0 || p.B[i] >= n {
			return fmt.Errorf("due: %s: pair %d references drugs (%d, %d) of %d", name, i, p.A[i], p.B[i], n)
		}
		if p.L != nil && (p.L[i] < 0 || p.L[i] >= max(lines, 1)) {
			return fmt.Errorf("due: %s: pair %d on cell line %d of %d", name, i, p.L[i], max(lines, 1))
		}
		if needY && (math.IsNaN(p.Y[i]) || math.IsInf(p.Y[i], 0)) {
			return fmt.Errorf("due: %s: pair %d: target %v", name, i, p.Y[i])
		}
	}
	return nil
}

func (p Pairs) subset(idx []int) Pairs {
	q := Pairs{A: make([]int, len(idx)), B: make([]int, len(idx))}
	if p.Y != nil {
		q.Y = make([]float64, len(idx))
	}
	if p.L != nil {
		q.L = make([]int, len(idx))
	}
	for k, i := range idx {
		q.A[k], q.B[k] = p.A[i], p.B[i]
		if p.L != nil {
			q.L[k] = p.L[i]
		}
		if p.Y != nil {
			q.Y[k] = p.Y[i]
		}
	}
	return q
}

// Progress is reported after every epoch (and once with Done set).
type Progress struct {
	Epoch, MaxEpochs int
	TrainLoss        float64 // mean over the epoch's batches of -ELBO/n (standardized targets)
	ValRMSE          float64 // RMSE of the predictive mean on the validation pairs, original units; NaN without them
	BestEpoch        int
	Elapsed          time.Duration
	Done             bool
}

// Net is a trained DUE: a spectrally normalized two-tower feature
// extractor feeding a sparse variational GP. Predict is safe for
// concurrent use; the model is read-only after Train.
type Net struct {
	Config    Config
	Dim       int     // input feature dimension
	YMean     float64 // target standardization of the training pairs
	YScale    float64
	net       *network
	gp        *gp.SVGP
	epochs    int
	bestEpoch int
}

// Train fits DUE on the train pairs, with early stopping on the RMSE of the
// predictive mean on val (if val is empty it trains MaxEpochs epochs). The
// feature extractor and the GP are trained jointly by Adam on the minibatch
// ELBO divided by the number of training pairs (GPyTorch's
// VariationalELBO). progress may be nil. Cancelling ctx stops training with
// ctx.Err().
func Train(ctx context.Context, cfg Config, X *nn.CSR, train, val Pairs, progress func(Progress)) (*Net, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := X.Validate(); err != nil {
		return nil, fmt.Errorf("due: features: %w", err)
	}
	if err := train.validate(X, "train", true, cfg.Lines); err != nil {
		return nil, err
	}
	if err := val.validate(X, "val", true, cfg.Lines); err != nil {
		return nil, err
	}
	n := train.Len()
	if n < 2 {
		return nil, fmt.Errorf("due: train: %d pairs, want at least 2", n)
	}
	fam, _ := gp.ParseFamily(cfg.Kernel)
	start := time.Now()
	m := &Net{Config: cfg, Dim: X.Dim}
	m.YMean, m.YScale = uq.MeanScale(train.Y)
	ys := make([]float64, n)
	for i, y := range train.Y {
		ys[i] = (y - m.YMean) / m.YScale
	}
	m.net = newNetwork(cfg, X.Dim, cfg.Seed)
	rng := rand.New(rand.NewPCG(cfg.Seed, streams.DUETrain))

	// GP initialization as DUE's initial_values: features of up to 1000
	// random training pairs (after one training-mode power iteration);
	// inducing points by k-means on them; the lengthscale is their mean
	// pairwise distance.
	perm := rng.Perm(n)
	ns := min(n, 1000)
	sample := train.subset(perm[:ns])
	for _, l := range m.net.l {
		l.sn.PowerIterate(l.w, cfg.PowerIters)
	}
	F := m.features(X, sample)
	M := min(cfg.Inducing, ns)
	Z, err := gp.KMeans(F, M, cfg.Seed, 0)
	if err != nil {
		return nil, fmt.Errorf("due: inducing points: %w", err)
	}
	ls := meanPairwiseDistance(F)
	if !(ls > 0) {
		ls = 1
	}
	// GPyTorch's defaults: outputscale and noise softplus(0) = log 2.
	m.gp = gp.NewSVGP(gp.NewKernel(fam, math.Ln2, ls), math.Log(math.Ln2), Z)

	// One compiled graph serves every batch: at most BatchSize pairs over
	// at most 2·BatchSize (and at most the screen's) drugs.
	loss := &elboLoss{gp: m.gp, n: n, grad: make([]float64, m.gp.NumParams())}
	u := min(2*cfg.BatchSize, distinctDrugs(train))
	sg, err := m.net.buildGraph(nn.Float32, u, cfg.BatchSize, loss.eval)
	if err != nil {
		return nil, err
	}
	defer sg.close()
	m.net.setTrain(true)
	defer m.net.endTraining()
	gw, gb := make([][]float32, numLayers), make([][]float32, numLayers)

	gpParams := m.gp.Params(nil)
	gpOpt := optim.NewAdam[float64](cfg.LR, 0)
	best := math.Inf(1)
	var bestNet [][]float32
	var bestGP []float64
	bestEpoch := 0
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for epoch := 1; epoch <= cfg.MaxEpochs; epoch++ {
		rng.Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		var lossSum float64
		var batches int
		for lo := 0; lo < n; lo += cfg.BatchSize {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			bi := idx[lo:min(lo+cfg.BatchSize, n)]
			drugs, pa, pb := uniqueDrugs(train, bi)
			var bl []int
			if train.L != nil {
				for _, i := range bi {
					bl = append(bl, train.L[i])
				}
			}
			sg.fill(X, drugs, pa, pb, bl)
			loss.y = loss.y[:0]
			for _, i := range bi {
				loss.y = append(loss.y, ys[i])
			}
			if err := sg.g.Run(); err != nil {
				if loss.err != nil {
					err = loss.err
				}
				return nil, fmt.Errorf("due: epoch %d: %w", epoch, err)
			}
			for i := range m.net.l {
				gw[i] = sg.grads[2*i].Value().Data().([]float32)
				gb[i] = sg.grads[2*i+1].Value().Data().([]float32)
			}
			var gl [2][]float32 // the line input's E and W_f
			for i := range m.net.li.Params() {
				gl[i] = sg.grads[2*numLayers+i].Value().Data().([]float32)
			}
			m.net.step(gw, gb, gl[0], gl[1], cfg.NetLR, cfg.WeightDecay)
			gpOpt.Step(gpParams, loss.grad)
			m.gp.SetParams(gpParams)
			lossSum += loss.value
			batches++
		}
		rmse := math.NaN()
		if val.Len() > 0 {
			m.net.refresh()
			mean, _, err := m.predict(X, val)
			if err != nil {
				return nil, fmt.Errorf("due: epoch %d: validation: %w", epoch, err)
			}
			var se float64
			for i, mu := range mean {
				se += (mu - val.Y[i]) * (mu - val.Y[i])
			}
			rmse = math.Sqrt(se / float64(len(mean)))
			if rmse < best {
				best, bestEpoch = rmse, epoch
				bestNet = m.net.snapshot(bestNet)
				bestGP = m.gp.Params(bestGP[:0])
			}
		}
		m.epochs = epoch
		stop := val.Len() > 0 && epoch-bestEpoch >= cfg.Patience
		if progress != nil {
			progress(Progress{Epoch: epoch, MaxEpochs: cfg.MaxEpochs, TrainLoss: lossSum / float64(batches),
				ValRMSE: rmse, BestEpoch: bestEpoch, Elapsed: time.Since(start)})
		}
		if stop {
			break
		}
	}
	if bestNet != nil {
		m.net.restore(bestNet)
		m.gp.SetParams(bestGP)
	}
	m.net.refresh()
	m.bestEpoch = bestEpoch
	if progress != nil {
		progress(Progress{Epoch: m.epochs, MaxEpochs: cfg.MaxEpochs, ValRMSE: best, BestEpoch: bestEpoch, Elapsed: time.Since(start), Done: true})
	}
	return m, nil
}

// elboLoss is the graph's external loss: -ELBO/n of the SVGP on the
// batch's features (the first len(y) rows; the rest are padding, with
// zero gradient), its gradient with respect to the features for the
// graph, and the gradient with respect to the GP's parameters (grad, for
// the GP's own Adam step after the run).
type elboLoss struct {
	gp    *gp.SVGP
	n     int       // training pairs
	y     []float64 // the batch's standardized targets
	grad  []float64 // d(-ELBO/n)/d(GP parameters) of the last run
	value float64   // -ELBO/n of the last run
	err   error     // the last run's error (gorgonia's wrapping hides it)
}

func (l *elboLoss) eval(x []float64, rows, cols int, dx []float64) (float64, error) {
	b := len(l.y)
	F := mat.NewDense(b, cols, x[:b*cols])
	dF := mat.NewDense(b, cols, dx[:b*cols])
	elbo, err := l.gp.ELBO(F, l.y, l.n, l.grad, dF)
	if err == nil && (math.IsNaN(elbo) || math.IsInf(elbo, 0)) {
		err = fmt.Errorf("training diverged (ELBO %v)", elbo)
	}
	l.err = err
	if err != nil {
		return 0, err
	}
	// Minimize -ELBO/n.
	inv := -1 / float64(l.n)
	for i := range l.grad {
		l.grad[i] *= inv
	}
	for i := range dx[:b*cols] {
		dx[i] *= inv
	}
	l.value = elbo * inv
	return l.value, nil
}

// distinctDrugs is the number of distinct drugs of the pairs.
func distinctDrugs(p Pairs) int {
	seen := map[int]bool{}
	for i := range p.A {
		seen[p.A[i]], seen[p.B[i]] = true, true
	}
	return len(seen)
}

// features returns the Embedding-dimensional features of the pairs with
// the current normalization scales.
func (m *Net) features(X *nn.CSR, p Pairs) *mat.Dense {
	all := make([]int, p.Len())
	for i := range all {
		all[i] = i
	}
	drugs, pa, pb := uniqueDrugs(p, all)
	f := make([]float64, p.Len()*m.Config.Embedding)
	m.net.forward(X, drugs, pa, pb, p.L, &infer{}, f)
	return mat.NewDense(p.Len(), m.Config.Embedding, f)
}

// predict returns the predictive mean and latent variance in original
// units, in chunks of 4096 pairs.
func (m *Net) predict(X *nn.CSR, p Pairs) (mean, variance []float64, err error) {
	n := p.Len()
	mean, variance = make([]float64, n), make([]float64, n)
	const chunk = 4096
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		idx := make([]int, hi-lo)
		for i := range idx {
			idx[i] = lo + i
		}
		F := m.features(X, p.subset(idx))
		if err := m.gp.Predict(F, mean[lo:hi], variance[lo:hi]); err != nil {
			return nil, nil, err
		}
	}
	s2 := m.YScale * m.YScale
	for i := range mean {
		mean[i] = mean[i]*m.YScale + m.YMean
		variance[i] *= s2
	}
	return mean, variance, nil
}

// Predict returns, for each pair, the predictive mean, the GP's latent
// (epistemic) variance and, once, the likelihood's noise variance (the
// homoscedastic aleatoric part), all in the units of the training targets.
// DUE's predictive variance is variance[i] + noise.
func (m *Net) Predict(X *nn.CSR, p Pairs) (mean, variance []float64, noise float64, err error) {
	if err := X.Validate(); err != nil {
		return nil, nil, 0, fmt.Errorf("due: features: %w", err)
	}
	if X.Dim != m.Dim {
		return nil, nil, 0, fmt.Errorf("due: predict: features of dimension %d, model trained on %d", X.Dim, m.Dim)
	}
	if err := p.validate(X, "predict", false, m.Config.Lines); err != nil {
		return nil, nil, 0, err
	}
	if p.Len() == 0 {
		return nil, nil, m.Noise(), nil
	}
	mean, variance, err = m.predict(X, p)
	return mean, variance, m.Noise(), err
}

// Noise is the likelihood's noise variance in target units.
func (m *Net) Noise() float64 { return m.gp.Noise() * m.YScale * m.YScale }

// Epochs is the number of epochs trained; BestEpoch the one restored
// (0 when there was no validation set and the last was kept).
func (m *Net) Epochs() int    { return m.epochs }
func (m *Net) BestEpoch() int { return m.bestEpoch }

// SVGP returns the trained GP (read-only use).
func (m *Net) SVGP() *gp.SVGP { return m.gp }

// uniqueDrugs maps the pairs idx of p to unique feature rows.
func uniqueDrugs(p Pairs, idx []int) (drugs, pa, pb []int) {
	pos := make(map[int]int, 2*len(idx))
	at := func(r int) int {
		if q, ok := pos[r]; ok {
			return q
		}
		pos[r] = len(drugs)
		drugs = append(drugs, r)
		return pos[r]
	}
	pa, pb = make([]int, len(idx)), make([]int, len(idx))
	for k, i := range idx {
		pa[k] = at(p.A[i])
		pb[k] = at(p.B[i])
	}
	return drugs, pa, pb
}

func meanPairwiseDistance(F *mat.Dense) float64 {
	n, _ := F.Dims()
	var s float64
	var c int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			var d float64
			a, b := F.RawRowView(i), F.RawRowView(j)
			for k := range a {
				d += (a[k] - b[k]) * (a[k] - b[k])
			}
			s += math.Sqrt(d)
			c++
		}
	}
	if c == 0 {
		return 0
	}
	return s / float64(c)
}
