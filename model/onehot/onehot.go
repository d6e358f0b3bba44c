package onehot

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/nn"

	"github.com/deup-screening/deup/internal/streams"
)

// Name is the method's registry name.
const Name = "onehot"

// Magic starts every saved one-hot model.
const Magic = "DEUP-ONEHOT v1\n"

// Hidden are the reference's hidden widths, Dropout its dropout rate
// (issue 40's one-hot MLP: 1024–512, dropout 0.3).
var hidden = [...]int{1024, 512}

// Dropout is the reference's dropout rate after each hidden layer.
const Dropout = 0.3

// Config is the training of the reference: the batch, learning rate,
// epoch cap, patience and weight decay of model.Config (the zero value of
// each takes the budget rule of model.Config.Budget for the screen), and
// the seed.
type Config struct {
	model.Config
}

// Method is the one-hot MLP reference. It implements model.Method.
type Method struct {
	cfg     Config
	net     *nn.MLP
	feat    model.FeatureConfig
	drugs   map[string]int // training drug id → input column
	ids     []string       // input column → drug id
	lines   int            // cell lines of the training set (1: no line columns)
	mean    float64
	sd      float64
	sigma   float64 // validation RMSE (original units): the constant σ
	trained bool
}

// New returns an untrained reference.
func New(cfg Config) *Method { return &Method{cfg: cfg} }

// Name implements model.Method.
func (m *Method) Name() string { return Name }

// FeatureConfig implements model.Method: the configuration of the
// training features (only their drug ids are read).
func (m *Method) FeatureConfig() model.FeatureConfig { return m.feat }

// AleatoricNote implements model.Method.
func (m *Method) AleatoricNote() string {
	return "none: the one-hot reference predicts a mean; its σ is the validation RMSE, the same for every pair"
}

func (m *Method) width() int {
	w := len(m.ids)
	if m.lines > 1 {
		w += m.lines
	}
	return w
}

// row writes the input of a pair (drug columns a and b, −1 for a drug
// the model does not know, and line l) into x.
func (m *Method) row(x []float32, a, b, l int) {
	clear(x)
	if a >= 0 {
		x[a]++
	}
	if b >= 0 {
		x[b]++
	}
	if m.lines > 1 {
		x[len(m.ids)+l] = 1
	}
}

// Fit implements model.Method: it trains on split.Train with early
// stopping on the validation RMSE of split.Val (required) and keeps the
// best epoch.
func (m *Method) Fit(ctx context.Context, d *model.Dataset, split drugcomb.Split, progress func(model.Progress)) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if err := model.CheckSplit(d, split, true); err != nil {
		return fmt.Errorf("onehot: %w", err)
	}
	m.trained = false
	m.feat = d.Features.Config
	m.lines = d.Lines()
	m.drugs, m.ids = map[string]int{}, nil
	col := make([]int, d.Features.NumDrugs())
	for i := range col {
		col[i] = -1
	}
	for _, i := range split.Train {
		for _, r := range [2]int{d.Pairs[i].A, d.Pairs[i].B} {
			if col[r] >= 0 {
				continue
			}
			id := d.Features.ID(r)
			if _, dup := m.drugs[id]; dup {
				return fmt.Errorf("onehot: drug id %q on two feature rows", id)
			}
			col[r] = len(m.ids)
			m.drugs[id] = col[r]
			m.ids = append(m.ids, id)
		}
	}
	cfg := m.cfg.Config.Budget(len(split.Train)).WithDefaults()
	if err := cfg.Validate(); err != nil {
		return err
	}
	m.mean, m.sd = model.Standardization(d, split.Train)
	w := m.width()
	net, err := nn.NewMLP(nn.MLPConfig{In: w, Hidden: hidden[:], Out: 1, Dropout: Dropout, Seed: cfg.Seed})
	if err != nil {
		return fmt.Errorf("onehot: %w", err)
	}
	bs := min(cfg.BatchSize, len(split.Train))
	tr, err := nn.NewTrainer(net, nn.TrainConfig{Loss: nn.MSE, Batch: bs, LR: cfg.LR, WeightDecay: cfg.WeightDecay, Seed: cfg.Seed ^ streams.OneHot})
	if err != nil {
		return fmt.Errorf("onehot: %w", err)
	}
	defer tr.Close()
	inputs := func(idx []int, x []float32) {
		for k, i := range idx {
			p := d.Pairs[i]
			m.row(x[k*w:(k+1)*w], col[p.A], col[p.B], p.Line)
		}
	}
	xv := make([]float32, len(split.Val)*w)
	inputs(split.Val, xv)
	var out []float32
	valRMSE := func() float64 {
		out = net.Predict(xv, len(split.Val), out)
		s := 0.0
		for k, i := range split.Val {
			r := float64(out[k])*m.sd + m.mean - d.Y[i]
			s += r * r
		}
		return math.Sqrt(s / float64(len(split.Val)))
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, streams.OneHot))
	train := append([]int(nil), split.Train...)
	xb, yb := make([]float32, bs*w), make([]float32, bs)
	best, bestEpoch, epochs := math.Inf(1), 0, 0
	snap := make([][]float32, len(net.Params()))
	start := time.Now()
	sched := model.NewSchedule(cfg, len(train))
	for epoch := 1; epoch <= cfg.MaxEpochs; epoch++ {
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		sum := 0.0
		for lo := 0; lo < len(train); lo += bs {
			if err := ctx.Err(); err != nil {
				return err
			}
			idx := train[lo:min(lo+bs, len(train))]
			inputs(idx, xb)
			for k, i := range idx {
				yb[k] = float32((d.Y[i] - m.mean) / m.sd)
			}
			tr.SetLR(sched.Next())
			l, err := tr.Step(xb[:len(idx)*w], yb[:len(idx)], nil, len(idx))
			if err != nil {
				return fmt.Errorf("onehot: %w", err)
			}
			sum += l * float64(len(idx))
		}
		epochs = epoch
		v := valRMSE()
		if v < best {
			best, bestEpoch = v, epoch
			for k, p := range net.Params() {
				snap[k] = append(snap[k][:0], p.Data...)
			}
		}
		if progress != nil {
			progress(model.Progress{Method: Name, Members: 1, Epoch: epoch, MaxEpochs: cfg.MaxEpochs, TrainLoss: sum / float64(len(train)),
				OutLoss: math.NaN(), ValRMSE: v, BestEpoch: bestEpoch, Elapsed: time.Since(start)})
		}
		if sched.Stop(epoch, bestEpoch) {
			break
		}
	}
	for k, p := range net.Params() {
		copy(p.Data, snap[k])
	}
	m.net, m.sigma, m.trained = net, best, true
	if progress != nil {
		progress(model.Progress{Method: Name, Members: 1, Epoch: epochs, BestEpoch: bestEpoch, MaxEpochs: cfg.MaxEpochs, Elapsed: time.Since(start), Done: true, OutLoss: math.NaN(), ValRMSE: math.NaN()})
	}
	return nil
}

