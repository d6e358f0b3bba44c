package deupnet

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/deup-screening/deup/model"
)

// Save writes the trained model in package model's file format (method
// "deup"; the σ features' reference, the aleatoric regressor and the
// novelty scale in the header).
func (m *DEUP) Save(w io.Writer) error {
	if !m.trained {
		return fmt.Errorf("model: save: model is not trained")
	}
	h := model.Header{Method: m.Name(), Config: model.NewFileConfig(m.cfg.Config), Features: m.feat, Mean: m.mean, SD: m.sd,
		Replicated: m.replicated, SigmaLoss: m.sigmaLoss(), SigmaScale: m.savedScale()}
	var err error
	if h.Aleatoric, err = rawJSON(m.alea); err == nil {
		if h.SigmaRef, err = rawJSON(m.sref); err == nil {
			if h.Novelty, err = rawJSON(m.nov); err == nil {
				h.SigmaBound, err = rawJSON(m.bound)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("model: save: %w", err)
	}
	return model.Encode(w, h, []*model.Network{m.net})
}

// rawJSON is v as a raw header field; nil (absent) for nil.
func rawJSON[T any](v *T) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	return json.Marshal(v)
}

// fromJSON reads a raw header field into a new T; nil when absent.
func fromJSON[T any](raw json.RawMessage) (*T, error) {
	if !model.Present(raw) {
		return nil, nil
	}
	v := new(T)
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, err
	}
	return v, nil
}

// Load reads a DEUP written by Save. Corrupt input is an error wrapping
// model.ErrFormat, never a panic.
func Load(r io.Reader) (*DEUP, error) {
	var sref *sigmaRef
	h, nets, err := model.Decode(r, func(h *model.Header) (int, error) {
		var err error
		if sref, err = fromJSON[sigmaRef](h.SigmaRef); err != nil || sref == nil {
			return 0, err
		}
		if sref.NBits != h.Features.NBits {
			return 0, fmt.Errorf("sigma features on %d bits, features have %d", sref.NBits, h.Features.NBits)
		}
		if dy := sref.Dyn; dy != nil && dy.Hidden != 0 && dy.Hidden != h.Config.Config().WithDefaults().CombHidden {
			return 0, fmt.Errorf("sigma features: variance on width %d, network width %d", dy.Hidden, h.Config.Config().WithDefaults().CombHidden)
		}
		if err := sref.check(); err != nil {
			return 0, err
		}
		sref.derive()
		return sref.columns(), nil
	})
	if err != nil {
		return nil, err
	}
	if h.Method != "deup" {
		return nil, fmt.Errorf("%w: a %s model, not deup", model.ErrFormat, h.Method)
	}
	if len(nets) != 1 || !h.Sigma {
		return nil, fmt.Errorf("%w: deup model with %d networks", model.ErrFormat, len(nets))
	}
	cfg := Config{Config: h.Config.Config()}.withDefaults()
	if sref != nil {
		cfg = cfg.withSide(sref.columns())
		cfg.SigmaFeatures = sref.feat
	}
	if h.SigmaLoss != "" && h.SigmaLoss != "nll" && h.SigmaLoss != "log" || h.SigmaScale < 0 || math.IsNaN(h.SigmaScale) || math.IsInf(h.SigmaScale, 0) {
		return nil, fmt.Errorf("%w: sigma loss %q, scale %v", model.ErrFormat, h.SigmaLoss, h.SigmaScale)
	}
	cfg.SigmaLoss = h.SigmaLoss
	m := &DEUP{cfg: cfg, net: nets[0], fwd: model.NewForwarder(nets[0]), feat: h.Features, sref: sref, mean: h.Mean, sd: h.SD, sigmaScale: h.SigmaScale, replicated: h.Replicated, trained: true}
	if m.alea, err = fromJSON[aleatoric](h.Aleatoric); err != nil {
		return nil, fmt.Errorf("%w: header: %v", model.ErrFormat, err)
	}
	if m.nov, err = fromJSON[novelty](h.Novelty); err != nil {
		return nil, fmt.Errorf("%w: header: %v", model.ErrFormat, err)
	}
	if m.bound, err = fromJSON[sigmaBound](h.SigmaBound); err != nil {
		return nil, fmt.Errorf("%w: header: %v", model.ErrFormat, err)
	}
	if m.bound != nil {
		if err := m.bound.check(m.cfg.Lines()); err != nil {
			return nil, fmt.Errorf("%w: %v", model.ErrFormat, err)
		}
	}
	if m.alea != nil {
		if err := m.alea.check(m.cfg.CombHidden); err != nil {
			return nil, fmt.Errorf("%w: %v", model.ErrFormat, err)
		}
	}
	if m.nov != nil {
		if err := m.nov.check(h.Features.NBits); err != nil {
			return nil, fmt.Errorf("%w: %v", model.ErrFormat, err)
		}
	}
	return m, nil
}
