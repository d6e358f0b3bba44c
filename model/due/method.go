package due

import (
	"context"
	"fmt"
	"math"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/nn"
)

// Method is DUE behind the model.Method interface shared with DEUP and the
// other baselines.
type Method struct {
	cfg   Config
	feat  model.FeatureConfig
	model *Net
}

var _ model.Method = (*Method)(nil)

// New returns an untrained DUE method; cfg's zero fields take the defaults
// documented on Config.
func New(cfg Config) *Method { return &Method{cfg: cfg.withDefaults()} }

// Name is "due".
func (m *Method) Name() string { return "due" }

// FeatureConfig is the configuration of the training features.
func (m *Method) FeatureConfig() model.FeatureConfig { return m.feat }

// AleatoricNote says where SigmaAleatoric comes from.
func (m *Method) AleatoricNote() string {
	return "homoscedastic: the GP likelihood's learned noise variance (the same for every pair)"
}

// Model returns the trained model (nil before Fit).
func (m *Method) Model() *Net { return m.model }

// sparseOf shares the CSR arrays of f (no copy).
func sparseOf(f *model.Features) *nn.CSR {
	return &nn.CSR{Dim: f.Config.Dim(), RowPtr: f.RowPtr, Col: f.Col, Val: f.Val}
}

func pairsOf(d *model.Dataset, idx []int) Pairs {
	p := Pairs{A: make([]int, len(idx)), B: make([]int, len(idx)), Y: make([]float64, len(idx))}
	if d.Lines() > 1 {
		p.L = make([]int, len(idx))
	}
	for k, i := range idx {
		p.A[k], p.B[k], p.Y[k] = d.Pairs[i].A, d.Pairs[i].B, d.Y[i]
		if p.L != nil {
			p.L[k] = d.Pairs[i].Line
		}
	}
	return p
}

// Fit trains on split.Train with early stopping on split.Val (which may be
// empty: then MaxEpochs epochs). It never reads split.Test.
func (m *Method) Fit(ctx context.Context, d *model.Dataset, split drugcomb.Split, progress func(model.Progress)) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if err := d.Features.Validate(); err != nil {
		return err
	}
	for _, part := range []struct {
		name string
		idx  []int
	}{{"train", split.Train}, {"val", split.Val}} {
		for _, i := range part.idx {
			if i < 0 || i >= len(d.Pairs) {
				return fmt.Errorf("due: split: %s index %d out of range [0,%d)", part.name, i, len(d.Pairs))
			}
		}
	}
	var prog func(Progress)
	if progress != nil {
		prog = func(p Progress) {
			progress(model.Progress{Method: "due", Members: 1, Epoch: p.Epoch, MaxEpochs: p.MaxEpochs,
				TrainLoss: p.TrainLoss, OutLoss: math.NaN(), ValRMSE: p.ValRMSE, BestEpoch: p.BestEpoch,
				Elapsed: p.Elapsed, Done: p.Done})
		}
	}
	m.model = nil
	m.cfg.Lines, m.cfg.lineX = 0, nil
	if d.Lines() > 1 {
		m.cfg.Lines = d.Lines()
		if len(d.LineFeatures) > 0 {
			m.cfg.lineX = &d.LineFeatures // the line input's X (model.LineInput)
		}
	}
	tm, err := Train(ctx, m.cfg, sparseOf(d.Features), pairsOf(d, split.Train), pairsOf(d, split.Val), prog)
	if err != nil {
		return err
	}
	m.model = tm
	m.feat = d.Features.Config
	return nil
}

// Predict returns μ and σ per pair: σ_epistemic² is the GP's latent
// variance, σ_aleatoric² the likelihood noise, σ_total² their sum (DUE's
// predictive variance), in target units.
func (m *Method) Predict(f *model.Features, pairs []model.PairRef) ([]model.Prediction, error) {
	if m.model == nil {
		return nil, fmt.Errorf("due: predict: model is not trained")
	}
	if f == nil {
		return nil, fmt.Errorf("due: predict: no features")
	}
	if f.Config != m.feat {
		return nil, fmt.Errorf("due: predict: features %+v, model trained on %+v", f.Config, m.feat)
	}
	p := Pairs{A: make([]int, len(pairs)), B: make([]int, len(pairs))}
	if m.model.Config.Lines > 1 {
		p.L = make([]int, len(pairs))
	}
	for i, q := range pairs {
		p.A[i], p.B[i] = q.A, q.B
		if p.L != nil {
			p.L[i] = q.Line
		} else if q.Line != 0 {
			return nil, fmt.Errorf("due: predict: pair %d on cell line %d; the model knows one", i, q.Line)
		}
	}
	mean, vari, noise, err := m.model.Predict(sparseOf(f), p)
	if err != nil {
		return nil, err
	}
	out := make([]model.Prediction, len(pairs))
	sa := math.Sqrt(noise)
	for i := range out {
		out[i] = model.Prediction{Mu: mean[i], SigmaTotal: math.Sqrt(vari[i] + noise),
			SigmaEpistemic: math.Sqrt(vari[i]), SigmaAleatoric: sa}
	}
	return out, nil
}