// Predict implements model.Method. A drug the model was not trained on
// has no column (it enters as zeros: the prediction is the line's and
// the other drug's).
func (m *Method) Predict(f *model.Features, pairs []model.PairRef) ([]model.Prediction, error) {
	if err := model.CheckPredict(m.trained, m.feat, m.lines, f, pairs); err != nil {
		return nil, err
	}
	col := make([]int, f.NumDrugs())
	for r := range col {
		c, ok := m.drugs[f.ID(r)]
		if !ok {
			c = -1
		}
		col[r] = c
	}
	w := m.width()
	x := make([]float32, len(pairs)*w)
	for k, p := range pairs {
		m.row(x[k*w:(k+1)*w], col[p.A], col[p.B], p.Line)
	}
	out := m.net.Predict(x, len(pairs), nil)
	res := make([]model.Prediction, len(pairs))
	for k := range pairs {
		res[k] = model.Prediction{Mu: float64(out[k])*m.sd + m.mean, SigmaTotal: m.sigma, SigmaEpistemic: m.sigma}
	}
	return res, nil
}

// header is the JSON part of a saved model.
type header struct {
	Features model.FeatureConfig `json:"features"`
	Drugs    []string            `json:"drugs"`
	Lines    int                 `json:"lines"`
	Mean     float64             `json:"mean"`
	SD       float64             `json:"sd"`
	Sigma    float64             `json:"sigma"`
}

// Save implements model.Method: Magic, the header's length (uint64, little
// endian), the JSON header and the network's parameters (nn.Params.Save).
func (m *Method) Save(w io.Writer) error {
	if !m.trained {
		return fmt.Errorf("onehot: save: model is not trained")
	}
	js, err := json.Marshal(header{Features: m.feat, Drugs: m.ids, Lines: m.lines, Mean: m.mean, SD: m.sd, Sigma: m.sigma})
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(Magic)
	binary.Write(bw, binary.LittleEndian, uint64(len(js)))
	bw.Write(js)
	if err := m.net.Params().Save(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// maxHeader bounds the JSON header of a file (drug ids of a large screen
// fit easily).
const maxHeader = 1 << 24

// Load reads a model written by Save.
func Load(r io.Reader) (*Method, error) {
	br := bufio.NewReader(r)
	mg := make([]byte, len(Magic))
	if _, err := io.ReadFull(br, mg); err != nil || string(mg) != Magic {
		return nil, fmt.Errorf("onehot: load: not a saved one-hot model (bad magic)")
	}
	var n uint64
	if err := binary.Read(br, binary.LittleEndian, &n); err != nil || n > maxHeader {
		return nil, fmt.Errorf("onehot: load: header length %d: %v", n, err)
	}
	js := make([]byte, n)
	if _, err := io.ReadFull(br, js); err != nil {
		return nil, fmt.Errorf("onehot: load: header: %w", err)
	}
	var h header
	if err := json.Unmarshal(js, &h); err != nil {
		return nil, fmt.Errorf("onehot: load: header: %w", err)
	}
	if err := h.Features.Validate(); err != nil {
		return nil, fmt.Errorf("onehot: load: %w", err)
	}
	if len(h.Drugs) == 0 || h.Lines < 1 || h.Lines > 1<<20 || !(h.SD > 0) || math.IsNaN(h.Mean) || math.IsInf(h.Mean, 0) || !(h.Sigma >= 0) {
		return nil, fmt.Errorf("onehot: load: header out of range: %d drugs, %d lines, sd %v, sigma %v", len(h.Drugs), h.Lines, h.SD, h.Sigma)
	}
	m := &Method{feat: h.Features, ids: h.Drugs, lines: h.Lines, mean: h.Mean, sd: h.SD, sigma: h.Sigma, drugs: map[string]int{}}
	for i, id := range h.Drugs {
		if _, dup := m.drugs[id]; dup {
			return nil, fmt.Errorf("onehot: load: drug %q listed twice", id)
		}
		m.drugs[id] = i
	}
	net, err := nn.NewMLP(nn.MLPConfig{In: m.width(), Hidden: hidden[:], Out: 1, Dropout: Dropout})
	if err != nil {
		return nil, fmt.Errorf("onehot: load: %w", err)
	}
	if err := net.Params().Load(br); err != nil {
		return nil, fmt.Errorf("onehot: load: %w", err)
	}
	m.net, m.trained = net, true
	return m, nil
}
