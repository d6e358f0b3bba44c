package active

import (
	"context"
	"fmt"
	"math"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// WithTrainProgress returns a surrogate that fits and predicts exactly as s
// (same name, same seeds, same networks, so the same model version and the
// same batch) but whose network trainings report every epoch to fn, as
// package model's Progress (one network after another: Alg. 2's pre-fill
// folds, then the round's main predictor). Surrogates without a network
// ("deup", "bayes-ridge", "ensemble") are returned unchanged. fn is called
// on the goroutine that fits; a nil fn returns s.
func WithTrainProgress(s Surrogate, fn func(model.Progress)) Surrogate {
	if fn == nil {
		return s
	}
	switch s := s.(type) {
	case *netDEUP:
		n, ok := s.Main.(*Net)
		if !ok {
			return s
		}
		c := *s
		c.Main = &progressNet{Net: n, fn: fn}
		return &c
	case *NetMethod:
		return &progressNetMethod{NetMethod: s, fn: fn}
	}
	return s
}

// progressNet is Net whose Fit reports the network's epochs.
type progressNet struct {
	*Net
	fn func(model.Progress)
}

// Fit is Net.Fit with a progress function.
func (n *progressNet) Fit(x [][]float64, y []float64) (deup.Predictor, error) {
	if len(x) < 5 {
		return nil, fmt.Errorf("active: deup-net: %d pairs, need at least 5", len(x))
	}
	d := &model.Dataset{Features: n.Feat}
	for i := range x {
		p, err := n.pairOf(x[i])
		if err != nil {
			return nil, err
		}
		d.Pairs = append(d.Pairs, p)
		d.Y = append(d.Y, y[i])
		d.N = append(d.N, 1)
		d.Var = append(d.Var, math.NaN())
	}
	split := drugcomb.SplitRandom(len(d.Pairs), [3]float64{0.8, 0.2, 0}, n.Seed)
	m := model.NewDEUP(n.Config)
	if err := m.Fit(context.Background(), d, split, n.fn); err != nil {
		return nil, fmt.Errorf("active: deup-net: %w", err)
	}
	return &netModel{net: n.Net, m: m, cache: map[model.Pair]model.Prediction{}}, nil
}

// progressNetMethod is NetMethod whose Fit reports the network's epochs.
type progressNetMethod struct {
	*NetMethod
	fn func(model.Progress)
}

// Fit is NetMethod.Fit with a progress function.
func (s *progressNetMethod) Fit(ctx context.Context, ev Evidence) error {
	d := &model.Dataset{Features: s.Feat}
	for _, m := range ev.Measured {
		d.Pairs = append(d.Pairs, model.Pair{A: m.Pair.A, B: m.Pair.B})
		d.Y = append(d.Y, m.Y)
		d.N = append(d.N, 1)
		d.Var = append(d.Var, math.NaN())
	}
	s.m = s.New(ev.Seed)
	split := drugcomb.SplitRandom(len(d.Pairs), [3]float64{0.8, 0.2, 0}, ev.Seed)
	if err := s.m.Fit(ctx, d, split, s.fn); err != nil {
		return fmt.Errorf("active: %s: %w", s.Label, err)
	}
	return nil
}
